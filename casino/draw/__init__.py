"""Five-card draw (the Play5CardDraw assignment): you are Player_1 against computer players.

- :mod:`~casino.draw.rules`: the table, its rounds and the showdown (pure);
- :mod:`~casino.draw.strategy`: the computer players' bets and exchanges (pure);
- :mod:`~casino.draw.play`: one game in the seed's order, decisions asked by callback;
- :mod:`~casino.draw.messages`: the seed's text; :mod:`~casino.draw.validate`: its questions;
- :mod:`~casino.draw.shell` and :mod:`~casino.draw.cli`: the console and the command line;
- :mod:`~casino.draw.contest`: casino's players against always-bet and random ones.

Decisions where the seed is silent:

- The deal: five cards to each player in turn (Player_1's five first) from the top of the
  deck; the exchanges then draw from the top in seat order. A ``--deck-file`` is read in
  that order, so a stacked deck lists the hands, then the replacements.
- Ranks print as ``a straight flush``, ``a four of a kind``, ``a full house``, ``a flush``,
  ``a straight``, ``a three of a kind``, ``a two pair``, ``a pair``, ``a Nothing``.
- An answer that is not a whole number gets the seed's starter validator's
  ``Value entered is not an int. Try again``; numbers are read strictly (ASCII digits and
  a sign, at most 18 digits). The bet-or-fold answer is exactly one of ``B b F f``.
- Everybody else folding does not end the game: as in the seed's structure, Player_1 goes on
  through the exchange and the second round and wins the showdown alone.
- Player_1 with no chips left after the first round skips the second betting round
  (``Player_1 has nothing left to bet``): no answer could be between 1 and 0.
- Player_1 folding leaves the pot where it is (the seed names no winner for it).
- ``--tiebreak kickers`` splits an exact tie (``The winners are Player_1 and Player_3 …``
  with every winning hand inside the double brackets, then who takes what; odd chips go to
  the earliest seats).
- ``--banks`` (casino's own option) gives the players different chips, which is the only way
  a computer player can be short of a bet: with equal banks all active players always
  have as much as Player_1.
- End of input at a question ends the question's line and says
  ``End of input: the game ends with no winner`` (status 0, as every casino program ends at
  the end of its input).
"""
