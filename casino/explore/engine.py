"""The explore loop: generate sessions, judge the program on each, shrink the first that
differs; within a budget of program runs and seconds, and interruptible.

Sessions come from one ``random.Random(seed)``; the first ones are short and they grow
(``size`` = 8 + the session's number / 2, at most :data:`MAX_SIZE`: longer sessions
find a bug in fewer runs of a slow program, and shrinking takes them apart in a logarithmic
number of runs), so a bug that a short
session shows is found on a short session. A session the reference does not accept is
skipped without running the program. Everything is deterministic from the seed, but where a
budget in seconds cuts it short.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from casino.explore.judge import Program, differs, judge, reference_transcript
from casino.explore.plan import Grammar, Rendered, Session
from casino.explore.shrink import shrink
from casino.harness.model import Transcript
from casino.harness.session import Status, TranscriptResult

MAX_SIZE = 24
"""The most commands a generated run has."""


class OutOfBudget(Exception):
    """The budget (runs or seconds) is spent."""


class CannotRun(Exception):
    """The program cannot be run at all (the harness's ``ERROR``); the message says why."""


@dataclass(frozen=True)
class Budget:
    """How much exploring may cost: program runs and seconds (``None``: no bound)."""

    runs: int | None = None
    seconds: float | None = None


@dataclass
class Found:
    """A session on which the program differs: as found, then as shrunk."""

    session: Session
    transcript: Transcript
    result: TranscriptResult
    number: int
    """Which generated session it was (1-based)."""
    find_runs: int
    find_seconds: float
    shrink_runs: int = 0
    shrink_seconds: float = 0.0
    shrunk: bool = False
    """Whether shrinking ran to its end (a budget or Ctrl-C may stop it early)."""

    @property
    def lines(self) -> int:
        """Input lines typed in the (shrunk) transcript; for a program that reads files
        instead (video poker's cmd-file), the commands in them."""
        typed = sum(len(run.inputs) for run in self.transcript.runs)
        return typed or self.session.size[0]


def sessions(grammar: Grammar, seed: int) -> Iterator[Session]:
    """The sessions explore tries, in order: endless, deterministic from ``seed``."""
    rng = random.Random(seed)
    number = 0
    while True:
        number += 1
        yield grammar.generate(rng, min(MAX_SIZE, 8 + number // 2))


@dataclass
class Explorer:
    """Explores one program against one grammar's reference."""

    grammar: Grammar
    program: Program
    budget: Budget = field(default_factory=Budget)
    progress: Callable[[str], None] | None = None
    clock: Callable[[], float] = time.monotonic
    runs: int = 0
    """Program runs so far."""
    tried: int = 0
    """Sessions the program was judged on."""
    started: float = 0.0
    name: str = "explored session"
    _cache: dict[Rendered, bool] = field(default_factory=dict)
    """Whether the program differed, by what it was given (arguments, lines, files)."""
    best: Found | None = None

    def __post_init__(self) -> None:
        self.started = self.clock()

    @property
    def seconds(self) -> float:
        """Seconds since the explorer started."""
        return self.clock() - self.started

    def _spend(self, runs: int) -> None:
        spent = self.budget.runs is not None and self.runs + runs > self.budget.runs
        if spent or (self.budget.seconds is not None and self.seconds >= self.budget.seconds):
            raise OutOfBudget
        self.runs += runs

    def _judge(self, transcript: Transcript) -> TranscriptResult:
        self._spend(len(transcript.runs))
        result = judge(transcript, self.program)
        if result.status is Status.ERROR:
            raise CannotRun(result.error or "the program cannot be run")
        for verdict in result.verdicts:
            if verdict.problem and verdict.problem.startswith("cannot start"):
                raise CannotRun(verdict.problem)
        return result

    def find(self, seed: int, count: int) -> Found | None:
        """The first of ``count`` sessions on which the program differs (``None``: none,
        or the budget ran out first)."""
        last_note = self.clock()
        for number, session in enumerate(sessions(self.grammar, seed), 1):
            if number > count:
                return None
            transcript = reference_transcript(self.grammar, session, self.name)
            if transcript is None:
                continue
            try:
                result = self._judge(transcript)
            except OutOfBudget:
                return None
            self.tried += 1
            if differs(result):
                found = Found(session, transcript, result, number, self.runs, self.seconds)
                self.best = found
                return found
            if self.progress and self.clock() - last_note >= 2:
                last_note = self.clock()
                self._note(f"{self.tried} sessions, no difference yet")
        return None

    def shrink(self, found: Found) -> Found:
        """``found`` shrunk (as far as the budget lets; :attr:`best` is kept up to date, so a
        Ctrl-C keeps the smallest session so far)."""
        runs, started = self.runs, self.seconds
        self._note(f"session {found.number} differs ({found.lines} lines); shrinking")

        def still_fails(candidate: Session) -> bool:
            cache_key = self.grammar.render(candidate)
            if cache_key in self._cache:
                return self._cache[cache_key]
            transcript = reference_transcript(self.grammar, candidate, self.name)
            fails = False
            if transcript is not None:
                result = self._judge(transcript)
                fails = differs(result)
                if fails and self.best is not None:
                    self.best.session, self.best.transcript = candidate, transcript
                    self.best.result = result
            self._cache[cache_key] = fails
            return fails

        try:
            shrink(self.grammar, found.session, still_fails)
            found.shrunk = True
        except OutOfBudget:
            self._note("the budget ran out while shrinking: the smallest session so far is kept")
        finally:
            found.shrink_runs = self.runs - runs
            found.shrink_seconds = self.seconds - started
        return found

    def _note(self, text: str) -> None:
        if self.progress:
            self.progress(f"casino explore: {text} ({self.runs} runs, {self.seconds:.1f} s)")
