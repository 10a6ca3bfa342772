"""Three-card hands as three-card stud ranks them, on the same scale as :func:`rank_hand`.

Three of a kind beats a pair beats a high card; there are no straights or flushes. Trips
compare by their rank; pairs by the pair's rank, then the odd card; high cards by the
highest card, then the second, then the third. The value is a :class:`HandValue` of
category ``THREE_OF_A_KIND``, ``ONE_PAIR`` or ``HIGH_CARD`` with those tie-break ranks, so
it orders exactly as the seed says and compares with five-card values on one scale.

>>> from casino.cards import parse_cards
>>> str(three_card_value(parse_cards("10S 10D 2C")))
'One Pair'
>>> three_card_value(parse_cards("AS KD 2C")) < three_card_value(parse_cards("2S 2D 3C"))
True
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from casino.cards.card import Card
from casino.cards.ranking import Category, HandValue, pack_strength


def strength_of_ranks(first: int, second: int, third: int) -> int:
    """The :attr:`HandValue.strength` of three cards with rank numbers (2..14) given."""
    counts = Counter((first, second, third))
    ordered = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    top = counts[ordered[0]]
    category = {3: Category.THREE_OF_A_KIND, 2: Category.ONE_PAIR}.get(top, Category.HIGH_CARD)
    return pack_strength(category, ordered)


def _table() -> dict[tuple[int, int, int], int]:
    """:func:`strength_of_ranks` of every rank triple, in any order: worked out once per
    multiset of ranks (455 of the 2,197 triples) and given to each of its orders (a stud
    player loads this at start, ten times per ``casino stud check``)."""
    table: dict[tuple[int, int, int], int] = {}
    for a in range(2, 15):
        for b in range(2, a + 1):
            for c in range(2, b + 1):
                strength = strength_of_ranks(a, b, c)
                for x, y, z in itertools.permutations((a, b, c)):
                    table[x, y, z] = strength
    return table


_TABLE = _table()


def three_card_strength(first: int, second: int, third: int) -> int:
    """:func:`strength_of_ranks` by table look-up (for enumeration loops)."""
    return _TABLE[first, second, third]


def three_card_value(cards: Sequence[Card]) -> HandValue:
    """The value of a three-card stud hand; ``ValueError`` unless exactly three cards."""
    if len(cards) != 3:
        raise ValueError(f"a three-card hand has 3 cards, not {len(cards)}")
    first, second, third = cards  # a card's rank number is ``index // 4 + 2`` (rank-major)
    return HandValue(_TABLE[first.index // 4 + 2, second.index // 4 + 2, third.index // 4 + 2])
