"""A deck of cards: seeded and shuffled, or stacked from text (a card-file)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from casino.cards.card import FULL_DECK, Card, parse_cards
from casino.errors import DeckExhausted


class Deck:
    """Cards dealt from the top, in order.

    A deck never shuffles itself: :meth:`shuffled` takes the ``random.Random`` to use, and
    :meth:`stacked` keeps the order it is given (video poker's card-file, a test's deck).
    """

    __slots__ = ("_cards", "_next")

    def __init__(self, cards: Iterable[Card]) -> None:
        self._cards: list[Card] = list(cards)
        self._next = 0

    @classmethod
    def standard(cls) -> Deck:
        """The 52 cards in a fixed order (deuces first, aces last)."""
        return cls(FULL_DECK)

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deck:
        """The 52 cards shuffled by ``rng``; the same seed gives the same order."""
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        return cls(cards)

    @classmethod
    def stacked(cls, text: str) -> Deck:
        """Cards in the order ``text`` lists them (any notation; duplicates are allowed)."""
        return cls(parse_cards(text))

    def deal(self, count: int = 1) -> list[Card]:
        """Take ``count`` cards from the top; :class:`DeckExhausted` if there are fewer."""
        if count > len(self):
            raise DeckExhausted(f"the deck has {len(self)} cards left, {count} wanted")
        start, end = self._next, self._next + count
        self._next = end
        return self._cards[start:end]

    def deal_one(self) -> Card:
        """Take the top card."""
        return self.deal(1)[0]

    def remaining(self) -> list[Card]:
        """The cards not yet dealt, top first."""
        start = self._next
        return self._cards[start:]

    def __len__(self) -> int:
        return len(self._cards) - self._next

    def __repr__(self) -> str:
        return f"Deck({len(self)} cards left)"
