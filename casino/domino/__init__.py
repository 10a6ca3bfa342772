"""CASINO-ROYAL dominoes (``casino domino``): double-six, the member against the computer.

- :mod:`~casino.domino.tiles`: the 28 tiles, how they are read and drawn (ASCII or Unicode);
- :mod:`~casino.domino.rules`: the deal and opening draw, the line of play, the boneyard,
  moves, time-outs, blocked hands (pure);
- :mod:`~casino.domino.money`: bankrolls and the $10 stake (pure);
- :mod:`~casino.domino.strategy`: the computer's player and two baselines (pure);
- :mod:`~casino.domino.commands`: what the member types, in Spanish or English (pure);
- :mod:`~casino.domino.shell`: the match in a console, with the move clock;
- :mod:`~casino.domino.cli`: the command line (``python -m casino.domino``).
"""
