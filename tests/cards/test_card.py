"""Cards: every notation round-trips, bad tokens are refused, decks deal in order."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.cards import FULL_DECK, Card, Deck, Notation, Rank, Suit, format_cards, parse_cards
from casino.errors import DeckExhausted, ParseError

cards = st.sampled_from(FULL_DECK)


@given(cards, st.sampled_from(Notation))
def test_every_notation_round_trips(card: Card, notation: Notation) -> None:
    assert Card.parse(card.format(notation)) == card


@pytest.mark.parametrize(
    ("text", "notation", "expected"),
    [
        ("TC", Notation.SHORT, "TC"),
        ("10S", Notation.STUD, "10S"),
        ("TS", Notation.STUD, "10S"),
        ("AS", Notation.TUPLE, "('Ace', 'Spades')"),
        ("('10', 'Hearts')", Notation.SHORT, "TH"),
        ("QD", Notation.SYMBOL, "Q♦"),
        ("K♣", Notation.SHORT, "KC"),
    ],
)
def test_notations(text: str, notation: Notation, expected: str) -> None:
    assert Card.parse(text).format(notation) == expected


@pytest.mark.parametrize(
    "bad", ["", "AQ", "1S", "11H", "tc", "T", "TCX", "('Eleven', 'Hearts')", "XX"]
)
def test_bad_tokens_raise_parse_error(bad: str) -> None:
    with pytest.raises(ParseError, match="not a card"):
        Card.parse(bad)


def test_index_is_dense_and_inverse() -> None:
    assert [card.index for card in FULL_DECK] == list(range(52))
    assert all(Card.from_index(card.index) == card for card in FULL_DECK)
    assert len(set(FULL_DECK)) == 52


def test_ordering_is_by_rank_then_suit() -> None:
    assert Card.parse("2S") < Card.parse("3C") < Card.parse("AC") < Card.parse("AS")
    assert Rank.TWO < Rank.TEN < Rank.ACE
    assert sorted(Rank, reverse=True)[0] is Rank.ACE


def test_parse_cards_reads_whitespace_crlf_and_tuple_lists() -> None:
    assert format_cards(parse_cards("2H KH\r\n2S\tJS  6D ")) == "2H KH 2S JS 6D"
    drawn = "[('7', 'Hearts'), ('5', 'Clubs'), ('Queen', 'Spades')]"
    assert format_cards(parse_cards(drawn)) == "7H 5C QS"
    assert format_cards(parse_cards(drawn), Notation.TUPLE) == drawn
    with pytest.raises(ParseError):
        parse_cards("[('7', 'Hearts'), junk]")


def test_suit_words_and_symbols() -> None:
    assert [suit.word for suit in Suit] == ["Clubs", "Diamonds", "Hearts", "Spades"]
    assert "".join(suit.symbol for suit in Suit) == "♣♦♥♠"


def test_seeded_deck_is_reproducible_and_complete() -> None:
    first = Deck.shuffled(random.Random(7)).deal(52)
    second = Deck.shuffled(random.Random(7)).deal(52)
    assert first == second
    assert sorted(first) == list(FULL_DECK)
    assert first != Deck.shuffled(random.Random(8)).deal(52)


def test_stacked_deck_deals_in_order_and_reports_exhaustion() -> None:
    deck = Deck.stacked("2H KH 2S")
    assert deck.deal(2) == parse_cards("2H KH")
    assert len(deck) == 1
    assert deck.deal_one() == Card.parse("2S")
    with pytest.raises(DeckExhausted):
        deck.deal_one()
