"""Texas Hold'em for CASINO-ROYAL: you against the computer, hot-seat, and a network table.

- :mod:`casino.holdem.engine`: one hand, pure (verify/can/act, side pots, showdown).
- :mod:`casino.holdem.table`: seats and stacks across hands, the button, saving.
- :mod:`casino.holdem.names`: hand names as the seed writes them (Spanish and English).
- :mod:`casino.holdem.equity`: Monte Carlo and exact equity on the fast evaluator.
- :mod:`casino.holdem.bots`: computer players in three styles.
- :mod:`casino.holdem.shell`, :mod:`casino.holdem.server`, :mod:`casino.holdem.client`,
  :mod:`casino.holdem.cli`: the terminal table, the asyncio table server and its client.
"""
