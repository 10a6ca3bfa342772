"""Sets of cards up to a renaming of the suits (suit isomorphism).

Poker values do not depend on which suit is which, so two sets of cards that differ only by
a permutation of the four suits are worth the same: the 2,598,960 five-card hands fall into
134,459 such classes. A set is described by its four *suit masks* (bit ``r`` of mask ``s`` is
the card of rank ``r`` (0 = deuce) and suit ``s``), and its class by the same four masks in a
canonical order: each written as ``popcount << 13 | mask`` (a :data:`MaskKey`), sorted from
largest to smallest.

Cards are their :attr:`~casino.cards.Card.index` ``4 * rank + suit`` as everywhere.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from casino.cards.combos import subset_sums

N_RANKS = 13
N_SUITS = 4
_MASK = (1 << N_RANKS) - 1

MaskKey = int
"""A suit mask with its card count above it: ``popcount << 13 | mask``."""

_MASK_KEY: list[MaskKey] = [mask.bit_count() << N_RANKS | mask for mask in range(1 << N_RANKS)]
_SET_BIT: list[int] = [1 << (N_RANKS * (card & 3) + (card >> 2)) for card in range(52)]


CLASS_COUNTS = (1, 13, 169, 1_755, 16_432, 134_459)
"""How many classes :func:`suit_classes` has for sets of 0..5 cards (known before building them,
for progress reports)."""

_RANKS_X4: list[tuple[int, ...]] = [
    tuple(4 * rank for rank in range(N_RANKS) if mask >> rank & 1) for mask in range(1 << N_RANKS)
]
_SYMMETRIES = math.factorial(N_SUITS)


@dataclass(frozen=True, slots=True)
class SuitClass:
    """One class of card sets: its canonical suit masks, how many sets it stands for, and
    its representative (suit ``s`` gets mask ``s``), as card indices ascending."""

    masks: tuple[MaskKey, ...]
    weight: int
    cards: tuple[int, ...]

    @classmethod
    def of(cls, masks: tuple[MaskKey, ...]) -> SuitClass:
        """The class with these canonical masks (sorted largest first)."""
        repeats = 1
        run = 1
        for before, after in itertools.pairwise(masks):
            run = run + 1 if before == after else 1
            repeats *= run  # a run of n equal masks multiplies by n!
        ranks = _RANKS_X4
        cards = sorted([r4 + suit for suit, key in enumerate(masks) for r4 in ranks[key & _MASK]])
        return cls(masks, _SYMMETRIES // repeats, tuple(cards))


@functools.cache
def suit_classes(size: int) -> tuple[SuitClass, ...]:
    """Every class of ``size``-card sets (0..5), in a fixed order; the weights sum to C(52, size).

    The masks are chosen run by run over the ways to split ``size`` cards among the suits
    (largest part first); masks of equal card count are picked as a multiset, so every class
    appears once, already in canonical order.
    """
    by_count = [
        [_MASK_KEY[mask] for mask in range(1 << N_RANKS) if mask.bit_count() == count]
        for count in range(size + 1)
    ]
    classes: list[SuitClass] = []
    for parts in _partitions(size, N_SUITS, size):
        runs = [
            itertools.combinations_with_replacement(by_count[count][::-1], len(list(run)))
            for count, run in itertools.groupby(parts)
        ]
        classes += [
            SuitClass.of(tuple(key for run in choice for key in run))
            for choice in itertools.product(*runs)
        ]
    return tuple(classes)


def _partitions(total: int, parts: int, largest: int) -> Iterator[tuple[int, ...]]:
    """``total`` as ``parts`` non-increasing non-negative numbers, none above ``largest``."""
    if parts == 1:
        if total <= largest:
            yield (total,)
        return
    for first in range(min(total, largest), -1, -1):
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def class_key(cards: Sequence[int]) -> tuple[MaskKey, ...]:
    """The canonical masks of the class of ``cards`` (card indices)."""
    bits = sum(_SET_BIT[card] for card in cards)
    return _canonical(bits)


def _canonical(bits: int) -> tuple[MaskKey, ...]:
    key = _MASK_KEY
    return tuple(
        sorted(
            (key[bits & _MASK], key[bits >> 13 & _MASK], key[bits >> 26 & _MASK], key[bits >> 39]),
            reverse=True,
        )
    )


def class_numbers(size: int, classes: Sequence[SuitClass]) -> list[int]:
    """For every ``size``-card set, in hand-number order, the position of its class in ``classes``.

    ``classes`` are :func:`suit_classes` of that size.
    """
    position = {suit_class.masks: number for number, suit_class in enumerate(classes)}
    canonical = _canonical
    return [position[canonical(bits)] for bits in subset_sums(_SET_BIT, size)]
