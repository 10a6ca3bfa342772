"""A hold'em table across hands: named seats, stacks, the button, busted players leaving.

Pure, like :mod:`casino.holdem.engine`: the caller supplies each hand's shuffled deck. The
whole table (with the hand in progress) is a value: :meth:`Table.to_dict` /
:meth:`Table.from_dict` round-trip it through JSON, so a server can save a table and carry
on after a restart.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from casino.cards.card import FULL_DECK
from casino.errors import IllegalAction, ParseError
from casino.holdem.engine import Hand
from casino.holdem.rules import Rules


@dataclass
class Seat:
    """A chair at the table: who sits there and their chips (0 chips: out of the game)."""

    name: str
    chips: int

    @property
    def playing(self) -> bool:
        """Whether the seat still has chips (busted players have left)."""
        return self.chips > 0


@dataclass
class Table:
    """Seats, the rules (blinds, ante), the button, the hand being played and how many
    hands were dealt."""

    seats: list[Seat]
    rules: Rules
    button: int = -1
    hand: Hand | None = None
    number: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def players(self) -> list[int]:
        """Seats with chips."""
        return [index for index, seat in enumerate(self.seats) if seat.playing]

    @property
    def finished(self) -> bool:
        """Whether fewer than two players have chips (the game is over)."""
        return len(self.players) < 2

    def next_button(self) -> int:
        """The seat that gets the button next: clockwise to the next seat with chips."""
        n = len(self.seats)
        for step in range(1, n + 1):
            seat = (self.button + step) % n
            if self.seats[seat].playing:
                return seat
        raise IllegalAction("nobody has chips")

    def start_hand(self, deck: list[int]) -> Hand:
        """Move the button and deal a hand from ``deck`` (card indices, top first)."""
        if self.hand is not None and not self.hand.over:
            raise IllegalAction("a hand is still being played")
        if self.finished:
            raise IllegalAction("the game is over: fewer than two players have chips")
        self.button = self.next_button()
        self.number += 1
        stacks = [seat.chips for seat in self.seats]
        self.hand = Hand.deal(stacks, self.button, self.rules, deck)
        return self.hand

    def settle(self) -> None:
        """After a hand is over: the seats take their new stacks."""
        if self.hand is None or not self.hand.over:
            raise IllegalAction("no finished hand to settle")
        for seat, chips in zip(self.seats, self.hand.stacks, strict=True):
            seat.chips = chips

    def total_chips(self) -> int:
        """All chips at the table (stacks, plus the pot of a hand in progress)."""
        if self.hand is not None and not self.hand.over:
            return sum(self.hand.stacks) + self.hand.pot_total()
        if self.hand is not None:
            return sum(self.hand.stacks)
        return sum(seat.chips for seat in self.seats)

    def to_dict(self) -> dict[str, Any]:
        """The table as plain JSON-able data."""
        data: dict[str, Any] = {
            "seats": [[seat.name, seat.chips] for seat in self.seats],
            "blinds": list(self.rules.blinds),
            "button": self.button,
            "number": self.number,
            "hand": None if self.hand is None else self.hand.to_dict(),
        }
        if self.rules.ante:  # saved only when there is one: no-ante tables save as before
            data["ante"] = self.rules.ante
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        """A table saved by :meth:`to_dict`; :class:`ParseError` if ``data`` is not one."""
        try:
            seats = [Seat(str(name), int(chips)) for name, chips in data["seats"]]
            small, big = (int(x) for x in data["blinds"])
            rules = Rules(small, big, int(data.get("ante", 0)))
            hand = None if data["hand"] is None else Hand.from_dict(data["hand"])
            return cls(seats, rules, int(data["button"]), hand, int(data["number"]))
        except (KeyError, TypeError, ValueError, ParseError) as error:
            raise ParseError(f"not a saved table: {error}") from None


def shuffled_deck(rng: random.Random) -> list[int]:
    """The 52 card indices in the order ``rng`` shuffles them."""
    deck = [card.index for card in FULL_DECK]
    rng.shuffle(deck)
    return deck
