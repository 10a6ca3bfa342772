"""A game casino plays against a program through the program's own console: the adapter protocol.

casino's harness (:mod:`casino.harness.play`) judges a program that *plays* (a Nim AI, a video
poker advisor) by playing the other side live: it reads the board the program prints, chooses the
rival's move, types it, and judges who won. Everything that depends on the game lives in a
**game adapter**, a small object with no I/O of its own that this module describes:

- the lines typed before the first game and after the last one (:meth:`GameAdapter.opening`,
  :meth:`GameAdapter.closing`), and the line that starts one game (:meth:`GameAdapter.start`);
- :meth:`GameAdapter.read`: what the text the program printed since the last line typed shows,
  read only from what the assignment fixes — the boards, whether the program refused a move,
  who it says won, and whether it ends at the command prompt. Whose turn a board is, and so
  whether the program now waits for the rival's move, is never read from the words of a turn
  prompt (those are the student's: ``Luke's turn - which to remove?``, ``remove how many?``,
  none at all): the referee knows it from the game's state, who moved first and the boards
  shown since;
- the rules, seen from outside: :meth:`~GameAdapter.moves`, :meth:`~GameAdapter.after`,
  :meth:`~GameAdapter.winning` (the player to move can force a win) and
  :meth:`~GameAdapter.winner` (who wins when a player ends the game from a position);
- :meth:`GameAdapter.format`: a move as the program wants it typed.

Game code implements it structurally (``casino.nim.duel``) and uses only the standard library;
the harness knows adapters by name (``casino.harness.playspec.ADAPTERS``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Generic, Protocol, TypeVar

from casino.errors import ParseError

S = TypeVar("S", bound=Hashable)
"""A position of the game (what a board shows)."""
M = TypeVar("M")
"""A move."""


class Side(Enum):
    """The two sides of a game casino plays against a program."""

    AI = "ai"
    """The program's own player (its AI, its advisor)."""
    RIVAL = "rival"
    """casino, typing the other side's moves."""

    @property
    def other(self) -> Side:
        """The opponent of this side."""
        return Side.RIVAL if self is Side.AI else Side.AI


@dataclass(frozen=True)
class Screen(Generic[S]):
    """What the program printed between two lines typed, as the adapter read it: only what the
    assignment fixes, never a turn prompt's words."""

    boards: tuple[S, ...] = ()
    """Every position a whole board line shows, in order (a line not yet ended is not read)."""
    prompt: bool = False
    """Whether the text ends at the command prompt (a game may start, or the session end)."""
    refused: bool = False
    """Whether the program refused the move just typed (it asks again)."""
    winner: Side | None = None
    """Who the program announced as the winner, if a game ended on this screen."""


class Unreadable(ParseError):
    """The program printed something the adapter cannot read as its game (one line why)."""


class GameAdapter(Protocol[S, M]):
    """What casino needs to know to play one kind of game against a program's console."""

    def opening(self) -> Sequence[str]:
        """The lines typed once, each at the program's command prompt, before the first game."""
        ...

    def start(self, size: int, ai_first: bool) -> str:
        """The line that starts a game of ``size`` (stones, hands…) with the AI moving first
        or second."""
        ...

    def closing(self) -> Sequence[str]:
        """The lines typed after the last game (``exit``)."""
        ...

    def read(self, text: str) -> Screen[S]:
        """What ``text`` (printed since the last line typed, perhaps not all of it yet) shows;
        :class:`Unreadable` when it cannot be read as the game (a board that is no position,
        a winner casino did not add, the prompt after ``Game Over`` with no winner)."""
        ...

    def initial(self, size: int) -> S:
        """The position a game of ``size`` starts from."""
        ...

    def moves(self, position: S) -> Sequence[M]:
        """Every legal move from ``position`` (none: the game is over)."""
        ...

    def after(self, position: S, move: M) -> S:
        """The position ``move`` leads to."""
        ...

    def winning(self, position: S) -> bool:
        """Whether the player to move at ``position`` can force a win."""
        ...

    def winner(self, position: S, mover: Side) -> Side | None:
        """Who wins when ``mover`` ends the game with one move from ``position``; ``None`` if
        no move of theirs ends it there."""
        ...

    def format(self, move: M) -> str:
        """``move`` as it is typed (and as reports show it)."""
        ...
