"""Cards, decks and poker hand ranking.

>>> from casino.cards import Card, parse_cards, rank_hand
>>> rank_hand(parse_cards("AS KS QS JS TS")).category.label
'Straight Flush'
>>> Card.parse("10S") == Card.parse("TS") == Card.parse("('10', 'Spades')")
True
"""

from typing import TYPE_CHECKING, Any

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
from casino.cards.ranking import Category, HandValue

if TYPE_CHECKING:
    from casino.cards.evaluator import rank_hand

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


def __getattr__(name: str) -> Any:
    """``rank_hand``, the evaluator's, imported at its first use: a program that never ranks a
    five-card hand (a three-card stud player) does not load the evaluator and its cache."""
    if name == "rank_hand":
        from casino.cards.evaluator import rank_hand

        return rank_hand
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
