"""How many five-card hands of each pay line contain a given set of cards.

For every set ``T`` of 0 to 4 cards, :func:`subset_counts` holds the number of five-card
hands ``h ⊇ T`` on each pay line. These are the building blocks of the exact analyzer: the
draws after holding ``S`` from a dealt hand ``D`` are the hands ``h ⊇ S`` that contain no
discarded card, and inclusion–exclusion over the sets ``S ⊆ T ⊆ D`` counts them
(:func:`draw_counts`).

A count vector (12 counts, one per pay line) is *packed* into one integer, :data:`WIDTH`
bits per line (line code ``i`` at bit ``WIDTH * i``), so that adding or subtracting two
vectors is one integer operation. Packed arithmetic is exact integer arithmetic: a signed
sum whose true counts are all between 0 and ``2**WIDTH`` unpacks to exactly those counts,
whatever its intermediate terms were.

The tables depend on the pay lines only, not on any pay table. They are built from the
cached pay-line table (:func:`~casino.videopoker.handtable.payline_by_hand`) once per class
of sets under suit renaming (:mod:`casino.cards.suitclasses`), about half a second.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from casino.cards.combos import BINOMIAL
from casino.cards.suitclasses import class_numbers, suit_classes
from casino.videopoker.handtable import PAYLINES, payline_by_hand

WIDTH = 24
"""Bits per pay line in a packed count vector; every count here is below ``2**24``."""

_FIELD = (1 << WIDTH) - 1

LINE_VECTORS: tuple[int, ...] = tuple(1 << (WIDTH * code) for code in range(len(PAYLINES)))
"""The packed vector of one hand on pay line code ``i``."""


def unpack(vector: int) -> tuple[int, ...]:
    """The counts of a packed vector, by pay-line code."""
    return tuple(vector >> (WIDTH * code) & _FIELD for code in range(len(PAYLINES)))


def subset_number(cards: Sequence[int]) -> int:
    """The number of a set of 0 to 5 cards among the sets of its size (colex order).

    For five cards this is :func:`~casino.cards.combos.hand_number`.
    """
    return sum(BINOMIAL[card][place + 1] for place, card in enumerate(sorted(cards)))


def superset_numbers(cards: Sequence[int]) -> list[int]:
    """The numbers of the sets ``cards + {x}``, for every card ``x`` not in ``cards``.

    ``cards`` ascending. A new card ``x`` between ``cards[g - 1]`` and ``cards[g]`` takes place
    ``g``; the cards above it move up one place.
    """
    size = len(cards)
    numbers: list[int] = []
    for gap in range(size + 1):
        base = sum(BINOMIAL[card][place + 1] for place, card in enumerate(cards[:gap]))
        base += sum(BINOMIAL[card][place + 2] for place, card in enumerate(cards[gap:], gap))
        low = cards[gap - 1] + 1 if gap else 0
        high = cards[gap] if gap < size else 52
        column = [row[gap + 1] for row in BINOMIAL[low:high]]
        numbers += [base + binomial for binomial in column]
    return numbers


@dataclass(frozen=True)
class SubsetCounts:
    """Packed count vectors of the hands containing each set of cards.

    ``by_size[k][subset_number(T)]`` for a set ``T`` of ``k`` cards (``k`` = 0..4); a dealt
    hand itself is looked up in ``paylines`` (one pay-line code per hand number). The same
    vectors per class of sets under suit renaming: ``class_vectors[k][classes[k][n]]`` is
    ``by_size[k][n]``.
    """

    by_size: tuple[list[int], ...]
    class_vectors: tuple[list[int], ...]
    classes: tuple[list[int], ...]
    paylines: bytes

    def vector(self, cards: Sequence[int]) -> int:
        """The packed counts of the five-card hands containing ``cards`` (0 to 5 cards)."""
        if len(cards) == 5:
            return LINE_VECTORS[self.paylines[subset_number(cards)]]
        return self.by_size[len(cards)][subset_number(cards)]

    def scalar_tables(self, values: Sequence[int]) -> tuple[list[int], ...]:
        """For every set of 0 to 4 cards, the sum of ``values[line]`` over its hands.

        ``values`` gives a number per pay-line code, such as the payout at some bet.
        """
        tables = []
        for vectors, classes in zip(self.class_vectors, self.classes, strict=True):
            per_class = [sum(map(int.__mul__, values, unpack(vector))) for vector in vectors]
            tables.append([per_class[number] for number in classes])
        return tuple(tables)


@functools.cache
def subset_counts() -> SubsetCounts:
    """The tables for every set of 0 to 4 cards (built once per process)."""
    paylines = payline_by_hand()
    line_vectors = LINE_VECTORS
    above: list[int] = [line_vectors[code] for code in paylines]
    by_size: list[list[int]] = []
    class_vectors: list[list[int]] = []
    numbers: list[list[int]] = []
    for size in (4, 3, 2, 1, 0):
        classes = suit_classes(size)
        per_class = [
            sum(map(above.__getitem__, superset_numbers(suit_class.cards))) // (5 - size)
            for suit_class in classes
        ]
        numbered = class_numbers(size, classes)
        above = [per_class[number] for number in numbered]
        by_size.insert(0, above)
        class_vectors.insert(0, per_class)
        numbers.insert(0, numbered)
    return SubsetCounts(tuple(by_size), tuple(class_vectors), tuple(numbers), paylines)
