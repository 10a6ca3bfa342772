"""The table-driven evaluator: exhaustive 5-card counts, best-of-7 consistency, and treys."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from treys import Card as TreysCard
from treys import Evaluator

from casino.cards import FULL_DECK, Category, HandValue, parse_cards, rank_hand
from casino.cards import evaluator as ev
from casino.cards.combos import all_hands

SEVEN_CARDS = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


def test_every_five_card_hand_has_its_textbook_category() -> None:
    """All 2,598,960 hands: the category counts and the 7,462 distinct values of poker."""
    strengths = Counter(map(ev.evaluate5, all_hands()))
    categories = Counter[Category]()
    for strength, count in strengths.items():
        categories[HandValue(strength).category] += count
    assert categories == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
        Category.THREE_OF_A_KIND: 54_912,
        Category.TWO_PAIR: 123_552,
        Category.ONE_PAIR: 1_098_240,
        Category.HIGH_CARD: 1_302_540,
    }
    assert len(strengths) == 7_462


@given(SEVEN_CARDS)
def test_seven_cards_are_worth_their_best_five(cards: list[int]) -> None:
    best = max(map(ev.evaluate5, itertools.combinations(cards, 5)))
    assert ev.evaluate7(cards) == ev.evaluate(cards) == best
    assert ev.evaluate(cards[:6]) == max(map(ev.evaluate5, itertools.combinations(cards[:6], 5)))
    assert ev.evaluate(cards[:5]) == ev.evaluate5(cards[:5]) == ev.evaluate5(cards[4::-1])


@given(SEVEN_CARDS)
def test_the_best_five_are_five_of_the_cards_worth_the_hand(cards: list[int]) -> None:
    five = ev.best_five(cards)
    assert len(set(five)) == 5 and set(five) <= set(cards)
    assert ev.evaluate5(five) == ev.evaluate7(cards)
    assert ev.best_five(cards[:6]) == max(itertools.combinations(cards[:6], 5), key=ev.evaluate5)


def test_the_best_five_of_a_hand_and_a_board() -> None:
    """Ace-nine in hand, two nines, two eights and an ace on the board: nines full of aces."""
    cards = [card.index for card in parse_cards("AH 9C 9D 9H 8C 8H AD")]
    ace, nine, nine_d, nine_h, _, _, ace_d = cards
    assert ev.best_five(cards) == (ace, nine, nine_d, nine_h, ace_d)


def test_seven_card_flush_paths_on_a_seeded_sample() -> None:
    """20,000 hands with five or more cards of one suit, against their best five."""
    rng = random.Random(5)
    for _ in range(20_000):
        suit = rng.randrange(4)
        suited = rng.sample(range(suit, 52, 4), rng.randrange(5, 8))
        others = rng.sample([c for c in range(52) if c % 4 != suit], 7 - len(suited))
        cards = suited + others
        rng.shuffle(cards)
        assert ev.evaluate7(cards) == max(map(ev.evaluate5, itertools.combinations(cards, 5)))


def test_rank_hand_is_the_evaluator_on_card_indices() -> None:
    rng = random.Random(3)
    for size in (5, 6, 7):
        for _ in range(2_000):
            hand = rng.sample(FULL_DECK, size)
            assert rank_hand(hand).strength == ev.evaluate([card.index for card in hand])


def _all_tables() -> tuple[dict[int, int], list[int], dict[int, int]]:
    """The rank-code, flush and 5-card tables, whole, from the on-disk cache or built."""
    numbers = ev._payload()
    spans, flush_at = ev._sections(numbers)
    rank_values: dict[int, int] = {}
    for size in ev._MULTISET_SIZES:
        rank_values |= ev._pairs(numbers, spans[size])
    flush_values = numbers[flush_at:].tolist()
    return rank_values, flush_values, ev._five_tables(ev._pairs(numbers, spans[5]), flush_values)


def test_tables_built_cold_equal_the_cached_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASINO_CACHE_DIR", str(tmp_path))
    ev.load_tables()  # the tables in use (loaded at most once per process)
    rank_values, flush_values, five_values = _all_tables()  # cold: builds and stores
    assert (tmp_path / f"evaluator-{ev._VERSION}.bin").exists()
    assert _all_tables() == (rank_values, flush_values, five_values)  # warm: reads
    assert rank_values == ev._RANK_VALUES
    assert flush_values == ev._FLUSH_VALUES
    assert five_values == ev._FIVE_VALUES


def _treys_code(index: int) -> int:
    return int(TreysCard.new("23456789TJQKA"[index >> 2] + "cdhs"[index & 3]))


def _one_hand_per_class() -> list[list[int]]:
    """One five-card hand (card indices) for each of poker's 7,462 classes: every multiset of
    ranks (at most four of a rank) in mixed suits, and every set of five ranks in one suit."""
    hands = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        if max(counts.values()) == 5:
            continue
        seen = Counter[int]()
        hand = []
        for rank in ranks:  # the n-th card of a rank gets the n-th suit (c, d, h, s)
            hand.append(rank * 4 + seen[rank])
            seen[rank] += 1
        if len(counts) == 5:
            hand[0] += 1  # five ranks, all clubs: the first becomes a diamond
        hands.append(hand)
        if len(counts) == 5:
            hands.append([rank * 4 + 3 for rank in ranks])  # the same ranks, suited
    return hands


@functools.cache
def _treys_value_of_each_class() -> dict[int, int]:
    """Our value of each class → treys's (1 = royal flush … 7,462 = seven high), checked to
    be one order reversed: the classes of the two evaluators are the same."""
    evaluate = Evaluator().evaluate
    codes = [_treys_code(index) for index in range(52)]
    pairs = sorted(
        (ev.evaluate5(hand), evaluate([codes[c] for c in hand], []))
        for hand in _one_hand_per_class()
    )
    assert len(pairs) == len({ours for ours, _ in pairs}) == 7_462
    assert [theirs for _, theirs in pairs] == list(range(7_462, 0, -1))
    return dict(pairs)


def test_the_same_7462_classes_in_the_same_order_as_treys() -> None:
    """Exhaustive over the classes: one hand of each, ordered alike by both evaluators."""
    assert len(_treys_value_of_each_class()) == 7_462


def test_same_value_as_treys_on_a_seeded_sample_of_seven_card_hands() -> None:
    """50,000 seeded random 7-card hands, each worth exactly the class treys gives it: so any
    two of them (not only consecutive ones) compare alike. A million hands (this test's
    earlier size) showed nothing more: every class is already checked exhaustively above."""
    to_treys = _treys_value_of_each_class()
    rng = random.Random(2024)
    codes = [_treys_code(index) for index in range(52)]
    evaluate = Evaluator().evaluate
    for _ in range(50_000):
        hand = rng.sample(range(52), 7)
        assert to_treys[ev.evaluate7(hand)] == evaluate([codes[c] for c in hand], []), hand
