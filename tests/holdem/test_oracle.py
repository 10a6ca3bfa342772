"""Thousands of seeded random-action hands, judged against pokerkit replaying them."""

from __future__ import annotations

import json
import os
import random

import pytest

from casino.holdem.engine import Hand
from casino.holdem.oracle import pokerkit_stacks, random_action, random_hand

pytest.importorskip("pokerkit")

HANDS = int(os.environ.get("CASINO_HOLDEM_HANDS", "600"))
"""Hands per run, seeded (600: 2 to 9 players, side pots and short all-ins among them; set
CASINO_HOLDEM_HANDS higher for a longer soak: each hand costs ~13 ms of CPU in pokerkit)."""


@pytest.mark.parametrize("seed", range(4))
def test_random_hands_pay_what_pokerkit_pays(seed: int) -> None:
    rng = random.Random(seed)
    for number in range(HANDS // 4):
        hand = random_hand(rng, rng.randint(2, 9))
        assert hand.over
        assert sum(hand.stacks) == sum(hand.starting), number
        assert sum(award.amount for award in hand.awards) == sum(hand.collected), number
        assert hand.stacks == pokerkit_stacks(hand), (seed, number, hand.to_dict())


def test_a_hand_saved_mid_way_and_restored_plays_on_identically() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        hand = Hand.deal([500, 300, 1000, 40], seed % 4, (5, 10), deck)
        for _ in range(rng.randint(0, 6)):
            if not hand.over:
                random_action(hand, rng)
        twin = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
        assert twin == hand
        first, second = random.Random(seed), random.Random(seed)
        while not hand.over:
            random_action(hand, first)
            random_action(twin, second)
        assert twin.over
        assert twin == hand
        assert sum(hand.stacks) == 1840
