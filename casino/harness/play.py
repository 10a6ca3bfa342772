"""Games casino plays against a program, live, through the program's own console.

A transcript with a ``play:`` block (:mod:`casino.harness.playspec`) is not a session to compare:
casino plays the rival's side of real games against the program's AI and judges who won. The game
is known through its adapter (:class:`casino.duel.GameAdapter`, by name in
:data:`~casino.harness.playspec.ADAPTERS`); everything else is here and the same for every game:

1. casino types the adapter's opening lines, one at each command prompt;
2. for each game (each size in ``stones``, ``games`` times): the line that starts it, then, each
   time the program waits for the rival's move, the move casino chooses
   (:func:`casino.harness.referee.choose`) from the last board the program showed;
3. the closing lines, then end of input.

**The rival and the referee** (the moves casino chooses, what every board is checked for) are
:mod:`casino.harness.referee`'s.

**The verdict** is on the outcome, not the text: the AI must win every game it *could* win —
every game in which it was, at some turn, in a position from which it can force a win. (Moving
first in the advanced game, that is every game; moving second against a rival that never errs,
none: such games are counted apart, not against it.) One game lost is a failure, as the course's
tester gives a case's marks "only if your AI winning ratio is 100%". The report says which games
were lost and how (every move).

**Bounds**, as for every run: each step — the opening's first prompt, each line typed until
the screen that asks for the next one (a command prompt, the rival's turn) — at most the
transcript's step ``timeout`` in all, however the output trickles in; each game at most
``timeout`` × (its size + 2) seconds and :func:`game_output` bytes; the whole play the sum of
these (and its opening and closing), and never more than :data:`PLAY_SECONDS_MAX` (5
minutes). It runs on the pipe and pty runners as a live console
(:mod:`casino.harness.runners.live`, the same command, sandbox and containment), and in-process
for casino's own programs (the program asks for each line, casino answers from what it has
printed).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Any

from casino.duel import GameAdapter, Side
from casino.harness.diff import RunVerdict
from casino.harness.matching import Difference, TextComparison, compare_text
from casino.harness.model import Transcript
from casino.harness.playspec import ADAPTERS, Play
from casino.harness.referee import GameRecord, Referee, Wait
from casino.harness.runners.base import (
    STDERR_KEPT,
    STDERR_MARGIN,
    Job,
    Limits,
    Outcome,
    Runner,
    RunnerName,
    Target,
    TargetError,
    flood_problem,
    seed_argv,
    timed_out,
)
from casino.harness.runners.inproc import Capture, InProcessRunner, call_main

if TYPE_CHECKING:  # a live console (pexpect's terminal) and the sandbox: when a game runs
    from casino.harness.runners.live import LiveConsole
    from casino.harness.runners.sandbox import Sandbox

GAME_OUTPUT_BASE = 4096
"""Bytes every game may print, whatever its size."""
GAME_OUTPUT_PER_SQUARE = 16
"""…plus this many per (size + 2)²: a board per move, each as long as the size."""
PLAY_OUTPUT_MAX = 16 << 20
"""Bytes a whole play may print at most, however many games it has."""
PLAY_SECONDS_MAX = 300.0
"""Seconds a whole play may take at most (5 minutes), however many games it has: the shipped
bonus cases (110 games each) take about a second against casino's Nimsys or a Java one, so an
honest program is hundreds of times inside it, and a student's three cases cost at most 15
minutes of a grading machine (before this bound: 2 h 27 min each, the sum of its games')."""
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
    """The whole play's limits: the sum of its games' (and a margin for opening and closing),
    and never more than :data:`PLAY_SECONDS_MAX` seconds or :data:`PLAY_OUTPUT_MAX` bytes."""
    sizes = [size for size in play.sizes for _ in range(play.games)]
    return Limits(
        output=min(sum(map(game_output, sizes)) + GAME_OUTPUT_BASE, PLAY_OUTPUT_MAX),
        stderr_kept=STDERR_KEPT,
        stderr=STDERR_MARGIN,
        seconds=min(timeout * (sum(size + 2 for size in sizes) + 4), PLAY_SECONDS_MAX),
    )


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
    if runner.name is RunnerName.INPROC:
        outcome = _in_process(runner, job, referee, limits)
    else:
        outcome = _live(runner.name, job, referee, limits)
    return Played(outcome, RunVerdict.of(outcome, judged(referee)))


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


def _live(name: RunnerName, job: Job, referee: Referee, limits: Limits) -> Outcome:
    """A separate program on a live pipe or terminal."""
    from casino.harness.runners.live import CannotStart, start

    try:
        console = start(name, job, limits)
    except CannotStart as error:
        referee.ended(error.problem)
        return Outcome(chunks=("",), problem=error.problem)
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


def _converse(
    console: LiveConsole, referee: Referee, timeout: float, clock: Callable[[], float] = monotonic
) -> str | None:
    """Answer each screen; why the program had to be stopped (``None``: it was not).

    Each step — from the start, or from a line typed, to the screen that asks for the next
    line — has ``timeout`` seconds in all, however the program spreads its output over them
    (a byte every few seconds does not earn more time)."""
    since, bound = 0, _GameBound(timeout, clock)
    deadline = clock() + timeout
    while True:
        line = referee.decide(console.since(since), blocked=False)
        if line is None:
            return None
        if isinstance(line, Wait):
            left = deadline - clock()
            if left > 0 and console.read(left):
                if (problem := bound.passed(referee, console.size)) is not None:
                    return problem
                continue
            if console.problem is not None or console.closed:
                return console.problem
            return timed_out(
                f"timed out: waited {timeout:g} s for {referee.expecting()}; it was stopped"
            )
        since = console.size
        bound.note(referee, since)
        console.send(line)
        deadline = clock() + timeout


class _GameBound:
    """Each game's own bounds: ``timeout`` × (size + 2) seconds, :func:`game_output` bytes."""

    def __init__(self, timeout: float, clock: Callable[[], float] = monotonic) -> None:
        self.timeout = timeout
        self.clock = clock
        self.number = 0
        self.started = 0.0
        self.start = 0

    def note(self, referee: Referee, offset: int) -> None:
        """A line is about to be typed at ``offset``: a new game starts the clock again."""
        game = referee.game
        if game is not None and game.number != self.number:
            self.number, self.started, self.start = game.number, self.clock(), offset

    def passed(self, referee: Referee, length: int) -> str | None:
        """Why the game in progress is stopped (``None``: it is within its bounds)."""
        game = referee.game
        if game is None or game.number != self.number:
            return None
        seconds = self.timeout * (game.size + 2)
        if self.clock() - self.started > seconds:
            return timed_out(
                f"timed out: game {game.number} took more than {seconds:g} s; it was stopped"
            )
        if length - self.start > game_output(game.size):
            return flood_problem(game_output(game.size), where=f" in game {game.number}")
        return None
