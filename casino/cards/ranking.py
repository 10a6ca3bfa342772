"""Poker hand values: five cards, or the best five of six or seven.

:func:`rank_hand` returns a :class:`HandValue`, totally ordered: a higher value is a better
hand and equal values split the pot. Ties are broken by real poker rules: the rank of the
quads, trips or pairs first, then the kickers; the wheel (A-2-3-4-5) is the lowest straight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum


class Category(IntEnum):
    """The category of a poker hand, ordered from worst to best."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category in words: ``'Four of a Kind'``."""
        return _LABELS[self]


_LABELS = {
    category: category.name.replace("_", " ").title().replace(" Of A ", " of a ")
    for category in Category
}


_CATEGORY_SHIFT = 20


def pack_strength(category: Category, ranks: Sequence[int]) -> int:
    """The :attr:`HandValue.strength` of a hand of ``category`` with tie-break ``ranks``."""
    strength = int(category)
    for position in range(5):
        strength = (strength << 4) | (ranks[position] if position < len(ranks) else 0)
    return strength


@dataclass(frozen=True, order=True, slots=True)
class HandValue:
    """The value of a poker hand, as one integer that orders hands exactly as poker does.

    ``strength`` packs the category above five 4-bit rank numbers (2..14) in order of
    significance: for a full house of queens over fours that is ``FULL_HOUSE, 12, 4``; for a
    flush its five ranks high to low; for a straight its top card (5 for the wheel).
    """

    strength: int

    @classmethod
    def of(cls, category: Category, ranks: Sequence[int]) -> HandValue:
        """The value of a hand of ``category`` with tie-break rank numbers ``ranks``."""
        return cls(pack_strength(category, ranks))

    @property
    def category(self) -> Category:
        """The hand's :class:`Category`."""
        return Category(self.strength >> _CATEGORY_SHIFT)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The tie-break rank numbers, most significant first (zeros dropped)."""
        nibbles = ((self.strength >> shift) & 0xF for shift in (16, 12, 8, 4, 0))
        return tuple(rank for rank in nibbles if rank)

    def __str__(self) -> str:
        return self.category.label
