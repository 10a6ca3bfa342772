"""Five-card draw (the Play5CardDraw assignment): you are Player_1 against computer players.

- :mod:`~casino.draw.rules`: the table, its rounds and the showdown (pure);
- :mod:`~casino.draw.strategy`: the computer players' bets and exchanges (pure);
- :mod:`~casino.draw.play`: one game in the seed's order, decisions asked by callback;
- :mod:`~casino.draw.messages`: the seed's text; :mod:`~casino.draw.validate`: its questions;
- :mod:`~casino.draw.shell` and :mod:`~casino.draw.cli`: the console and the command line.
"""
