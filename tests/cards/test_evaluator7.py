"""evaluate7's own tables: a perfect index of the 7-card rank multisets, checked against treys."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st
from treys import Card as TreysCard
from treys import Evaluator

from casino.cards import evaluator as ev

SEVEN_CARDS = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)
_TREYS = [TreysCard.new("23456789TJQKA"[i >> 2] + "cdhs"[i & 3]) for i in range(52)]
_treys_evaluate = Evaluator().evaluate


def _rank_multisets() -> list[tuple[int, ...]]:
    """Every multiset of seven ranks 0..12 with no rank five times (49,205)."""
    return [
        ranks
        for ranks in itertools.combinations_with_replacement(range(13), 7)
        if all(ranks[i] != ranks[i + 4] for i in range(3))
    ]


def _mixed_suits(ranks: tuple[int, ...]) -> list[int]:
    """Cards of these (sorted) ranks with suits in turn c d h s c d h: equal ranks get
    distinct suits and no suit has more than two, so no flush."""
    return [rank * 4 + at % 4 for at, rank in enumerate(ranks)]


def test_evaluate7_spells_the_layout_s_constants_as_numbers() -> None:
    """Its mask, shift and flush bits are written as numbers: they must be the layout's."""
    constants = set(ev.evaluate7.__code__.co_consts)
    assert {ev._LOW_MASK | ev._FLUSH_BITS7, ev._HIGH_AT, ev._FLUSH_BITS7} <= constants
    assert ev._LOW_SIZE <= ev._LOW_MASK < ev._FLUSH_BITS7 & -ev._FLUSH_BITS7  # its lowest bit


def test_the_low_and_high_codes_index_each_multiset_once_without_gaps() -> None:
    ev.load_tables()
    places = []
    for ranks in _rank_multisets():
        low = sum(5**rank for rank in ranks if rank < ev._LOW_RANKS)
        high = sum(5 ** (rank - ev._LOW_RANKS) for rank in ranks if rank >= ev._LOW_RANKS)
        places.append(ev._LOW7[low] + ev._HIGH7[high])
    assert sorted(places) == list(range(49_205)) == list(range(len(ev._VALUES7)))


def test_every_seven_card_rank_multiset_orders_as_treys_orders_it() -> None:
    """Exhaustive without a flush: each multiset's strength from evaluate7 is the ranking
    algorithm's, and sorting all 49,205 hands by it is sorting them by treys (reversed)."""
    hands = [_mixed_suits(ranks) for ranks in _rank_multisets()]
    ours = [ev.evaluate7(hand) for hand in hands]
    assert ours == [
        ev.best_strength([rank + 2 for rank in ranks], suited=False) for ranks in _rank_multisets()
    ]
    theirs = [_treys_evaluate([_TREYS[c] for c in hand[:2]], [_TREYS[c] for c in hand[2:]])
              for hand in hands]  # fmt: skip
    pairs = sorted(set(zip(ours, theirs, strict=True)))
    assert len(pairs) == len(set(ours)) == len(set(theirs))  # one class each way
    assert [t for _, t in pairs] == sorted((t for _, t in pairs), reverse=True)


@given(SEVEN_CARDS, SEVEN_CARDS)
def test_two_random_hands_compare_as_treys_compares_them(
    first: list[int], second: list[int]
) -> None:
    def treys(hand: list[int]) -> int:
        return int(_treys_evaluate([_TREYS[c] for c in hand[:2]], [_TREYS[c] for c in hand[2:]]))

    ours = (ev.evaluate7(first) > ev.evaluate7(second)) - (
        ev.evaluate7(first) < ev.evaluate7(second)
    )
    theirs = (treys(first) < treys(second)) - (treys(first) > treys(second))  # 1 is a royal
    assert ours == theirs
    assert ev.evaluate7(first) == ev.evaluate(first) == ev.evaluate7(first[::-1])
