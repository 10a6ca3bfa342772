"""Suit classes: the known class counts, weights that add up, and consistent numbering."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from casino.cards.suitclasses import CLASS_COUNTS, class_key, class_numbers, suit_classes


@pytest.mark.parametrize(
    ("size", "count"), [(0, 1), (1, 13), (2, 169), (3, 1_755), (4, 16_432), (5, 134_459)]
)
def test_class_counts_and_weights(size: int, count: int) -> None:
    classes = suit_classes(size)
    assert len(classes) == count
    assert sum(suit_class.weight for suit_class in classes) == math.comb(52, size)
    assert len({suit_class.masks for suit_class in classes}) == count
    assert CLASS_COUNTS[size] == count
    for suit_class in classes[:: max(1, count // 500)]:
        assert len(suit_class.cards) == size
        assert class_key(suit_class.cards) == suit_class.masks


def test_renaming_suits_keeps_the_class() -> None:
    rng = random.Random(6)
    for _ in range(200):
        cards = rng.sample(range(52), 5)
        renaming = rng.sample(range(4), 4)
        renamed = [card - card % 4 + renaming[card % 4] for card in cards]
        assert class_key(renamed) == class_key(cards)
    assert class_key([0, 4, 8, 12, 16]) != class_key([0, 4, 8, 12, 17])  # flush or not


def test_class_numbers_follow_hand_numbering() -> None:
    classes = suit_classes(3)
    numbers = class_numbers(3, classes)
    assert len(numbers) == math.comb(52, 3)
    colex = sorted(itertools.combinations(range(52), 3), key=lambda cards: cards[::-1])
    for number, cards in enumerate(colex):
        assert classes[numbers[number]].masks == class_key(cards)
