"""Games casino plays against a program, live, through the program's own console.

A transcript with a ``play:`` block (:mod:`casino.harness.playspec`) is not a session to compare:
casino plays the rival's side of real games against the program's AI and judges who won. The game
is known through its adapter (:class:`casino.duel.GameAdapter`, by name in
:data:`~casino.harness.playspec.ADAPTERS`); everything else is here and the same for every game:

1. casino types the adapter's opening lines, one at each command prompt;
2. for each game (each size in ``stones``, ``games`` times): the line that starts it, then, each
   time the program waits for the rival's move, the move casino chooses (:func:`choose`) from
   the last board the program showed;
3. the closing lines, then end of input.

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

**The verdict** is on the outcome, not the text: the AI must win every game it *could* win —
every game in which it was, at some turn, in a position from which it can force a win. (Moving
first in the advanced game, that is every game; moving second against a rival that never errs,
none: such games are counted apart, not against it.) One game lost is a failure, as the course's
tester gives a case's marks "only if your AI winning ratio is 100%". The report says which games
were lost and how (every move).

**Bounds**, as for every run: each wait for a screen at most the transcript's step ``timeout``;
each game at most ``timeout`` × (its size + 2) seconds and :func:`game_output` bytes; the whole
play the sum of these (and its opening and closing). It runs on the pipe and pty runners as a live
console (:mod:`casino.harness.runners.live`, the same command, sandbox and containment), and
in-process for casino's own programs (the program asks for each line, casino answers from what
it has printed).
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from casino.duel import Board, GameAdapter, Screen, Side, Unreadable, Waiting
from casino.harness.diff import Difference, RunVerdict, TextComparison, compare_text
from casino.harness.model import Transcript
from casino.harness.playspec import ADAPTERS, Play
from casino.harness.runners.base import (
    STDERR_KEPT,
    STDERR_MARGIN,
    Job,
    Limits,
    Outcome,
    Runner,
    Target,
    TargetError,
    flood_problem,
    seed_argv,
    signal_problem,
)
from casino.harness.runners.inproc import Capture, InProcessRunner, call_main
from casino.harness.runners.live import CannotStart, LiveConsole, start
from casino.harness.runners.sandbox import Sandbox
from casino.numbers import quoted

GAME_OUTPUT_BASE = 4096
"""Bytes every game may print, whatever its size."""
GAME_OUTPUT_PER_SQUARE = 16
"""…plus this many per (size + 2)²: a board per move, each as long as the size."""
PLAY_OUTPUT_MAX = 16 << 20
"""Bytes a whole play may print at most, however many games it has."""
LISTED = 10
"""Lost games listed one by one in the report; the rest are counted."""
STEP = "the games played"
"""Where a play's report says the difference is."""


def load_adapter(name: str, options: tuple[tuple[str, int], ...] = ()) -> GameAdapter[Any, Any]:
    """The game adapter called ``name`` (:data:`~casino.harness.playspec.ADAPTERS`), made
    with ``options`` (its settings from the play block)."""
    module, _, cls = ADAPTERS[name].partition(":")
    adapter: GameAdapter[Any, Any] = getattr(importlib.import_module(module), cls)(**dict(options))
    return adapter


def game_output(size: int) -> int:
    """Bytes one game of ``size`` may print."""
    return GAME_OUTPUT_BASE + GAME_OUTPUT_PER_SQUARE * (size + 2) ** 2


def play_limits(play: Play, timeout: float) -> Limits:
    """The whole play's limits: the sum of its games' (and a margin for opening and closing)."""
    sizes = [size for size in play.sizes for _ in range(play.games)]
    return Limits(
        output=min(sum(map(game_output, sizes)) + GAME_OUTPUT_BASE, PLAY_OUTPUT_MAX),
        stderr_kept=STDERR_KEPT,
        stderr=STDERR_MARGIN,
        seconds=timeout * (sum(size + 2 for size in sizes) + 4),
    )


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


class Referee:
    """Plays a play's games from what the program prints, one line at a time."""

    def __init__(self, adapter: GameAdapter[Any, Any], play: Play, seed: int | None) -> None:
        self.adapter = adapter
        self.play = play
        self.seed = seed
        self.opening = list(adapter.opening())
        self.closing = list(adapter.closing())
        self.sizes = [size for size in play.sizes for _ in range(play.games)]
        self.records: list[GameRecord] = []
        self.phase = Phase.OPENING
        self.position: Any = None
        """The last position known, and who moves there."""
        self.to_move = Side.AI
        self.shown = False
        """Whether the program has shown a board of the game in progress."""
        self.before: Any = None
        """The position before the rival's last move."""
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
            if screen is None and blocked:
                raise Unreadable(f"it waits for input after printing {_tail(text)}")
            if screen is None:
                return Wait.MORE
            return self._answer(screen)
        except Unreadable as problem:
            self._stop(str(problem))
            return None

    def _answer(self, screen: Screen[Any]) -> str | None:
        if self.phase is Phase.GAME:
            return self._in_game(screen)
        if screen.waiting is not Waiting.COMMAND or screen.boards:
            raise Unreadable(f"expected the command prompt, not {screen.waiting.value!r} input")
        return self._next_command()

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
        self.position = self.adapter.initial(size)
        self.to_move = Side.AI if self.play.ai_first else Side.RIVAL
        self.shown = False
        self.rng = random.Random(f"{self.seed}:{number}")
        self.erred = False
        self.typed = None
        self._ai_may_win(game)
        return self.adapter.start(size, self.play.ai_first)

    def _ai_may_win(self, game: GameRecord) -> None:
        """Note it when the AI is to move in a position it can win from (whether or not the
        program shows that board: a game it could win counts whatever it prints)."""
        if self.to_move is Side.AI and self.adapter.winning(self.position):
            game.could_win = True

    def _in_game(self, screen: Screen[Any]) -> str | None:
        game = self.game
        assert game is not None
        if screen.refused:
            raise Unreadable(self._refusal(game, screen))
        for board in screen.boards:
            self._follow(game, board.position, board.turn)
        if screen.winner is not None:
            self._end(game, screen.winner)
            if screen.waiting is not Waiting.COMMAND:
                raise Unreadable("the game ended but the program does not show its prompt")
            self.phase = Phase.OPENING
            return self._next_command()
        if screen.waiting is Waiting.COMMAND and not self.shown:
            started = self.adapter.start(game.size, self.play.ai_first)
            raise Unreadable(f"the game did not start: {started!r} showed no board")
        if screen.waiting is Waiting.COMMAND:
            raise Unreadable("the program left the game with no winner")
        if self.to_move is not Side.RIVAL:
            raise Unreadable("the program asks for the rival's move out of turn")
        move, erred = choose(self.adapter, self.position, self.play.rival, self.rng, self.erred)
        self.erred |= erred
        self.typed = self.adapter.format(move)
        game.moves.append(f"rival {self.typed}")
        self.before = self.position
        self.position = self.adapter.after(self.position, move)
        self.to_move = Side.AI
        self._ai_may_win(game)
        return self.typed

    def _refusal(self, game: GameRecord, screen: Screen[Any]) -> str:
        """Whose move the program refused: the rival's just typed (a legal one), if it shows
        the rival the position before it again, else one of its own AI's."""
        ours = bool(game.moves) and game.moves[-1] == f"rival {self.typed}"
        again = bool(screen.boards) and screen.boards[0] == Board(self.before, Side.RIVAL)
        if ours and again:
            return f"the program refused the rival's legal move {self.typed}"
        return "the program refused a move (its own AI's: casino's were legal)"

    def _follow(self, game: GameRecord, shown: Any, turn: Side) -> None:
        """Check a board against the game so far; a board after the AI's turn tells its move
        (a program may leave out the boards of its AI's turns)."""
        if turn is self.to_move:
            if shown != self.position:
                raise Unreadable(self._not_the_position(game))
        elif self.to_move is Side.AI:  # the AI has moved
            move = self._move_to(shown)
            if move is None:
                raise Unreadable("the board after the AI's turn does not follow by a legal move")
            game.moves.append(f"ai {self.adapter.format(move)}")
        else:
            raise Unreadable("the program gave the AI the turn before the rival moved")
        self.position, self.to_move, self.shown = shown, turn, True
        self._ai_may_win(game)

    def _not_the_position(self, game: GameRecord) -> str:
        if not self.shown and not game.moves:
            first = "the AI" if self.play.ai_first else "the rival"
            return f"the first board is not the start of a game of {game.size} with {first} to move"
        after = f"move {game.moves[-1]!r}" if game.moves else "the first board"
        return f"the board after {after} is not the position it left"

    def _move_to(self, shown: Any) -> Any:
        """The move that takes the current position to ``shown`` (``None``: none does)."""
        moves = self.adapter.moves(self.position)
        return next((m for m in moves if self.adapter.after(self.position, m) == shown), None)

    def _end(self, game: GameRecord, announced: Side) -> None:
        """The game is over: the announced winner must be the one the rules give, for the
        player who could end it from the last position."""
        if not self.adapter.moves(self.position):  # the rival's move just typed ended it
            winner = self.adapter.winner(self.before, Side.RIVAL)
        elif self.to_move is Side.AI:
            winner = self.adapter.winner(self.position, Side.AI)
            ending = [m for m in self.adapter.moves(self.position) if self._ends(m)]
            game.moves.append(f"ai {self.adapter.format(ending[0])}" if ending else "ai ?")
        else:
            winner = None
        if winner is not announced:
            said = "the AI" if announced is Side.AI else "the rival"
            raise Unreadable(f"the program says {said} won, but the last board does not give that")
        game.winner = announced

    def _ends(self, move: Any) -> bool:
        return not self.adapter.moves(self.adapter.after(self.position, move))

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


# ------------------------------------------------------------------------------ the verdict


def judged(referee: Referee) -> TextComparison:
    """The expected outcome (the AI wins every game it could win) against what happened."""
    records, play = referee.records, referee.play
    unplayed = len(referee.sizes) - sum(1 for r in records if r.problem is None)
    counted = [r for r in records if r.problem is None and r.could_win]
    uncounted = sum(1 for r in records if r.problem is None and not r.could_win)
    could = len(counted) + unplayed
    won = sum(1 for r in counted if r.winner is Side.AI)
    head = f"{_count(len(referee.sizes), 'game')} ({play.describe()})\n"
    if uncounted:
        head += (
            f"not counted: {_count(uncounted, 'game')} in which the rival never left the AI a "
            "position it could win\n"
        )
    expected = head + f"won by the AI: {could} of the {could} it could win\n"
    actual = head + f"won by the AI: {won} of the {could} it could win\n"
    actual += "".join(_lost_lines(referee))
    comparison = compare_text(expected, actual)
    if comparison.difference is None:
        return comparison
    where = comparison.difference
    return TextComparison(
        expected, actual, Difference(where.offset, where.line, where.column, STEP)
    )


def _lost_lines(referee: Referee) -> Iterator[str]:
    """The games lost (the first :data:`LISTED`, then a count), the one that went wrong, and
    the games not played."""
    total = len(referee.sizes)
    lost = [r for r in referee.records if r.lost and r.problem is None]
    for record in lost[:LISTED]:
        yield f"game {record.number} of {total} ({_stones(record.size)}) lost: {_moves(record)}\n"
    if len(lost) > LISTED:
        yield f"… and {len(lost) - LISTED} more games lost\n"
    for record in referee.records:
        if record.problem is not None:
            yield f"game {record.number} of {total} ({_stones(record.size)}) went wrong: "
            yield f"{record.problem} (moves: {_moves(record)}); the play stopped there\n"
    if referee.stopped is not None:
        yield f"no game was played: {referee.stopped}\n"
    first, unplayed = len(referee.records) + 1, total - len(referee.records)
    if unplayed > 1:
        yield f"games {first} to {total} not played\n"
    elif unplayed == 1:
        yield f"game {total} not played\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _stones(size: int) -> str:
    return _count(size, "stone")


def _moves(record: GameRecord) -> str:
    return ", ".join(record.moves) or "no move"


# ----------------------------------------------------------------------------- playing


@dataclass(frozen=True)
class Played:
    """A play's outcome (the session as the runners report a run) and its verdict."""

    outcome: Outcome
    verdict: RunVerdict


def play_games(
    transcript: Transcript,
    runner: Runner,
    target: Target,
    cwd: Path,
    sandbox: Sandbox | None = None,
) -> Played:
    """Play ``transcript``'s games against ``target`` in ``cwd`` (its files already there)."""
    play = transcript.play
    assert play is not None
    referee = Referee(load_adapter(play.game, play.options), play, transcript.seed)
    limits = play_limits(play, transcript.step_timeout)
    job = Job(target, transcript.runs[0], cwd, transcript.seed, transcript.step_timeout, sandbox)
    if runner.name == "inproc":
        outcome = _in_process(runner, job, referee, limits)
    else:
        outcome = _live(runner.name, job, referee, limits)
    verdict = RunVerdict(
        output=judged(referee),
        stderr=None,
        exit_expected=None,
        exit_actual=outcome.exit,
        problem=outcome.problem or signal_problem(outcome.exit),
        unpinned_stderr=outcome.stderr,
        stderr_dropped=outcome.stderr_dropped,
    )
    return Played(outcome, verdict)


def _in_process(runner: Runner, job: Job, referee: Referee, limits: Limits) -> Outcome:
    """casino's own program called in this process: each line it reads is chosen then."""
    if job.target.external or not isinstance(runner, InProcessRunner):
        raise TargetError("the in-process runner runs casino's own programs only")
    main = runner.main_of(job.target.program)
    out = Capture(limits.output)

    def lines() -> Iterator[str]:
        seen = 0
        while True:
            end = out.tell()  # what was printed since the last line, read without a copy of all
            out.seek(seen)
            text = out.read()
            out.seek(end)
            line = referee.decide(text, blocked=True)
            if not isinstance(line, str):
                return
            seen = end
            yield line

    argv = [*seed_argv(job.seed), *job.run.argv]
    outcome = call_main(
        main, argv, lines(), cwd=job.cwd, timeout=job.timeout, stdout=out, limits=limits
    )
    referee.ended(outcome.problem or "the program ended")
    return outcome


def _live(name: str, job: Job, referee: Referee, limits: Limits) -> Outcome:
    """A separate program on a live pipe or terminal."""
    try:
        console = start(name, job, limits)
    except CannotStart as error:
        referee.ended(str(error))
        return Outcome(chunks=("",), problem=str(error))
    problem: str | None = None
    try:
        problem = _converse(console, referee, job.timeout)
    finally:
        status, stderr, dropped = console.finish(job.timeout)
    problem = problem or console.problem
    referee.ended(problem or _ended(status))
    return Outcome(
        (console.text,), stderr, None if problem else status, problem, stderr_dropped=dropped
    )


def _ended(status: int | None) -> str:
    return "the program ended" + (f" (exit status {status})" if status else "")


def _converse(console: LiveConsole, referee: Referee, timeout: float) -> str | None:
    """Answer each screen; why the program had to be stopped (``None``: it was not)."""
    since, bound = 0, _GameBound(timeout)
    while True:
        line = referee.decide(console.since(since), blocked=False)
        if line is None:
            return None
        if isinstance(line, Wait):
            if console.read(timeout):
                if (problem := bound.passed(referee, console.size)) is not None:
                    return problem
                continue
            if console.problem is not None or console.closed:
                return console.problem
            return f"timed out: waited {timeout:g} s for {referee.expecting()}; it was stopped"
        since = console.size
        bound.note(referee, since)
        console.send(line)


class _GameBound:
    """Each game's own bounds: ``timeout`` × (size + 2) seconds, :func:`game_output` bytes."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.number = 0
        self.started = 0.0
        self.start = 0

    def note(self, referee: Referee, offset: int) -> None:
        """A line is about to be typed at ``offset``: a new game starts the clock again."""
        game = referee.game
        if game is not None and game.number != self.number:
            self.number, self.started, self.start = game.number, time.monotonic(), offset

    def passed(self, referee: Referee, length: int) -> str | None:
        """Why the game in progress is stopped (``None``: it is within its bounds)."""
        game = referee.game
        if game is None or game.number != self.number:
            return None
        seconds = self.timeout * (game.size + 2)
        if time.monotonic() - self.started > seconds:
            return f"timed out: game {game.number} took more than {seconds:g} s; it was stopped"
        if length - self.start > game_output(game.size):
            return f"{flood_problem(game_output(game.size))} in game {game.number}"
        return None
