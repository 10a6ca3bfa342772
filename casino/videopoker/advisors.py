"""The advisors the shells can ask (``--advisor``): the seed's list, or the exact analyzer."""

from __future__ import annotations

from collections.abc import Sequence

from casino.cards import Card
from casino.videopoker.commands import Advisor
from casino.videopoker.paytable import PayTable
from casino.videopoker.strategy import seed_hold


def seed_advisor(hand: Sequence[Card], table: PayTable, bet: int) -> tuple[int, ...]:
    """The seed's 34-line strategy (the pay table and bet do not change it)."""
    return seed_hold(hand)


def exact_advisor(hand: Sequence[Card], table: PayTable, bet: int) -> tuple[int, ...]:
    """The hold with the highest expected return for this pay table and bet."""
    from casino.videopoker.analyzer import best_hold  # its tables load on first use

    return best_hold(hand, table, bet)


ADVISORS: dict[str, Advisor] = {"seed": seed_advisor, "exact": exact_advisor}
"""Advisors by the name ``--advisor`` takes."""
