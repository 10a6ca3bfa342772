"""A dense numbering of five-card hands, for tables indexed by hand.

Cards are their :attr:`~casino.cards.Card.index` (0..51). A five-card hand's number is its
rank in the combinatorial number system (colex order): ``sum(C(c_i, i + 1))`` over its card
indices sorted ascending, so the 2,598,960 hands are numbered ``0 .. N_HANDS - 1``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb

N_HANDS = comb(52, 5)
"""The number of five-card hands: 2,598,960."""

BINOMIAL: tuple[tuple[int, ...], ...] = tuple(
    tuple(comb(n, k) for k in range(6)) for n in range(53)
)
"""``BINOMIAL[n][k] == comb(n, k)`` for n ≤ 52, k ≤ 5."""


def hand_number(indices: Sequence[int]) -> int:
    """The number of the five-card hand with these card indices (any order)."""
    a, b, c, d, e = sorted(indices)
    table = BINOMIAL
    return table[a][1] + table[b][2] + table[c][3] + table[d][4] + table[e][5]


def all_hands() -> Iterator[tuple[int, int, int, int, int]]:
    """Every five-card hand as ascending card indices, in hand-number order."""
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        yield a, b, c, d, e


def subset_sums(values: Sequence[int], size: int) -> list[int]:
    """The sum of ``values[i]`` over each ``size``-subset of their indices, in colex order.

    Entry ``hand_number(s)`` is the sum for subset ``s`` when ``size`` is 5 (and likewise
    for smaller subsets, numbered the same way). The ``size``-subsets whose largest index is
    ``top`` are the ``comb(top, size - 1)`` smaller subsets each joined by ``top``, so every
    list is built from the one before it without any per-subset index arithmetic.
    """
    sums = [0]
    for k in range(1, size + 1):
        grown: list[int] = []
        for top in range(k - 1, len(values)):
            value = values[top]
            grown += [s + value for s in sums[: comb(top, k - 1)]]
        sums = grown
    return sums
