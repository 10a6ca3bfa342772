"""The advanced game (Kayles): a row of stones; take one stone or two adjacent stones.

Taking the last stone wins. Positions are 1-based, as players type them.
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.errors import IllegalAction, ParseError
from casino.numbers import parse_int

INVALID_MOVE = "Invalid move."
"""What the seed prints for any bad move in the advanced game."""


@dataclass(frozen=True, slots=True)
class KaylesMove:
    """Take ``count`` (1 or 2) adjacent stones starting at 1-based ``position``."""

    position: int
    count: int

    def __str__(self) -> str:
        return f"{self.position} {self.count}"

    @classmethod
    def parse(cls, text: str) -> KaylesMove:
        """Read ``"position count"`` (two whole numbers); :class:`ParseError` otherwise."""
        parts = text.split()
        if len(parts) != 2:
            raise ParseError(f"a move is two numbers, not {text!r}")
        return cls(parse_int(parts[0]), parse_int(parts[1]))


@dataclass(frozen=True, slots=True)
class KaylesGame:
    """The stones of an advanced game: ``stones[i]`` is whether stone ``i + 1`` is still there."""

    stones: tuple[bool, ...]

    @classmethod
    def start(cls, count: int) -> KaylesGame:
        """A fresh row of ``count`` stones."""
        if count < 1:
            raise ValueError(f"a game needs at least one stone, not {count}")
        return cls((True,) * count)

    @property
    def remaining(self) -> int:
        """How many stones are left."""
        return sum(self.stones)

    @property
    def over(self) -> bool:
        """Whether every stone is gone."""
        return not any(self.stones)

    def check(self, move: KaylesMove) -> None:
        """:class:`IllegalAction` unless ``move`` takes 1 or 2 adjacent stones still present."""
        first = move.position - 1
        if move.count not in (1, 2):
            raise IllegalAction(INVALID_MOVE)
        if first < 0 or first + move.count > len(self.stones):
            raise IllegalAction(INVALID_MOVE)
        if not all(self.stones[first : first + move.count]):
            raise IllegalAction(INVALID_MOVE)

    def take(self, move: KaylesMove) -> KaylesGame:
        """The game after ``move``; :class:`IllegalAction` if it is not legal."""
        self.check(move)
        first = move.position - 1
        gone = (False,) * move.count
        return KaylesGame(self.stones[:first] + gone + self.stones[first + move.count :])

    def legal_moves(self) -> list[KaylesMove]:
        """Every legal move, by position then count."""
        moves = []
        for index, present in enumerate(self.stones):
            if present:
                moves.append(KaylesMove(index + 1, 1))
                if index + 1 < len(self.stones) and self.stones[index + 1]:
                    moves.append(KaylesMove(index + 1, 2))
        return moves

    def board(self) -> str:
        """The stones as the seed shows them: ``<1,*> <2,x> <3,*>``."""
        return " ".join(
            f"<{index},{'*' if present else 'x'}>"
            for index, present in enumerate(self.stones, start=1)
        )
