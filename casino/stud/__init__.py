"""Three-card stud (the CS112 "Poker" project): dealer, player, tournament, tester.

- :mod:`~casino.stud.protocol`: the wire messages, pure;
- :mod:`~casino.stud.rules`: who acts first, who wins, how the pot is shared;
- :mod:`~casino.stud.dealer`: the asyncio Dealer; :mod:`~casino.stud.screen`: what it shows;
- :mod:`~casino.stud.player`, :mod:`~casino.stud.strategy`, :mod:`~casino.stud.bots`: players;
- :mod:`~casino.stud.tournament`, :mod:`~casino.stud.check`: Casino Day and the tester;
  :mod:`~casino.stud.rubric`: the tester's rubric lines, points and probes (data);
- :mod:`~casino.stud.cli`: ``casino stud dealer|player|tournament`` and one player's
  ``check`` (a class's ``check`` and ``tournament`` are :mod:`casino.grade.studcli`'s).
"""
