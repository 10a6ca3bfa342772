"""The referee of the games casino plays against a program: the rival's moves, and each board
checked.

A :class:`Referee` reads the screens the program shows during a ``play:`` transcript
(:mod:`casino.harness.play`), answers each prompt, and records each game's moves and winner.

**The rival.** ``random`` picks any legal move; ``perfect`` a move that leaves the AI a position
it cannot win when there is one (any of them), else any move; ``erring`` plays as ``perfect``
but for one mistake: the first time it can, it picks a move that leaves the AI a position the AI
can win. Every choice comes from a ``random.Random`` seeded with the transcript's ``seed`` and the
game's number, so the same seed and the same program play the same games.

**What is checked.** Every board the program shows must follow from the one before by one legal
move (the rival's as typed, or some move of the AI's), and the turns must alternate; the winner
the program announces must be the player who could end the game from the last board. A program
that refuses a legal move, shows a board that does not follow, or announces another winner has
gone wrong: that game is lost and the play stops there (the games after it are not played).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from casino.duel import GameAdapter, Screen, Side, Unreadable
from casino.harness.playspec import Play
from casino.numbers import quoted

# ------------------------------------------------------------------------------- the rival


def choose(
    adapter: GameAdapter[Any, Any], position: Any, rival: str, rng: random.Random, erred: bool
) -> tuple[Any, bool]:
    """The rival's move at ``position`` and whether this move is its one mistake (``erring``).

    ``random``: any legal move. ``perfect``: any move after which the AI cannot force a win, if
    there is one, else any move. ``erring``: as ``perfect``, but the first time a move exists
    that lets the AI win from a position the rival could win, it makes one of those.
    """
    moves = list(adapter.moves(position))
    if rival == "random":
        return rng.choice(moves), False
    good = [move for move in moves if not adapter.winning(adapter.after(position, move))]
    if rival == "erring" and not erred and good:
        bad = [move for move in moves if move not in good]
        if bad:
            return rng.choice(bad), True
    return rng.choice(good or moves), False


# ------------------------------------------------------------------------------- the referee


@dataclass
class GameRecord:
    """One game as it went."""

    number: int
    size: int
    moves: list[str] = field(default_factory=list)
    """``ai 3 2``, ``rival 1 1``, … in order."""
    winner: Side | None = None
    could_win: bool = False
    """Whether the AI was ever to move in a position it could win from."""
    problem: str | None = None
    """How the program went wrong in it (the play stopped there)."""

    @property
    def lost(self) -> bool:
        """Whether it counts against the AI: a game it could win and did not, or one that went
        wrong."""
        return self.problem is not None or (self.could_win and self.winner is not Side.AI)


class Wait(Enum):
    """The program has not finished printing its screen: read on."""

    MORE = "more"


class Phase(Enum):
    """Where the play is."""

    OPENING = "opening"
    GAME = "game"
    CLOSING = "closing"
    DONE = "done"


@dataclass(frozen=True)
class Turn:
    """Where a game is, as the referee follows it: the position, who moves there, and the move
    that led to it."""

    position: Any
    to_move: Side
    before: Any = None
    """The position before the last move (``None`` at the start)."""
    mover: Side | None = None
    """Who made the last move (``None`` at the start)."""
    shown: bool = False
    """Whether the program has shown :attr:`position`, or a later board, since that move."""


class Referee:
    """Plays a play's games from what the program prints, one line at a time.

    Whose turn it is comes from the game's state, never from the program's words: a game
    starts with the player the start line named, every board shown is either the position the
    game is at (shown for the player to move) or, at the AI's turn, one legal move of the AI's
    from it (the AI has moved: the rival's turn), and the rival's move typed makes it the AI's
    turn. The program waits for the rival's move once a whole board line of the rival's turn
    is shown: casino types it then (whatever the prompt after it says, or if none comes)."""

    def __init__(self, adapter: GameAdapter[Any, Any], play: Play, seed: int | None) -> None:
        self.adapter = adapter
        self.play = play
        self.seed = seed
        self.opening = list(adapter.opening())
        self.closing = list(adapter.closing())
        self.sizes = [size for size in play.sizes for _ in range(play.games)]
        self.records: list[GameRecord] = []
        self.phase = Phase.OPENING
        self.turn = Turn(None, Side.AI)
        """The game in progress, as far as the screens typed to have shown it."""
        self.rng = random.Random()
        self.erred = False
        self.typed: str | None = None
        """The rival's move just typed (to check the next board against)."""
        self.stopped: str | None = None
        """Why the play stopped early, outside any game (before the first)."""

    @property
    def game(self) -> GameRecord | None:
        """The game being played."""
        return self.records[-1] if self.phase is Phase.GAME else None

    def expecting(self) -> str:
        """What the play waits for, in words (for a time-out)."""
        if self.phase is Phase.GAME and self.game is not None:
            return f"the rival's turn or the end of game {self.game.number}"
        return "the command prompt"

    def decide(self, text: str, *, blocked: bool) -> str | Wait | None:
        """The line to type after ``text`` (what the program printed since the last one), or
        :attr:`Wait.MORE` while the screen is incomplete, or ``None`` to end the input. With
        ``blocked`` the program is known to wait for input (an incomplete screen is then one
        casino cannot read)."""
        if self.phase is Phase.DONE:
            return None
        try:
            screen = self.adapter.read(text)
            answer = self._answer(screen, blocked)
            if answer is Wait.MORE and blocked:
                raise Unreadable(self._blocked(text))
            return answer
        except Unreadable as problem:
            self._stop(str(problem))
            return None

    def _blocked(self, text: str) -> str:
        """Why a program waiting for input now is wrong (the screen is not complete)."""
        if self.phase is Phase.GAME and self.turn.to_move is Side.AI and self.turn.shown:
            return f"the program asks for input at its AI's turn, after printing {_tail(text)}"
        return f"it waits for input after printing {_tail(text)}"

    def _answer(self, screen: Screen[Any], blocked: bool) -> str | Wait | None:
        if self.phase is Phase.GAME:
            return self._in_game(screen, blocked)
        if screen.boards:
            raise Unreadable("expected the command prompt, not a board outside a game")
        return self._next_command() if screen.prompt else Wait.MORE

    def _next_command(self) -> str | None:
        """The next opening line, the start of the next game, or the next closing line."""
        if self.opening:
            return self.opening.pop(0)
        if len(self.records) < len(self.sizes):
            return self._start_game()
        if self.closing:
            self.phase = Phase.CLOSING
            return self.closing.pop(0)
        self.phase = Phase.DONE
        return None

    def _start_game(self) -> str:
        number = len(self.records) + 1
        size = self.sizes[number - 1]
        game = GameRecord(number, size)
        self.records.append(game)
        self.phase = Phase.GAME
        first = Side.AI if self.play.ai_first else Side.RIVAL
        self.turn = Turn(self.adapter.initial(size), first)
        self.rng = random.Random(f"{self.seed}:{number}")
        self.erred = False
        self.typed = None
        self._ai_may_win(game)
        return self.adapter.start(size, self.play.ai_first)

    def _ai_may_win(self, game: GameRecord) -> None:
        """Note it when the AI is to move in a position it can win from (whether or not the
        program shows that board: a game it could win counts whatever it prints)."""
        if self.turn.to_move is Side.AI and self.adapter.winning(self.turn.position):
            game.could_win = True

    def _in_game(self, screen: Screen[Any], blocked: bool) -> str | Wait | None:
        game = self.game
        assert game is not None
        if screen.refused and (screen.boards or screen.prompt or blocked):
            raise Unreadable(self._refusal(game, screen))  # (judged once the board after it is)
        if screen.winner is not None and blocked and not screen.prompt:
            raise Unreadable("the game ended but the program does not show its prompt")
        turn, moves = self._followed(game, screen.boards)
        if screen.prompt:
            self._commit(game, turn, moves)
            if screen.winner is None:
                raise Unreadable(self._no_winner(game))
            self._end(game, screen.winner)
            self.phase = Phase.OPENING
            return self._next_command()
        if screen.refused or screen.winner is not None or not screen.boards:
            return Wait.MORE
        if turn.to_move is not Side.RIVAL or not self.adapter.moves(turn.position):
            return Wait.MORE
        self._commit(game, turn, moves)
        return self._rival_moves(game)

    def _commit(self, game: GameRecord, turn: Turn, moves: list[str]) -> None:
        """The screen is complete: the game is where its boards took it."""
        game.moves.extend(moves)
        self.turn = turn

    def _rival_moves(self, game: GameRecord) -> str:
        """Choose the rival's move, note it and return it as typed."""
        position = self.turn.position
        move, erred = choose(self.adapter, position, self.play.rival, self.rng, self.erred)
        self.erred |= erred
        self.typed = self.adapter.format(move)
        game.moves.append(f"rival {self.typed}")
        self.turn = Turn(self.adapter.after(position, move), Side.AI, position, Side.RIVAL)
        self._ai_may_win(game)
        return self.typed

    def _no_winner(self, game: GameRecord) -> str:
        """Why a game that ended at the command prompt with no winner went wrong."""
        if not self.turn.shown and not game.moves:
            started = self.adapter.start(game.size, self.play.ai_first)
            return f"the game did not start: {started!r} showed no board"
        return "the program left the game with no winner"

    def _refusal(self, game: GameRecord, screen: Screen[Any]) -> str:
        """Whose move the program refused: the rival's just typed (a legal one), if it shows
        the position before it again, else one of its own AI's."""
        ours = self.turn.mover is Side.RIVAL and not self.turn.shown
        again = bool(screen.boards) and screen.boards[0] == self.turn.before
        if ours and again:
            return f"the program refused the rival's legal move {self.typed}"
        return "the program refused a move (its own AI's: casino's were legal)"

    def _followed(self, game: GameRecord, boards: tuple[Any, ...]) -> tuple[Turn, list[str]]:
        """Where ``boards`` take the game, and the AI's moves they show (nothing is changed
        until the screen is complete). A board is the position the game is at, or at the AI's
        turn one legal move of the AI's from it (a program may leave out the boards of its
        AI's turns); anything else has gone wrong."""
        turn, moves = self.turn, list[str]()
        for shown in boards:
            if shown == turn.position:
                turn = replace(turn, shown=True)
                continue
            move = self._move_to(turn.position, shown) if turn.to_move is Side.AI else None
            if move is None:
                raise Unreadable(self._not_following(game, turn, moves))
            moves.append(f"ai {self.adapter.format(move)}")
            turn = Turn(shown, Side.RIVAL, turn.position, Side.AI, shown=True)
        return turn, moves

    def _not_following(self, game: GameRecord, turn: Turn, moves: list[str]) -> str:
        if not turn.shown and not game.moves and not moves:
            first = "the AI" if self.play.ai_first else "the rival"
            return f"the first board is not the start of a game of {game.size} with {first} to move"
        if turn.to_move is Side.RIVAL:
            return "the board changed at the rival's turn, before the rival moved"
        if turn.mover is Side.RIVAL and not turn.shown:
            return (
                f"the board after move {(game.moves + moves)[-1]!r} is neither the position it "
                "left nor one move of the AI's from it"
            )
        return "the board after the AI's turn does not follow by a legal move"

    def _move_to(self, position: Any, shown: Any) -> Any:
        """The move that takes ``position`` to ``shown`` (``None``: none does)."""
        moves = self.adapter.moves(position)
        return next((m for m in moves if self.adapter.after(position, m) == shown), None)

    def _end(self, game: GameRecord, announced: Side) -> None:
        """The game is over: the announced winner must be the one the rules give, for the
        player whose move ended it (the last one shown or typed, or the AI's from the last
        board when the program shows no board after it)."""
        turn = self.turn
        if not self.adapter.moves(turn.position) and turn.mover is not None:
            winner = self.adapter.winner(turn.before, turn.mover)
        elif turn.to_move is Side.AI:
            winner = self.adapter.winner(turn.position, Side.AI)
            ending = [m for m in self.adapter.moves(turn.position) if self._ends(m)]
            game.moves.append(f"ai {self.adapter.format(ending[0])}" if ending else "ai ?")
        else:
            winner = None
        if winner is not announced:
            said = "the AI" if announced is Side.AI else "the rival"
            raise Unreadable(f"the program says {said} won, but the last board does not give that")
        game.winner = announced

    def _ends(self, move: Any) -> bool:
        return not self.adapter.moves(self.adapter.after(self.turn.position, move))

    def _stop(self, problem: str) -> None:
        """The play cannot go on: the game in progress is lost with ``problem``."""
        if self.game is not None:
            self.game.problem = problem
        else:
            self.stopped = problem
        self.phase = Phase.DONE

    def ended(self, problem: str) -> None:
        """The program ended (or was stopped) before the play did."""
        if self.phase in (Phase.GAME, Phase.OPENING) and self.stopped is None:
            self._stop(problem)


def _tail(text: str) -> str:
    """The last line of ``text`` that is not blank, quoted (or that it printed nothing)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return quoted(lines[-1]) if lines else "nothing"
