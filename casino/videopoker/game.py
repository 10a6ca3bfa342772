"""The video poker machine: bet, deal, hold, and the credit accounting (pure).

A :class:`Machine` is a small state machine. Between hands it takes bets (1..5 credits; a
bet is remembered and used again until changed, 5 at first) and deals; after a deal it
takes exactly one hold, which draws the replacements, pays the final hand and ends the
hand. The bet leaves the credit at the deal; a payout is the total return, stake included.

Anything asked at the wrong moment raises :class:`WrongMoment`; a bad bet
:class:`BadAmount`; bad hold positions :class:`BadPositions` — and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, TypeVar

from casino.cards import Card, Deck
from casino.errors import IllegalAction, ParseError
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, MAX_BET, PayLine, PayTable, classify
from casino.videopoker.stats import Statistics

HAND_SIZE = 5
DEFAULT_BET = MAX_BET


class WrongMoment(IllegalAction):
    """A command that the machine does not take in its current phase."""


class BadAmount(IllegalAction):
    """A bet outside 1..5, or larger than the credit."""


class BadPositions(IllegalAction):
    """Hold positions that are not distinct card positions of the hand."""


class DuplicateCard(ParseError):
    """A stacked card source (a card-file) put the same card twice into one hand."""


class Phase(Enum):
    """Where the machine is in a hand."""

    BETTING = "betting"
    DRAWING = "drawing"


class CardSource(Protocol):
    """Where the cards come from: a fresh shuffle each hand, or a stacked card-file."""

    def start_hand(self) -> None:
        """Called once at each deal, before its cards are taken."""

    def take(self, count: int) -> list[Card]:
        """The next ``count`` cards (:class:`~casino.errors.DeckExhausted` if there are none)."""


class ShuffledCards:
    """A full 52-card deck shuffled by ``rng`` at every deal."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._deck = Deck.standard()

    def start_hand(self) -> None:
        self._deck = Deck.shuffled(self._rng)

    def take(self, count: int) -> list[Card]:
        return self._deck.deal(count)


class StackedCards:
    """Cards in a fixed order (a card-file), consumed across hands and never shuffled."""

    def __init__(self, cards: Iterable[Card]) -> None:
        self._deck = Deck(cards)

    def start_hand(self) -> None:
        pass

    def take(self, count: int) -> list[Card]:
        return self._deck.deal(count)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished hand: the final cards, their pay line, and what it did to the credit."""

    hand: tuple[Card, ...]
    line: PayLine
    bet: int
    payout: int
    credit: int

    @property
    def won(self) -> bool:
        """True when the hand paid anything (a Jacks-or-Better win returns the stake)."""
        return self.payout > 0


class Machine:
    """One player's session at a video poker machine."""

    def __init__(self, credit: int, cards: CardSource, table: PayTable = DOUBLE_BONUS_10_7) -> None:
        if credit < 0:
            raise ValueError("the credit cannot be negative")
        self.credit = credit
        self.table = table
        self.bet = DEFAULT_BET
        self.phase = Phase.BETTING
        self.hand: tuple[Card, ...] = ()
        self.stats = Statistics(credit)
        self._cards = cards
        self._staked = 0

    @property
    def in_hand(self) -> bool:
        """True between a deal and its hold (no bet or deal now; hold and advice only)."""
        return self.phase is Phase.DRAWING

    def place_bet(self, amount: int | None = None) -> int:
        """Bet ``amount`` credits (None: the last bet again) on the next deal."""
        self._require(Phase.BETTING)
        amount = self.bet if amount is None else amount
        if not 1 <= amount <= MAX_BET or amount > self.credit:
            raise BadAmount(f"cannot bet {amount} with {self.credit} credits")
        self.bet = amount
        return amount

    def deal(self) -> tuple[Card, ...]:
        """Take the bet from the credit and deal five cards."""
        self._require(Phase.BETTING)
        if self.bet > self.credit:
            raise WrongMoment(f"a bet of {self.bet} needs more credit than {self.credit}")
        self._cards.start_hand()
        hand = tuple(self._cards.take(HAND_SIZE))
        _check_distinct(hand)
        self.hand = hand
        self.credit -= self.bet
        self._staked = self.bet
        self.phase = Phase.DRAWING
        return hand

    def hold(self, positions: Iterable[int]) -> Outcome:
        """Keep the cards at 0-based ``positions``, redraw the others left to right, pay."""
        self._require(Phase.DRAWING)
        held = _hold_set(positions)
        final = drawn_hand(self.hand, held, self._cards.take(HAND_SIZE - len(held)))
        _check_distinct(final)
        line = classify(final)
        payout = self.table.payout(line, self._staked)
        self.credit += payout
        self.stats.record(line, self._staked, payout)
        self.hand = final
        self.phase = Phase.BETTING
        return Outcome(final, line, self._staked, payout, self.credit)

    def _require(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise WrongMoment(f"not while {self.phase.value}")


T = TypeVar("T")


def drawn_hand(hand: Sequence[T], held: Collection[int], new: Iterable[T]) -> tuple[T, ...]:
    """``hand`` after the draw: the cards at 0-based positions ``held`` kept, each other one
    replaced by the next of ``new``, left to right (``new`` holds at least as many)."""
    replacements = iter(new)
    return tuple(card if index in held else next(replacements) for index, card in enumerate(hand))


def _hold_set(positions: Iterable[int]) -> frozenset[int]:
    chosen = list(positions)
    held = frozenset(chosen)
    if len(held) != len(chosen) or not held <= set(range(HAND_SIZE)):
        raise BadPositions(f"cannot hold positions {chosen}")
    return held


def _check_distinct(hand: tuple[Card, ...]) -> None:
    seen: set[Card] = set()
    for card in hand:
        if card in seen:
            raise DuplicateCard(f"{card} appears twice in one hand")
        seen.add(card)
