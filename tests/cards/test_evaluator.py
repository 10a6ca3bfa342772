"""The table-driven evaluator: exhaustive 5-card counts, best-of-7 consistency, and treys."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from treys import Card as TreysCard
from treys import Evaluator

from casino.cards import FULL_DECK, Category, HandValue, rank_hand
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


def test_tables_built_cold_equal_the_cached_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASINO_CACHE_DIR", str(tmp_path))
    ev.load_tables()  # the tables in use (loaded at most once per process)
    rank_values, flush_values, five_values = ev._load_tables()  # cold: builds and stores
    assert (tmp_path / f"evaluator-{ev._VERSION}.bin").exists()
    assert ev._load_tables() == (rank_values, flush_values, five_values)  # warm: reads
    assert rank_values == ev._RANK_VALUES
    assert flush_values == ev._FLUSH_VALUES
    assert five_values == ev._FIVE_VALUES


def _treys_code(index: int) -> int:
    return int(TreysCard.new("23456789TJQKA"[index >> 2] + "cdhs"[index & 3]))


def test_same_order_as_treys_on_a_million_seven_card_hands() -> None:
    """1,000,000 seeded random 7-card hands: every consecutive pair compares alike."""
    rng = random.Random(2024)
    deck = range(52)
    hands = [rng.sample(deck, 7) for _ in range(1_000_000)]
    ours = list(map(ev.evaluate7, hands))
    codes = [_treys_code(index) for index in deck]
    evaluate = Evaluator().evaluate
    theirs = [evaluate([codes[c] for c in hand], []) for hand in hands]  # lower is better
    for i in range(1, len(hands)):
        ours_cmp = (ours[i] > ours[i - 1]) - (ours[i] < ours[i - 1])
        theirs_cmp = (theirs[i] < theirs[i - 1]) - (theirs[i] > theirs[i - 1])
        assert ours_cmp == theirs_cmp, (hands[i - 1], hands[i])
