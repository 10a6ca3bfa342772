"""Playing one game on a console: board, turn prompt, move, until the stones are gone.

The same loop serves ordinary Nim and the advanced game (Kayles), human and AI players, and all
three projects. What it prints, for one turn::

    <blank line>
    7 stones left: * * * * * * *
    Han's turn - remove how many?

then the human's input (which a terminal echoes and a pipe does not), or nothing for an AI.
A bad move prints a blank line and the rules' message, and the same player is asked again. After
the last move: a blank line, ``Game Over`` and ``<winner> wins!`` — no final board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from casino.errors import IllegalAction, ParseError
from casino.nim.ai import NimAIPlayer
from casino.nim.kayles import INVALID_MOVE, KaylesGame, KaylesMove
from casino.nim.nim_game import NimGame
from casino.shell import Console

MAX_STONES = 1000
"""The largest game the shells start: beyond it a board no longer fits a terminal. (The AI
itself plays any size; see :mod:`casino.nim.strategy`.)"""

G = TypeVar("G", NimGame, KaylesGame)


class Rules(Protocol[G]):
    """What differs between ordinary Nim and the advanced game, as the loop sees it."""

    question: str
    last_stone_wins: bool

    def apply(self, game: G, text: str) -> G:
        """The game after the move typed as ``text``; IllegalAction with the message if bad."""

    def ai_move(self, ai: NimAIPlayer, game: G, last_move: str) -> str:
        """The AI's move, as a human would type it."""


class NimRules:
    """Ordinary Nim: taking the last stone loses."""

    question = "remove how many?"
    last_stone_wins = False

    def apply(self, game: NimGame, text: str) -> NimGame:
        """Take the typed number of stones."""
        return game.take_text(text)

    def ai_move(self, ai: NimAIPlayer, game: NimGame, last_move: str) -> str:
        """The seed's ``removeStone``."""
        return str(ai.remove_stone(game.remaining, game.upper_bound))


class KaylesRules:
    """The advanced game: taking the last stone wins."""

    question = "which to remove?"
    last_stone_wins = True

    def apply(self, game: KaylesGame, text: str) -> KaylesGame:
        """Take the typed ``position count``; anything unreadable is ``Invalid move.``."""
        try:
            move = KaylesMove.parse(text)
        except ParseError:
            raise IllegalAction(INVALID_MOVE) from None
        return game.take(move)

    def ai_move(self, ai: NimAIPlayer, game: KaylesGame, last_move: str) -> str:
        """The seed's ``advancedMove``."""
        return ai.advanced_move(game.stones, last_move)


class Mover(Protocol):
    """Where a seat's moves come from: the console (a human) or the AI."""

    def move(self, rules: Rules[G], game: G, prompt: str, last_move: str) -> str | None:
        """Show ``prompt`` and return the move's text; ``None`` when the input has ended."""


@dataclass(frozen=True)
class Human:
    """A player at the console: the prompt is shown and a line is read."""

    console: Console

    def move(self, rules: Rules[G], game: G, prompt: str, last_move: str) -> str | None:
        """The next input line."""
        return self.console.ask(prompt)


@dataclass(frozen=True)
class Computer:
    """The AI: the prompt is shown and the move is made at once, reading nothing."""

    console: Console
    ai: NimAIPlayer

    def move(self, rules: Rules[G], game: G, prompt: str, last_move: str) -> str | None:
        """The AI's move (never echoed: the next line printed is the new board)."""
        self.console.write(prompt)
        return rules.ai_move(self.ai, game, last_move)


@dataclass(frozen=True)
class Seat:
    """A player in a game: the name the turn prompt uses, the name announced as the winner."""

    turn_name: str
    winner_name: str
    mover: Mover


@dataclass(frozen=True)
class Game(Generic[G]):
    """A game about to be played: its rules, its start, and who sits in it."""

    rules: Rules[G]
    start: G
    seats: tuple[Seat, Seat]


def play(console: Console, game: Game[G]) -> int | None:
    """Play ``game`` to the end; the winner's seat (0 or 1), or ``None`` if the input ended."""
    rules, state, turn, last_move = game.rules, game.start, 0, ""
    while True:
        seat = game.seats[turn]
        console.line()
        console.line(f"{state.remaining} stones left: {state.board()}")
        text = seat.mover.move(
            rules, state, f"{seat.turn_name}'s turn - {rules.question}\n", last_move
        )
        if text is None:
            return None
        try:
            state = rules.apply(state, text)
        except IllegalAction as error:
            console.line()
            console.line(str(error))
            continue
        last_move = text.strip()
        if state.over:
            winner = turn if rules.last_stone_wins else 1 - turn
            console.line()
            console.line("Game Over")
            console.line(f"{game.seats[winner].winner_name} wins!")
            return winner
        turn = 1 - turn
