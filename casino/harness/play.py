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
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from time import monotonic
from typing import Any

from casino.duel import GameAdapter, Screen, Side, Unreadable
from casino.harness.diff import RunVerdict
from casino.harness.matching import Difference, TextComparison, compare_text
from casino.harness.model import Transcript
from casino.harness.playspec import ADAPTERS, Play
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
from casino.harness.runners.live import CannotStart, LiveConsole, start
from casino.harness.runners.sandbox import Sandbox
from casino.numbers import quoted

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
