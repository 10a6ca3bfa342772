"""The advisors the shells can ask (``--advisor``): the seed's list, or the exact analyzer."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence

from casino.cards import Card
from casino.videopoker.commands import Advisor
from casino.videopoker.paytable import PayTable
from casino.videopoker.strategy import seed_hold

_ANALYZER = "casino.videopoker.analyzer"


def seed_advisor(hand: Sequence[Card], table: PayTable, bet: int) -> tuple[int, ...]:
    """The seed's 34-line strategy (the pay table and bet do not change it)."""
    return seed_hold(hand)


def exact_advisor(hand: Sequence[Card], table: PayTable, bet: int) -> tuple[int, ...]:
    """The hold with the highest expected return for this pay table and bet."""
    analyzer = importlib.import_module(_ANALYZER)  # lazy: only when this advisor is chosen
    return tuple(int(position) for position in analyzer.best_hold(hand, table, bet))


ADVISORS: dict[str, Advisor] = {"seed": seed_advisor, "exact": exact_advisor}
"""Advisors by the name ``--advisor`` takes."""


def available(name: str) -> bool:
    """Whether advisor ``name`` can run in this installation."""
    if name == "exact":
        return importlib.util.find_spec(_ANALYZER) is not None
    return name in ADVISORS
