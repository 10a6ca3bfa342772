"""Ranks, suits and cards, in every notation the assignments use.

=========  ====================  ============================================
notation   example               used by
=========  ====================  ============================================
SHORT      ``TC``, ``AH``        video poker card-files and output
STUD       ``10S``, ``KD``       the three-card-stud protocol
TUPLE      ``('Ace', 'Spades')`` five-card draw (Python tuple notation)
SYMBOL     ``T♣``, ``A♥``        display, and the seeds' typeset hands
=========  ====================  ============================================

:meth:`Card.parse` reads any of them; ``str(card)`` is the SHORT form, and
``Card.parse(card.format(n)) == card`` for every notation ``n``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from enum import Enum

from casino.errors import ParseError


@functools.total_ordering
class Rank(Enum):
    """A card rank; the value is its one-character notation (``T`` for ten)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def number(self) -> int:
        """The rank as a number, 2 (deuce) to 14 (ace)."""
        return _RANK_NUMBER[self]

    @property
    def word(self) -> str:
        """The rank as five-card draw prints it: ``'10'``, ``'Jack'``, ``'Ace'``."""
        return _RANK_WORD[self]

    @property
    def stud(self) -> str:
        """The rank as the three-card-stud protocol prints it: ``10`` for ten."""
        return "10" if self is Rank.TEN else self.value

    @classmethod
    def from_number(cls, number: int) -> Rank:
        """The rank whose :attr:`number` is ``number`` (2..14)."""
        return _RANKS[number - 2]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Rank):
            return NotImplemented
        return self.number < other.number


class Suit(Enum):
    """A card suit; the value is its one-letter notation."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def word(self) -> str:
        """The suit as five-card draw prints it: ``'Spades'``."""
        return self.name.capitalize()

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣ ♦ ♥ ♠``."""
        return _SUIT_SYMBOL[self]


class Notation(Enum):
    """The ways a card is written; see the module docstring."""

    SHORT = "short"
    STUD = "stud"
    TUPLE = "tuple"
    SYMBOL = "symbol"


_RANKS = tuple(Rank)
_RANK_NUMBER = {rank: index + 2 for index, rank in enumerate(_RANKS)}
_RANK_WORD = {
    **{rank: str(_RANK_NUMBER[rank]) for rank in _RANKS[:9]},
    Rank.JACK: "Jack",
    Rank.QUEEN: "Queen",
    Rank.KING: "King",
    Rank.ACE: "Ace",
}
_SUIT_SYMBOL = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}

_RANK_TOKENS = {rank.value: rank for rank in _RANKS} | {"10": Rank.TEN}
_RANK_TOKENS |= {rank.word: rank for rank in _RANKS}
_SUIT_TOKENS = {suit.value: suit for suit in Suit} | {suit.symbol: suit for suit in Suit}
_SUIT_TOKENS |= {suit.word: suit for suit in Suit}
_SUITS = tuple(Suit)
_SUIT_INDEX = {suit: index for index, suit in enumerate(_SUITS)}

_TUPLE_RE = re.compile(r"""\(\s*'([^']*)'\s*,\s*'([^']*)'\s*\)""")
_SHORT_RE = re.compile(r"(10|[2-9TJQKA])([CDHS♣♦♥♠])")


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. Immutable, hashable, and ordered by rank then suit."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    """A dense code 0..51 (rank-major: deuces 0..3, aces 48..51) for table lookups."""

    def __post_init__(self) -> None:
        index = (_RANK_NUMBER[self.rank] - 2) * 4 + _SUIT_INDEX[self.suit]
        object.__setattr__(self, "index", index)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card in any :class:`Notation`; raise :class:`ParseError` otherwise."""
        token = text.strip()
        match = _SHORT_RE.fullmatch(token) or _TUPLE_RE.fullmatch(token)
        if match is None:
            raise ParseError(f"not a card: {text!r}")
        rank = _RANK_TOKENS.get(match.group(1))
        suit = _SUIT_TOKENS.get(match.group(2))
        if rank is None or suit is None:
            raise ParseError(f"not a card: {text!r}")
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card whose :attr:`index` is ``index``."""
        return cls(_RANKS[index // 4], _SUITS[index % 4])

    def format(self, notation: Notation = Notation.SHORT) -> str:
        """This card written in ``notation``."""
        if notation is Notation.STUD:
            return self.rank.stud + self.suit.value
        if notation is Notation.TUPLE:
            return f"('{self.rank.word}', '{self.suit.word}')"
        if notation is Notation.SYMBOL:
            return self.rank.value + self.suit.symbol
        return self.rank.value + self.suit.value

    def __str__(self) -> str:
        return self.rank.value + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index


def parse_cards(text: str) -> list[Card]:
    """Read whitespace-separated cards (or comma-separated tuples) in any notation."""
    if "(" in text:
        found = _TUPLE_RE.findall(text)
        leftover = _TUPLE_RE.sub("", text).replace(",", " ").strip(" \t\r\n[]")
        if leftover:
            raise ParseError(f"not a card: {leftover.split()[0]!r}")
        return [Card.parse(f"('{rank}', '{suit}')") for rank, suit in found]
    return [Card.parse(token) for token in text.split()]


def format_cards(cards: list[Card] | tuple[Card, ...], notation: Notation = Notation.SHORT) -> str:
    """Cards in ``notation``, space separated (TUPLE: a Python list literal, as draw prints)."""
    if notation is Notation.TUPLE:
        return "[" + ", ".join(card.format(notation) for card in cards) + "]"
    return " ".join(card.format(notation) for card in cards)


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in _RANKS for suit in _SUITS)
"""The 52 cards in :attr:`Card.index` order."""
