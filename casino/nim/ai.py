"""The AI player's brain, in the Python form of the seed's ``Testable`` interface.

The seed's Java interface is ``String advancedMove(boolean[] available, String lastMove)``;
here it is :meth:`NimAIPlayer.advanced_move`. The course's tester constructs the player with no
arguments and keeps the board itself, so the method never changes ``available``.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.nim.strategy import kayles_move, nim_removal


class NimAIPlayer:
    """A player that always wins a game it can win, in ordinary Nim and in the advanced game."""

    def remove_stone(self, remaining: int, upper_bound: int) -> int:
        """How many stones to take in ordinary Nim (the seed's ``removeStone``)."""
        return nim_removal(remaining, upper_bound)

    def advanced_move(self, available: Sequence[bool], last_move: str = "") -> str:
        """The move in the advanced game as ``"position count"`` (1-based position).

        ``available[i]`` is whether stone ``i + 1`` is still there. ``last_move`` is the
        opponent's last move (``""`` when this player moves first); the board already shows
        it, so the choice depends on ``available`` alone. ``ValueError`` if no stone is left.
        """
        return str(kayles_move(available))
