"""Ordinary Nim (Projects A–C): one heap; take 1 … upper bound stones; taking the last loses."""

from __future__ import annotations

from dataclasses import dataclass

from casino.errors import IllegalAction, ParseError
from casino.numbers import parse_int


@dataclass(frozen=True, slots=True)
class NimGame:
    """The stones left and the most a player may take in one turn."""

    remaining: int
    upper_bound: int

    def __post_init__(self) -> None:
        if self.remaining < 0 or self.upper_bound < 1:
            raise ValueError(f"no Nim game has {self.remaining} stones, bound {self.upper_bound}")

    @property
    def over(self) -> bool:
        """Whether every stone is gone."""
        return self.remaining == 0

    @property
    def most(self) -> int:
        """The most stones the player to move may take: the bound or what is left."""
        return min(self.upper_bound, self.remaining)

    def invalid_move(self) -> IllegalAction:
        """The course's message for a bad move in this position."""
        return IllegalAction(f"Invalid move. You must remove between 1 and {self.most} stones.")

    def take(self, count: int) -> NimGame:
        """The game after taking ``count`` stones; :class:`IllegalAction` if not allowed."""
        if not 1 <= count <= self.most:
            raise self.invalid_move()
        return NimGame(self.remaining - count, self.upper_bound)

    def take_text(self, text: str) -> NimGame:
        """The game after the move a player typed; any bad input is an invalid move."""
        try:
            count = parse_int(text)
        except ParseError:
            raise self.invalid_move() from None
        return self.take(count)

    def board(self) -> str:
        """One star per stone, separated by single spaces, none after the last."""
        return " ".join("*" * self.remaining)
