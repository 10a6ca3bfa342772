"""Poker hand ranking: five cards, or the best five of six or seven.

:func:`rank_hand` returns a :class:`HandValue`, totally ordered: a higher value is a better
hand and equal values split the pot. Ties are broken by real poker rules: the rank of the
quads, trips or pairs first, then the kickers; the wheel (A-2-3-4-5) is the lowest straight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from casino.cards.card import Card
from casino.errors import ParseError


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
        strength = int(category)
        for position in range(5):
            strength = (strength << 4) | (ranks[position] if position < len(ranks) else 0)
        return cls(strength)

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


_WHEEL = 1 << 14 | 0b1111 << 2  # A, 5, 4, 3, 2 as bits of rank numbers


def _straight_top(rank_bits: int) -> int:
    """The top rank number of the best straight in ``rank_bits`` (bit n = rank n), or 0."""
    for top in range(14, 5, -1):
        run = 0b11111 << (top - 4)
        if rank_bits & run == run:
            return top
    return 5 if rank_bits & _WHEEL == _WHEEL else 0


def rank_hand(cards: Sequence[Card]) -> HandValue:
    """The value of the best five-card hand among 5, 6 or 7 distinct ``cards``."""
    if not 5 <= len(cards) <= 7 or len(set(cards)) != len(cards):
        raise ParseError(f"a poker hand is 5 to 7 distinct cards, not {len(cards)}")
    by_suit: dict[object, list[int]] = {}
    counts = [0] * 15
    for card in cards:
        number = card.rank.number
        counts[number] += 1
        by_suit.setdefault(card.suit, []).append(number)
    flush = next((ranks for ranks in by_suit.values() if len(ranks) >= 5), None)
    if flush is not None:
        top = _straight_top(sum(1 << rank for rank in flush))
        if top:
            return HandValue.of(Category.STRAIGHT_FLUSH, [top])
    # rank numbers grouped by multiplicity, each group high to low
    groups = sorted(((counts[r], r) for r in range(14, 1, -1) if counts[r]), reverse=True)
    ordered = [rank for count, rank in groups for _ in range(count)]
    (first_count, first), *rest = groups
    second_count = rest[0][0] if rest else 0
    if first_count == 4:
        return HandValue.of(Category.FOUR_OF_A_KIND, [first, max(r for _, r in rest)])
    if first_count == 3 and second_count >= 2:
        return HandValue.of(Category.FULL_HOUSE, [first, rest[0][1]])
    if flush is not None:
        return HandValue.of(Category.FLUSH, sorted(flush, reverse=True)[:5])
    top = _straight_top(sum(1 << rank for _, rank in groups))
    if top:
        return HandValue.of(Category.STRAIGHT, [top])
    if first_count == 3:
        return HandValue.of(Category.THREE_OF_A_KIND, _kickers(first, [], ordered, 2))
    if first_count == 2 and second_count == 2:
        second = rest[0][1]
        return HandValue.of(Category.TWO_PAIR, _kickers(first, [second], ordered, 1))
    if first_count == 2:
        return HandValue.of(Category.ONE_PAIR, _kickers(first, [], ordered, 3))
    return HandValue.of(Category.HIGH_CARD, ordered[:5])


def _kickers(first: int, more: list[int], ordered: list[int], count: int) -> list[int]:
    """``first`` and ``more`` (the made ranks), then the ``count`` best other ranks."""
    made = {first, *more}
    others = sorted((rank for rank in set(ordered) if rank not in made), reverse=True)
    return [first, *more, *others[:count]]
