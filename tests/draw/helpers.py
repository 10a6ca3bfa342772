"""Tables from stacked decks, and runs of ``casino draw`` in this process."""

from __future__ import annotations

from casino.cards import Card, Deck, parse_cards
from casino.draw.cli import main
from casino.programs import Completed, run_captured

__all__ = ["cards", "deck_of", "draw"]


def cards(text: str) -> list[Card]:
    """``"7H 5C"`` → the cards."""
    return parse_cards(text)


def deck_of(*hands: str) -> Deck:
    """A deck dealing ``hands`` (SHORT notation) in order, then the rest in standard order."""
    top = [card for hand in hands for card in parse_cards(hand)]
    rest = [card for card in Deck.standard().remaining() if card not in top]
    return Deck(top + rest)


def draw(text: str, *args: str) -> Completed:
    """``python -m casino.draw ARGS < text`` in this process."""
    return run_captured(main, args, text)
