"""Transcripts as values: the frozen dataclasses a transcript is, and its closed vocabularies.

A transcript is a name, the program it drives, the files its working directory starts with,
and one or more runs; a run is the program's arguments and the steps of one session::

    name: adds two numbers          # required, one line
    program: demo                   # a casino program (see casino.programs)
    reference: casino               # optional: only casino's own program can pass it
    args: []
    seed: 7                         # optional: --seed 7 (CASINO_SEED=7 for --program)
    files: {demo.dat: "42\\n"}        # optional: name → text, or name → {fixture: path}
    steps:
      - out: "casino demo calculator (type help)\\n$ "
      - in: add 2 3
      - out_re: "2 \\\\+ 3 = \\\\d+\\n\\\\$ "
    exit: 0                         # optional: expected exit status (compared when given)
    stderr: ""                      # optional: exact expected stderr (compared when given)
    timeout: 10                     # optional: seconds a step may wait (default 10)
    points: 1                       # optional: weight for --score (default 1)
    visibility: hidden              # optional: visible (default), hidden or after-due

or ``runs:`` — a list of ``{args, steps, exit, stderr}`` — instead of ``args/steps/exit/stderr``;
or ``play:`` — games casino plays against the program live (:mod:`casino.harness.playspec`) —
instead of steps.
Keys that were absent stay ``None``, so a load → dump round trip writes back what was there.

A transcript is read and validated by :mod:`casino.harness.parse` (text) and
:mod:`casino.harness.load` (a file, with its folder's settings), and written back by
:mod:`casino.harness.dump`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from casino.errors import CasinoError
from casino.harness.names import MATCH_KINDS as MATCH_KINDS
from casino.harness.playspec import Play
from casino.harness.rubric import Facts, Grading, Rubric

DEFAULT_TIMEOUT = 10.0
DEFAULT_POINTS = 1.0


class TranscriptError(CasinoError):
    """A transcript that cannot be read or run; the message is one line naming the file."""


@dataclass(frozen=True, slots=True)
class Out:
    """Text the program prints, exactly."""

    text: str


@dataclass(frozen=True, slots=True)
class OutRe:
    """A chunk of output matched by a regular expression (for output random by nature)."""

    pattern: str


@dataclass(frozen=True, slots=True)
class OutAny:
    """Any one of several texts, each matched exactly as ``out`` is: where the assignment
    allows more than one output (either winning move, either hold), without a regex."""

    texts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class In:
    """One line typed to the program (sent followed by a newline)."""

    text: str


Step = Out | OutRe | OutAny | In
Output = Out | OutRe | OutAny
"""A step the program prints (every step but ``in``)."""
STEP_KEYS: dict[str, Callable[[Any], Step]] = {
    "out": Out,
    "out_re": OutRe,
    "out_any": lambda texts: OutAny(tuple(texts)),
    "in": In,
}
MAX_ALTERNATIVES = 1000
"""An ``out_any`` step lists at most this many texts."""


@dataclass(frozen=True)
class Segment:
    """The output steps before one typed line (the last segment of a run types nothing)."""

    outputs: tuple[Output, ...]
    line: In | None
    first: int
    """The 1-based number of the segment's first step (one past the end if it has none)."""


def segments(steps: tuple[Step, ...]) -> list[Segment]:
    """A run's steps as output-then-input segments: one per ``in`` step, plus the last."""
    result: list[Segment] = []
    outputs: list[Output] = []
    first = 1
    for number, step in enumerate(steps, 1):
        if isinstance(step, In):
            result.append(Segment(tuple(outputs), step, first))
            outputs, first = [], number + 1
        else:
            outputs.append(step)
    result.append(Segment(tuple(outputs), None, first))
    return result


@dataclass(frozen=True, slots=True)
class Inline:
    """A file's content written in the transcript itself."""

    text: str


@dataclass(frozen=True, slots=True)
class Fixture:
    """A file copied from ``path``, relative to the transcript's own directory."""

    path: str


@dataclass(frozen=True)
class Run:
    """One run of the program: its arguments, the session's steps, what it should end with."""

    steps: tuple[Step, ...]
    args: tuple[str, ...] | None = None
    exit: int | None = None
    stderr: str | None = None
    points: float | None = None
    """What this run is worth (stated in every run of a chain or in none)."""

    @property
    def argv(self) -> tuple[str, ...]:
        """The arguments (none when ``args`` was absent)."""
        return self.args or ()

    @property
    def inputs(self) -> list[str]:
        """The lines typed, in order."""
        return [step.text for step in self.steps if isinstance(step, In)]


@dataclass(frozen=True)
class Transcript:
    """A golden session: a program, its starting files and one or more runs, in order."""

    name: str
    runs: tuple[Run, ...]
    program: str | None = None
    reference: str | None = None
    """``casino`` when only casino's own program can pass the transcript (its private file
    formats, its random generator, its choices where the assignment is silent): skipped
    under ``--program``."""
    seed: int | None = None
    files: tuple[tuple[str, Inline | Fixture], ...] | None = None
    timeout: float | None = None
    points: float | None = None
    match: tuple[str, ...] | None = None
    """What the transcript allows besides exact output (:data:`MATCH_KINDS`); ``None``: as
    stated, it says nothing (a folder's ``casino.yaml`` may then say it)."""
    allowed: tuple[str, ...] = ()
    """What is allowed in the end: the transcript's ``match``, else its folder's."""
    visibility: str | None = None
    """What a student's feedback from ``casino grade`` shows of it (:data:`VISIBILITIES`);
    ``None``: as stated, it says nothing (a folder's ``casino.yaml`` may then say it)."""
    shown: str = "visible"
    """The visibility in the end: the transcript's, else its folder's, else ``visible``."""
    play: Play | None = None
    """Games casino plays against the program (``play:``; :mod:`casino.harness.playspec`):
    the transcript then has one run with no steps."""
    rubric: Rubric | None = None
    """How each run's points split between format and behaviour, as the transcript states
    it (``None``: it says nothing; its folder may)."""
    facts: Facts | None = None
    """What its behaviour is judged on, as the transcript states it."""
    grading: Grading | None = None
    """What it is graded by in the end: its own ``rubric``/``facts``, else its folder's
    (``None``: no rubric, every run all or nothing on the exact text)."""
    single: bool = True
    """Written in the single-run form (``steps`` at the top level) rather than ``runs:``."""
    path: Path | None = field(default=None, compare=False)

    @property
    def step_timeout(self) -> float:
        """Seconds a step may wait before the run is judged hung."""
        return DEFAULT_TIMEOUT if self.timeout is None else self.timeout

    @property
    def max_points(self) -> float:
        """What the transcript is worth under ``--score``: the sum of its runs' points when
        they state them, else its own ``points`` (default 1)."""
        if self.runs and all(run.points is not None for run in self.runs):
            return sum(run.points or 0.0 for run in self.runs)
        return DEFAULT_POINTS if self.points is None else self.points

    @property
    def run_points(self) -> tuple[float, ...]:
        """What each run is worth: its own ``points``, or an even share of the transcript's
        (exact, as a float: a run of three worth 1 is worth 1/3; reports round to 2 places)."""
        if self.runs and all(run.points is not None for run in self.runs):
            return tuple(run.points or 0.0 for run in self.runs)
        return tuple(self.max_points / len(self.runs) for _ in self.runs)

    def earned(self, credits: tuple[float, ...]) -> float:
        """The points the runs earned, each its share ``credits[i]`` (0 to 1; a run that
        passed: 1) of its points (all of them: exactly :attr:`max_points`)."""
        if all(credit >= 1 for credit in credits):
            return self.max_points
        if self.runs and all(run.points is not None for run in self.runs):
            return sum(p * c for p, c in zip(self.run_points, credits, strict=True))
        return self.max_points * sum(credits) / len(credits)

    def with_runs(self, runs: tuple[Run, ...]) -> Transcript:
        """The same transcript with other runs (used by ``--update``)."""
        return replace(self, runs=runs)


VISIBILITIES = ("visible", "hidden", "after-due")
"""``visibility``: whether a student's feedback shows the transcript's input and expected
output (``visible``), never does (``hidden``: its name and points only), or does once the
student's due has passed (``after-due``)."""
REFERENCES = ("casino",)
"""The values ``reference`` may take: whose program alone can pass the transcript."""


def step_key(step: Step) -> str:
    """The key a step is written with (``out``, ``out_re``, ``out_any``, ``in``)."""
    return {Out: "out", OutRe: "out_re", OutAny: "out_any", In: "in"}[type(step)]


def step_label(step: Step, number: int) -> str:
    """``step 4 (out)``: a step named the way reports name it."""
    return f"step {number} ({step_key(step)})"


def plain_number(value: float | None) -> int | float | None:
    """A number as a transcript writes it: ``3`` for 3.0, ``0.5`` as it is."""
    if value is None:
        return None
    return int(value) if value.is_integer() else value
