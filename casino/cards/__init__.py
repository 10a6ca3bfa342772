"""Cards, decks and poker hand ranking.

>>> from casino.cards import Card, parse_cards, rank_hand
>>> rank_hand(parse_cards("AS KS QS JS TS")).category.label
'Straight Flush'
>>> Card.parse("10S") == Card.parse("TS") == Card.parse("('10', 'Spades')")
True
"""

from casino.cards.card import (
    FULL_DECK,
    Card,
    Notation,
    Rank,
    Suit,
    format_cards,
    parse_cards,
)
from casino.cards.deck import Deck
from casino.cards.evaluator import rank_hand
from casino.cards.ranking import Category, HandValue

__all__ = [
    "FULL_DECK",
    "Card",
    "Category",
    "Deck",
    "HandValue",
    "Notation",
    "Rank",
    "Suit",
    "format_cards",
    "parse_cards",
    "rank_hand",
]
