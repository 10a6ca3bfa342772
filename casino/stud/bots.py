"""Baseline players to measure ours against, and the :class:`Decider` they share with it.

- ``always-call``: matches every bet, never raises, folds only when it cannot match;
- ``random-legal``: any legal reply (a fold or any legal amount), uniformly at random;
- ``pair-or-fold``: the seed's "simple strategy": with a pair or better among its own cards
  it bets the most it may, otherwise it bets 0 when that is allowed and folds when not.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from casino.stud.protocol import Action, Bet, BetRequest, Fold, legal_range
from casino.stud.strategy import Strategy


class Decider(Protocol):
    """Anything that answers ``bet1``/``bet2``."""

    def decide(self, request: BetRequest) -> Action:
        """The reply to ``request``."""
        ...


class AlwaysCall:
    """Matches every bet."""

    def decide(self, request: BetRequest) -> Action:
        """Bet exactly the amount to match, or fold when the stack cannot."""
        allowed = legal_range(request.stack, request.to_match)
        return Bet(allowed.start) if allowed else Fold()


class RandomLegal:
    """A uniformly random legal reply."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, request: BetRequest) -> Action:
        """Fold or any legal amount, each as likely."""
        choices: list[Action] = [Fold(), *map(Bet, legal_range(request.stack, request.to_match))]
        return self.rng.choice(choices)


class PairOrFold:
    """Big with a pair, free or out without one."""

    def decide(self, request: BetRequest) -> Action:
        """The most it may with a pair or better, else 0 if free, else fold."""
        allowed = legal_range(request.stack, request.to_match)
        ranks = [card.rank for card in request.cards]
        if allowed and len(set(ranks)) < len(ranks):
            return Bet(allowed.stop - 1)
        return Bet(0) if request.to_match == 0 and allowed else Fold()


STRATEGIES: dict[str, Callable[[random.Random], Decider]] = {
    "ours": lambda rng: Strategy(),
    "always-call": lambda rng: AlwaysCall(),
    "random-legal": RandomLegal,
    "pair-or-fold": lambda rng: PairOrFold(),
}
"""Every player strategy casino ships, by name."""

BASELINES = ("always-call", "random-legal", "pair-or-fold")
"""The baselines our strategy must beat."""
