"""Hand ranking: exact categories and tie-breaks, checked against the treys evaluator."""

from __future__ import annotations

import itertools
import random

import pytest
from treys import Card as TreysCard
from treys import Evaluator

from casino.cards import FULL_DECK, Category, HandValue, parse_cards, rank_hand
from casino.errors import ParseError

TREYS_CLASS = {  # treys class number (0 = royal, 1 = straight flush) → our category
    0: Category.STRAIGHT_FLUSH,
    1: Category.STRAIGHT_FLUSH,
    2: Category.FOUR_OF_A_KIND,
    3: Category.FULL_HOUSE,
    4: Category.FLUSH,
    5: Category.STRAIGHT,
    6: Category.THREE_OF_A_KIND,
    7: Category.TWO_PAIR,
    8: Category.ONE_PAIR,
    9: Category.HIGH_CARD,
}


def value(text: str) -> tuple[Category, tuple[int, ...]]:
    hand = rank_hand(parse_cards(text))
    return hand.category, hand.ranks


@pytest.mark.parametrize(
    ("hand", "category", "ranks"),
    [
        ("AS KS QS JS TS", Category.STRAIGHT_FLUSH, (14,)),
        ("5D 4D 3D 2D AD", Category.STRAIGHT_FLUSH, (5,)),
        ("9C 9D 9H 9S 2C", Category.FOUR_OF_A_KIND, (9, 2)),
        ("QC QD QH 4S 4C", Category.FULL_HOUSE, (12, 4)),
        ("2H 3H 7H 9H JH", Category.FLUSH, (11, 9, 7, 3, 2)),
        ("AS 2D 3S 4C 5S", Category.STRAIGHT, (5,)),
        ("TS JD QS KC AS", Category.STRAIGHT, (14,)),
        ("7S 7D 7H KC 2S", Category.THREE_OF_A_KIND, (7, 13, 2)),
        ("AS AD 3S 3D 5S", Category.TWO_PAIR, (14, 3, 5)),
        ("JS JD 9H 4C 2S", Category.ONE_PAIR, (11, 9, 4, 2)),
        ("AS QD 9H 4C 2S", Category.HIGH_CARD, (14, 12, 9, 4, 2)),
        ("KS KD 3S 3D 5S 5D AH", Category.TWO_PAIR, (13, 5, 14)),
        ("AS AD AH 3D 3S 3C 9D", Category.FULL_HOUSE, (14, 3)),
        ("2S 3S 4S 5S 6S 7S AS", Category.STRAIGHT_FLUSH, (7,)),
        ("AS AD AH AC KS KD KH", Category.FOUR_OF_A_KIND, (14, 13)),
    ],
)
def test_known_hands(hand: str, category: Category, ranks: tuple[int, ...]) -> None:
    assert value(hand) == (category, ranks)


def test_wheel_is_the_lowest_straight() -> None:
    wheel = rank_hand(parse_cards("AS 2D 3S 4C 5S"))
    six_high = rank_hand(parse_cards("6S 2D 3S 4C 5S"))
    assert wheel < six_high
    assert wheel > rank_hand(parse_cards("AS AD AH 4C 5S"))


def test_kickers_break_ties_and_equal_hands_split() -> None:
    assert value("JS JD 9H 4C 2S") < value("JH JC 9S 5C 2D")
    assert rank_hand(parse_cards("JS JD 9H 4C 2S")) == rank_hand(parse_cards("JH JC 9S 4D 2D"))


def test_best_five_of_seven_ignores_the_weakest_cards() -> None:
    assert rank_hand(parse_cards("AS KD 9H 7C 5S 3D 2H")) == rank_hand(
        parse_cards("AS KD 9H 7C 5S")
    )


@pytest.mark.parametrize("bad", ["AS KD 9H 7C", "AS AS 9H 7C 5S", "AS KD 9H 7C 5S 3D 2H 4H"])
def test_wrong_sizes_and_duplicates_are_refused(bad: str) -> None:
    with pytest.raises(ParseError):
        rank_hand(parse_cards(bad))


def test_category_labels() -> None:
    assert [c.label for c in Category][6:] == ["Full House", "Four of a Kind", "Straight Flush"]


def test_category_counts_over_all_five_card_hands() -> None:
    """The textbook frequencies over all 2,598,960 hands, on a fixed seeded sample of 1 in 26."""
    rng = random.Random(1)
    counts = dict.fromkeys(Category, 0)
    for hand in itertools.combinations(FULL_DECK, 5):
        if rng.random() < 1 / 26:
            counts[rank_hand(hand).category] += 1
    total = sum(counts.values())
    assert abs(counts[Category.HIGH_CARD] / total - 0.5012) < 0.01
    assert abs(counts[Category.ONE_PAIR] / total - 0.4226) < 0.01
    assert abs(counts[Category.TWO_PAIR] / total - 0.0475) < 0.004


@pytest.mark.parametrize("size", [5, 7])
def test_agrees_with_treys_on_random_hands(size: int) -> None:
    """10,000 seeded random hands through the ``Card`` face (``rank_hand``): same category, same
    order between consecutive hands. The evaluator behind it is checked against treys on all
    7,462 classes in order and on 50,000 seeded 7-card hands in test_evaluator.py; 100,000
    hands here showed nothing more for ten times the CPU."""
    rng = random.Random(size)
    evaluator = Evaluator()
    deck = list(FULL_DECK)
    codes = {card: TreysCard.new(card.rank.value + card.suit.value.lower()) for card in deck}
    previous: tuple[int, HandValue] | None = None
    for _ in range(10_000):
        hand = rng.sample(deck, size)
        ours = rank_hand(hand)
        theirs = evaluator.evaluate([codes[c] for c in hand[:2]], [codes[c] for c in hand[2:]])
        assert TREYS_CLASS[evaluator.get_rank_class(theirs)] is ours.category, hand
        if previous is not None:
            their_prev, our_prev = previous
            assert (theirs < their_prev) == (ours > our_prev), hand  # treys: lower is better
            assert (theirs == their_prev) == (ours == our_prev), hand
        previous = (theirs, ours)
