"""The analyzer solves each suit class once, on its representative hand with cards sorted.

That is exact for a strategy only if its choice is worth the same on every hand of the class,
whatever the card order and suit names. Check that for the seed's strategy on random deals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from casino.cards import FULL_DECK, Card, Suit
from casino.videopoker.analyzer import hold_values
from casino.videopoker.paytable import DOUBLE_BONUS_10_7
from casino.videopoker.strategy import seed_hold


def worth(hand: Sequence[Card]) -> Fraction:
    """The exact expected return of the seed's hold on ``hand``."""
    held = {hand[position] for position in seed_hold(hand)}
    values = hold_values(hand, DOUBLE_BONUS_10_7, 5)
    return next(value.ev for value in values if set(value.cards) == held)


def test_seed_holds_are_worth_the_same_across_order_and_suit_names() -> None:
    rng = random.Random(2024)
    suits = list(Suit)
    for _ in range(150):
        hand = rng.sample(FULL_DECK, 5)
        renamed = dict(zip(suits, rng.sample(suits, 4), strict=True))
        relabelled = [Card(card.rank, renamed[card.suit]) for card in hand]
        rng.shuffle(relabelled)
        assert worth(hand) == worth(sorted(hand)) == worth(relabelled), hand
