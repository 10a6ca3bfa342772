"""Nimsys's two games played against a Nimsys program through its console.

:class:`AdvancedGame` (the advanced game, Kayles, the bonus of section 2.6) and
:class:`OriginalGame` (ordinary Nim with an upper bound, section 2.5's AI) are adapters of
:mod:`casino.duel`. For the advanced game, casino types the commands a course's tester would —
two players, then ``startadvancedgame`` once per game — reads each board the program prints,
and plays the human player's side itself. What it types::

    addplayer rival,Rival,Casino        # the rival, a human player whose moves casino types
    addaiplayer ai,Robot,Deep            # the program's AI player
    startadvancedgame 7,ai,rival         # (or 7,rival,ai when the AI moves second)
    3 2                                   # the rival's moves, each once a board shows its turn
    exit

What it reads is only what the assignment fixes (read leniently: spaces, ``\r`` and letter case
at the edges do not matter, since the bonus is about the AI, not the text):

- a board ``7 stones left: <1,*> <2,x> …`` (the stones from the ``<position,*|x>`` marks), from
  whole lines only (a line still being printed is read once it ends);
- ``Invalid move.`` (the move typed was refused);
- ``Game Over`` then ``Deep Robot wins!`` (the winner, by any of its names);
- ``$`` alone on the last line: the command prompt.

Every other line is skipped: ``Initial stone count: 7``, ``Player 1: …``, blank lines, and the
turn prompts. The assignment's example words one ``Luke's turn - which to remove?``, but the
course grades the bonus through ``advancedMove`` and never reads that sentence, and students word
it otherwise (``remove how many?``, ``Enter your move:``, nothing): whose turn a board is comes
from the game's state (:mod:`casino.harness.play` knows who moved first and follows every
board), never from those words. The rules
are casino's own (:mod:`casino.nim.kayles`, :mod:`casino.nim.strategy`): a position is winning
for the player to move exactly when the XOR of its rows' Grundy values is not 0.

The original game is read alike, with ``startgame size,bound,first,second`` and boards
``7 stones left: * * * * * * *``; taking the last stone loses, so the player to move wins
exactly when the count left is not ``k(bound + 1) + 1``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from operator import xor
from typing import Generic, TypeVar

from casino.duel import Screen, Side, Unreadable
from casino.nim.kayles import KaylesGame, KaylesMove
from casino.nim.strategy import grundy
from casino.numbers import quoted

Stones = tuple[bool, ...]
"""A position of the advanced game: ``stones[i]`` is whether stone ``i + 1`` is still there."""
P = TypeVar("P", Stones, int)


@dataclass(frozen=True)
class Names:
    """The two players casino adds: a username, a family name and a given name each."""

    ai: tuple[str, str, str] = ("ai", "Robot", "Deep")
    rival: tuple[str, str, str] = ("rival", "Rival", "Casino")

    def of(self, side: Side) -> tuple[str, str, str]:
        """The names of ``side``."""
        return self.ai if side is Side.AI else self.rival

    def full(self, side: Side) -> str:
        """``Deep Robot``: the given name, then the family name (as ``… wins!`` shows it)."""
        _, family, given = self.of(side)
        return f"{given} {family}"

    def side(self, name: str) -> Side | None:
        """The side ``name`` names, in any case and spacing: the given name (as the assignment
        names a turn), the full name (as it names a winner), or either the other way round or
        the username (as some programs do)."""
        said = " ".join(name.split()).casefold()
        for side in Side:
            username, family, given = self.of(side)
            known = (username, given, family, f"{given} {family}", f"{family} {given}")
            if said in {other.casefold() for other in known}:
                return side
        return None


LONGEST = 2048
"""Characters of a line read (a board of 100 stones is under 800): the rest of a longer line
is not looked at, so that no pattern ever runs over a flood."""
_BOARD = re.compile(r"(\d{1,6})\s+stones?\s+left\s*:(.*)", re.IGNORECASE)
_STONE = re.compile(r"<\s*(\d{1,6})\s*,\s*([*xX])\s*>")
"""(Numbers of at most 6 digits: a longer one is no board, and never reaches ``int()``.)"""
_INVALID = re.compile(r"invalid\s+move\b", re.IGNORECASE)
_OVER = re.compile(r"game\s+over", re.IGNORECASE)
_WINS = re.compile(r"(.+?)\s+wins\s*!?", re.IGNORECASE)


class _Console(Generic[P]):
    """What both games share: the players, the commands around the games, reading a screen."""

    def __init__(self, names: Names | None = None) -> None:
        self.names = names or Names()

    def opening(self) -> Sequence[str]:
        """Add the rival (a human player) and the AI player."""
        return (
            "addplayer " + ",".join(self.names.rival),
            "addaiplayer " + ",".join(self.names.ai),
        )

    def players(self, ai_first: bool) -> str:
        """``ai,rival`` or ``rival,ai``: player 1 moves first."""
        ai, rival = self.names.ai[0], self.names.rival[0]
        return f"{ai},{rival}" if ai_first else f"{rival},{ai}"

    def closing(self) -> Sequence[str]:
        """``exit``."""
        return ("exit",)

    def read(self, text: str) -> Screen[P]:
        """The boards, refusal, winner and command prompt in ``text``: the boards and the other
        lines from whole lines only, the prompt ``$`` from the last line, ended or not."""
        lines = [line.strip()[:LONGEST] for line in text.replace("\r", "").split("\n")]
        last = next((line for line in reversed(lines) if line), "")
        prompt = last == "$"
        whole = lines if prompt else lines[:-1]
        boards: list[P] = []
        refused, over, winner = False, False, None
        for line in whole:
            if board := _BOARD.fullmatch(line):
                boards.append(self.position(line, board))
            elif _INVALID.match(line):
                refused = True
            elif _OVER.fullmatch(line):
                over = True
            elif over and winner is None and (wins := _WINS.fullmatch(line)):
                winner = self._winner(wins.group(1), line)
        if prompt and over and winner is None:
            raise Unreadable("'Game Over' with no '… wins!' line after it")
        return Screen(tuple(boards), prompt, refused, winner)

    def position(self, line: str, board: re.Match[str]) -> P:
        """The position a board line shows (:class:`Unreadable` if it shows none)."""
        raise NotImplementedError

    def _winner(self, name: str, line: str) -> Side:
        side = self.names.side(name)
        if side is None:
            raise Unreadable(f"the winner is a player casino did not add: {quoted(line)}")
        return side


class AdvancedGame(_Console[Stones]):
    """Nimsys's advanced game (Project C, section 2.6) as a :class:`casino.duel.GameAdapter`."""

    def start(self, size: int, ai_first: bool) -> str:
        """``startadvancedgame size,first,second``."""
        return f"startadvancedgame {size},{self.players(ai_first)}"

    def position(self, line: str, board: re.Match[str]) -> Stones:
        """The stones a board line shows, in position order, each position once from 1."""
        marks = _STONE.findall(board.group(2))
        if not marks or [int(number) for number, _ in marks] != list(range(1, len(marks) + 1)):
            raise Unreadable(f"a board casino cannot read: {quoted(line)}")
        stones = tuple(mark == "*" for _, mark in marks)
        if sum(stones) != int(board.group(1)):
            raise Unreadable(f"a board whose count is not its stones: {quoted(line)}")
        return stones

    def initial(self, size: int) -> Stones:
        """``size`` stones, all there."""
        return KaylesGame.start(size).stones

    def moves(self, position: Stones) -> Sequence[KaylesMove]:
        """One stone, or two adjacent ones, still there."""
        return KaylesGame(position).legal_moves()

    def after(self, position: Stones, move: KaylesMove) -> Stones:
        """The stones left after ``move``."""
        return KaylesGame(position).take(move).stones

    def winning(self, position: Stones) -> bool:
        """Whether the XOR of the rows' Grundy values is not 0."""
        return value(position) != 0

    def winner(self, position: Stones, mover: Side) -> Side | None:
        """``mover`` if one move of theirs takes the last stones (taking the last stone wins)."""
        game = KaylesGame(position)
        return mover if any(game.take(move).over for move in game.legal_moves()) else None

    def format(self, move: KaylesMove) -> str:
        """``position count``, as the assignment types it."""
        return str(move)


def value(position: Stones) -> int:
    """The XOR of the Grundy values of the rows of adjacent stones in ``position``."""
    rows = "".join("*" if stone else " " for stone in position).split()
    return reduce(xor, (grundy(len(row)) for row in rows), 0)


class OriginalGame(_Console[int]):
    """Nimsys's original game (ordinary Nim, taking the last stone loses) with upper bound
    ``bound``, as a :class:`casino.duel.GameAdapter`; a position is the count left."""

    def __init__(self, bound: int = 3, names: Names | None = None) -> None:
        super().__init__(names)
        if bound < 1:
            raise ValueError(f"the upper bound must be at least 1, not {bound}")
        self.bound = bound

    def start(self, size: int, ai_first: bool) -> str:
        """``startgame size,bound,first,second``."""
        return f"startgame {size},{self.bound},{self.players(ai_first)}"

    def position(self, line: str, board: re.Match[str]) -> int:
        """The count a board line shows (one ``*`` per stone)."""
        count = int(board.group(1))
        if board.group(2).split() != ["*"] * count:
            raise Unreadable(f"a board whose count is not its stones: {quoted(line)}")
        return count

    def initial(self, size: int) -> int:
        """``size`` stones."""
        return size

    def moves(self, position: int) -> Sequence[int]:
        """One stone up to the bound (or what is left)."""
        return list(range(1, min(self.bound, position) + 1))

    def after(self, position: int, move: int) -> int:
        """The count left after taking ``move``."""
        return position - move

    def winning(self, position: int) -> bool:
        """Not ``k(bound + 1) + 1`` left; with none left, the player to move has won already
        (the other took the last stone)."""
        return position == 0 or (position - 1) % (self.bound + 1) != 0

    def winner(self, position: int, mover: Side) -> Side | None:
        """Whoever takes the last stone loses: the other player, if ``mover`` can take all."""
        return mover.other if 1 <= position <= self.bound else None

    def format(self, move: int) -> str:
        """The count, as typed."""
        return str(move)
