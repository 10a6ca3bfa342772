"""The strategy's definitions, one example at a time, and the properties the tables rely on."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.cards import FULL_DECK, Card, Suit, parse_cards
from casino.videopoker.strategy import Rule, advise, seed_hold, straight_flush_3_type

hands = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True)


def rule_of(hand: str) -> Rule:
    return advise(parse_cards(hand)).rule


def test_rules_are_the_seed_list_in_order() -> None:
    assert len(Rule) == 34
    assert Rule.MADE_TOP.line == 1 and Rule.DISCARD.line == 34
    assert str(Rule.QJ_SUITED) == "16. QJ suited"


def test_straight_flush_draw_types_follow_the_seed_definitions() -> None:
    examples = {
        (7, 8, 9): 1,  # no gap, no high card
        (3, 4, 5): 1,
        (8, 10, 11): 1,  # one gap, one high card
        (8, 11, 12): 1,  # two gaps, two high cards
        (9, 12, 13): 1,
        (7, 9, 10): 2,  # one gap, no high card
        (9, 10, 13): 2,  # two gaps, one high card
        (14, 2, 3): 2,  # ace-low
        (14, 3, 5): 2,
        (2, 3, 4): 2,  # 234 suited
        (6, 9, 10): 3,  # two gaps, no high card
        (2, 4, 6): 3,
    }
    for ranks, kind in examples.items():
        assert straight_flush_3_type(ranks) == kind, ranks
    assert straight_flush_3_type((2, 7, 8)) is None  # more than five ranks apart
    assert straight_flush_3_type((7, 7, 8)) is None


def test_outside_and_inside_straights() -> None:
    assert rule_of("7C 8D 9H TS 2C") is Rule.OUTSIDE_4
    assert rule_of("2C 3D 4H 5S 9C") is Rule.OUTSIDE_4  # completed by an ace or a six
    assert rule_of("TC JD QH KS 3C") is Rule.OUTSIDE_4
    assert rule_of("AC 2D 3H 4S 9C") is Rule.INSIDE_4_HIGH_1  # A234 is inside, the ace high
    assert rule_of("6C 7D 9H TS 2C") is Rule.INSIDE_4_HIGH_0
    assert rule_of("AC KD QH JS 3C") is Rule.AKQJ_UNSUITED


def test_rules_the_difficult_hands_do_not_reach() -> None:
    assert rule_of("7C 7D 7H KS 2C") is Rule.TRIPS
    assert advise(parse_cards("7C 7D 7H KS 2C")).held == (0, 1, 2)
    assert rule_of("AC AD AH AS 2C") is Rule.MADE_TOP
    assert advise(parse_cards("AC 2D AH AS AD")).held == (0, 2, 3, 4)  # the four, not the kicker
    assert rule_of("KC QD JH 4S 2C") is Rule.KQJ_UNSUITED
    assert rule_of("2C 5C 8C 3D 9H") is Rule.FLUSH_3_HIGH_0
    assert rule_of("2C 5D 8H 9S 4C") is Rule.DISCARD
    assert advise(parse_cards("2C 5D 8H 9S 4C")).held == ()


@given(hands)
def test_advice_is_a_set_of_positions(hand: list[Card]) -> None:
    advice = advise(hand)
    assert list(advice.held) == sorted(set(advice.held))
    assert all(0 <= position < 5 for position in advice.held)
    assert advice == advise(hand)


@pytest.mark.parametrize(
    ("hand", "kept"),
    [
        ("2D AC KC QC JC", "AC KC QC JC"),  # line 2: 4 to a royal flush
        ("AH 5S AD 9D AC", "AH AD AC"),  # line 3: three aces
        ("7H 7D 9C 9S KH", "7H 7D 9C 9S"),  # line 7: two pair
        ("5C 6D 7H 8S 8C", "5C 6D 7H 8C"),  # line 11 over 12 (low pair); the rightmost 8
        ("JD 3C QS 8H 2C", "JD QS"),  # line 24: QJ unsuited
        ("9H QD 8C AH 5D", "AH"),  # line 29: the ace alone (not the better AQ)
        ("2C 5D 8H 9S 4C", ""),  # line 34: discard everything
    ],
)
def test_seed_hold_keeps_what_the_seed_list_says(hand: str, kept: str) -> None:
    """Holds read off the seed's list by hand, as the cards kept in the order dealt."""
    cards = parse_cards(hand)
    assert [cards[position] for position in seed_hold(cards)] == parse_cards(kept)


def _shape(hand: list[Card]) -> tuple[tuple[str, ...], frozenset[Suit]]:
    kept = advise(hand).cards(hand)
    return tuple(sorted(card.rank.value for card in kept)), frozenset(c.suit for c in kept)


@given(hands, st.permutations(list(Suit)), st.permutations(range(5)))
def test_advice_does_not_depend_on_suit_names_or_card_order(
    hand: list[Card], suits: list[Suit], order: list[int]
) -> None:
    """What the simulation tables assume: renaming suits or reordering the cards keeps the
    same ranks, and the same suits under the renaming (an equal-valued choice may differ)."""
    rename = dict(zip(Suit, suits, strict=True))
    other = [Card(hand[i].rank, rename[hand[i].suit]) for i in order]
    ranks, kept_suits = _shape(hand)
    other_ranks, other_suits = _shape(other)
    assert ranks == other_ranks
    if len(kept_suits) == 1:
        assert other_suits == {rename[suit] for suit in kept_suits}
    assert (len(other_suits) == 1) == (len(kept_suits) == 1)


def test_every_rule_is_reachable() -> None:
    rng = random.Random(11)
    seen = {advise(rng.sample(FULL_DECK, 5)).rule for _ in range(4000)}
    rare = ("AC AD AH AS 2C", "AC KC QC JC 2D", "AC AD AH 2S 3C")
    assert seen | {rule_of(hand) for hand in rare} == set(Rule)
