"""Transcripts as values: load and validate YAML into frozen dataclasses, and dump them back.

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

A transcript may come from anyone, so loading is bounded (the limits are the constants below):
a file of at most :data:`MAX_TRANSCRIPT_BYTES`, read only if it is a regular file; the YAML
rules of :mod:`casino.harness.yamltext` (no tags, anchors, aliases; bounded nesting); every
number checked for its digits before it is converted, then for its range; and every problem
is one :class:`TranscriptError` line naming the file and, when known, the line and column.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

from casino.errors import CasinoError
from casino.harness.playspec import Play, parse_play
from casino.harness.rubric import (
    EVERY_WORD_AND_NUMBER,
    Facts,
    Grading,
    Rubric,
    facts_data,
    parse_facts,
    parse_rubric,
    rubric_data,
)
from casino.harness.yamltext import FlowList, TextError, dump_text, load_text, position

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

MATCH_KINDS = ("trailing-space", "blank-lines", "case")
"""What a transcript, a folder or ``--match`` may allow besides exact output:
``trailing-space`` (spaces, tabs and ``\\r`` at the end of a line, and a missing or extra final
newline), ``blank-lines`` (empty lines added or left out) and ``case`` (letter case)."""


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


# ---------------------------------------------------------------------------------- loading

MAX_TRANSCRIPT_BYTES = 4 << 20
"""A transcript file is at most 4 MiB (casino's own are under 20 KB)."""
MAX_FIXTURE_BYTES = 16 << 20
"""A transcript's fixtures together are at most 16 MiB."""
MAX_DIGITS = 18
"""A number in a transcript has at most 18 digits (before conversion, so never a slow int())."""
TIMEOUT_RANGE = (0.001, 3600.0)
"""``timeout``: seconds, from a millisecond to an hour."""
POINTS_RANGE = (0.0, 1e6)
"""``points``: what a transcript is worth under ``--score``."""
EXIT_RANGE = (0, 255)
SEED_RANGE = (-(10**MAX_DIGITS) + 1, 10**MAX_DIGITS - 1)

_TOP_KEYS = {"name", "program", "args", "seed", "files", "steps", "runs", "exit", "stderr"}
_TOP_KEYS |= {"timeout", "points", "reference", "match", "visibility", "play"}
_TOP_KEYS |= {"rubric", "facts"}
VISIBILITIES = ("visible", "hidden", "after-due")
"""``visibility``: whether a student's feedback shows the transcript's input and expected
output (``visible``), never does (``hidden``: its name and points only), or does once the
student's due has passed (``after-due``)."""
REFERENCES = ("casino",)
"""The values ``reference`` may take: whose program alone can pass the transcript."""
_RUN_KEYS = ("args", "steps", "exit", "stderr", "points")
_WHOLE = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

T = TypeVar("T")
Where = tuple[int, int] | None
"""A 1-based line and column in the transcript's text, when known."""


class _Invalid(Exception):
    """A validation problem, before the file name (and where) is put in front of it."""

    def __init__(self, problem: str, where: Where = None) -> None:
        super().__init__(problem)
        self.where = where


class TooLarge(ValueError):
    """A file over the size :func:`read_capped` was allowed to read."""


def read_capped(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``; ``ValueError`` (one line) if it cannot be
    read, is not a regular file (a FIFO, a device such as ``/dev/zero``, a directory), or holds
    more than ``limit`` bytes (:class:`TooLarge`). Opening never blocks, and at most
    ``limit + 1`` bytes are read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise ValueError(error.strerror or str(error)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError("is a directory" if stat.S_ISDIR(mode) else "not a regular file")
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise ValueError(error.strerror or str(error)) from None
    if len(data) > limit:
        size = f"{limit >> 20} MiB" if limit % (1 << 20) == 0 else f"{limit} bytes"
        raise TooLarge(f"more than {size}")
    return data


def load_transcript(path: str | Path) -> Transcript:
    """Read and validate the transcript at ``path``; :class:`TranscriptError` if it is not one."""
    try:
        data = read_capped(path, MAX_TRANSCRIPT_BYTES)
    except ValueError as problem:
        raise TranscriptError(f"{path}: cannot read: {problem}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, start) + 1
        column = len(data[start : error.start].decode("utf-8", "replace")) + 1
        raise TranscriptError(f"{path}: line {line}, column {column}: not UTF-8 text") from None
    transcript = parse_transcript(text, Path(path))
    folder = folder_settings(Path(path))
    allowed = folder.match or () if transcript.match is None else transcript.match
    shown = transcript.visibility or folder.visibility or "visible"
    rubric = transcript.rubric or folder.rubric
    facts = transcript.facts or folder.facts or EVERY_WORD_AND_NUMBER
    grading = None if rubric is None else Grading(rubric, facts)
    return replace(transcript, allowed=allowed, shown=shown, grading=grading)


FOLDER_SETTINGS = "casino.yaml"
"""A folder's settings file (``match``, ``rubric``, ``facts``, ``visibility``, and the course
rubric's ``lines``, read by :mod:`casino.grade.lines`): never a transcript itself."""
SETTINGS_KEYS = ("match", "rubric", "facts", "visibility", "lines")


@dataclass(frozen=True)
class Settings:
    """What a folder's settings say (``None``: it says nothing of that)."""

    match: tuple[str, ...] | None = None
    rubric: Rubric | None = None
    facts: Facts | None = None
    visibility: str | None = None


def is_settings_file(path: Path) -> bool:
    """Whether ``path`` is a folder's settings file rather than a transcript."""
    return path.name == FOLDER_SETTINGS


def folder_match(path: Path) -> tuple[str, ...]:
    """What the nearest folder settings file above the transcript at ``path`` allows
    (:func:`folder_settings`); ``()`` when none says."""
    return folder_settings(path).match or ()


def folder_settings(path: Path) -> Settings:
    """What the folder settings files above the transcript at ``path`` say, each key from
    the nearest one that states it: its own folder's ``casino.yaml``, else its parent's, and
    so on up to the nearest folder named ``transcripts`` (only its own folder when it is in
    none)."""
    folders = [path.parent, *path.parent.parents]
    top = next((i for i, f in enumerate(folders) if f.name == "transcripts"), 0)
    found: dict[str, Any] = {}
    for folder in folders[: top + 1]:
        settings = folder / FOLDER_SETTINGS
        if settings.is_file():
            for key, value in vars(read_settings(settings)).items():
                if value is not None:
                    found.setdefault(key, value)
    return Settings(**found)


def _visibility_value(value: Any, where: str) -> str:
    if value not in VISIBILITIES:
        raise TranscriptError(
            f"{where}'visibility' must be one of {', '.join(VISIBILITIES)}, not {value!r}"
        )
    return str(value)


def read_settings(settings: Path) -> Settings:
    """What one settings file states (:class:`TranscriptError` naming it if it is not one)."""
    try:
        data = load_text(read_capped(settings, MAX_TRANSCRIPT_BYTES).decode("utf-8"))
    except (ValueError, TextError) as problem:
        raise TranscriptError(f"{settings}: {problem}") from None
    if not isinstance(data, dict) or set(data) - set(SETTINGS_KEYS):
        keys = ", ".join(SETTINGS_KEYS)
        raise TranscriptError(f"{settings}: a folder's settings file holds only {keys}")

    def error(key: str) -> Callable[[str], Exception]:
        where = _at(data, key)
        at = f"line {where[0]}, column {where[1]}: " if where else ""
        return lambda problem: TranscriptError(f"{settings}: {at}{problem}")

    return Settings(
        match_kinds(data["match"], error("match")) if "match" in data else None,
        parse_rubric(data["rubric"], error("rubric")) if "rubric" in data else None,
        parse_facts(data["facts"], error("facts")) if "facts" in data else None,
        _visibility_value(data["visibility"], f"{settings}: ") if "visibility" in data else None,
    )


def parse_transcript(text: str, path: Path) -> Transcript:
    """Validate YAML ``text`` as a transcript; errors name ``path``, where, and the step."""
    try:
        data = load_text(text)
    except TextError as error:
        raise TranscriptError(f"{path}: {error}") from None
    try:
        return _transcript(data, path)
    except _Invalid as problem:
        where = f"line {problem.where[0]}, column {problem.where[1]}: " if problem.where else ""
        raise TranscriptError(f"{path}: {where}{problem}") from None


def file_name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a file in the working directory (``None``: nothing).

    The one rule for ``files:`` names and ``casino record --fixture NAME=…``: a relative path
    that stays inside the directory (no ``..``, no ``\\``), names a file and holds no control
    character.
    """
    pure = PurePosixPath(name)
    if not name or pure.is_absolute() or ".." in pure.parts or "\\" in name or not pure.parts:
        return "must be a relative path inside the working directory"
    if _CONTROL.search(name):
        return "must not hold a control character"
    return None


def _transcript(data: Any, path: Path) -> Transcript:
    if not isinstance(data, dict):
        raise _Invalid("a transcript must be a mapping with name, program and steps (or runs)")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        expected = ", ".join(sorted(_TOP_KEYS))
        raise _Invalid(f"unknown key {unknown[0]!r} (expected {expected})", _at(data, unknown[0]))
    name = _text(data, "name", required=True)
    assert name is not None
    if "\n" in name or not name.strip():
        raise _Invalid("'name' must be one non-empty line", _at(data, "name"))
    single = "runs" not in data
    runs: tuple[Run, ...]
    play = _play(data)
    if play is not None:
        runs = (Run(steps=(), args=_args(data, data["args"]) if "args" in data else None),)
    elif single:
        runs = (_run(data),)
    else:
        clash = [key for key in _RUN_KEYS if key in data and key != "points"]
        if clash:
            problem = f"'{clash[0]}' belongs inside each run when 'runs' is used"
            raise _Invalid(problem, _at(data, clash[0]))
        runs = _runs(data, data["runs"])
        _check_run_points(data, runs)
    match = _match(data)
    rubric = _stated(data, "rubric", parse_rubric)
    facts = _stated(data, "facts", parse_facts)
    return Transcript(
        name=name,
        runs=runs,
        program=_one_word(data, "program"),
        reference=_reference(data),
        seed=_whole(data, "seed", SEED_RANGE),
        files=_files(data, data["files"]) if "files" in data else None,
        timeout=_number(data, "timeout", TIMEOUT_RANGE),
        points=_number(data, "points", POINTS_RANGE),
        match=match,
        allowed=match or (),
        visibility=_visibility(data),
        shown=_visibility(data) or "visible",
        play=play,
        rubric=rubric,
        facts=facts,
        grading=None if rubric is None else Grading(rubric, facts or EVERY_WORD_AND_NUMBER),
        single=single,
        path=path,
    )


def _check_run_points(data: dict[str, Any], runs: tuple[Run, ...]) -> None:
    """``points`` is stated in every run or in none, and then not for the whole as well."""
    stated = [run.points is not None for run in runs]
    if any(stated) and not all(stated):
        number = stated.index(False) + 1
        problem = f"run {number}: 'points' is missing (state it in every run or in none)"
        raise _Invalid(problem, _at(data["runs"], number - 1))
    if all(stated) and "points" in data:
        problem = "'points' is stated in every run: the transcript's own 'points' must go"
        raise _Invalid(problem, _at(data, "points"))


def _play(data: dict[str, Any]) -> Play | None:
    """``play:`` (games casino plays against the program), which takes the place of the steps."""
    if "play" not in data:
        return None
    clash = [key for key in ("steps", "runs", "exit", "stderr", "match") if key in data]
    if clash:
        raise _Invalid(f"'{clash[0]}' cannot go with 'play'", _at(data, clash[0]))
    try:
        return parse_play(data["play"])
    except ValueError as problem:
        raise _Invalid(str(problem), _at(data, "play")) from None


def _match(data: dict[str, Any]) -> tuple[str, ...] | None:
    """``match: [trailing-space, …]``: kinds from :data:`MATCH_KINDS`, each once."""
    if "match" not in data:
        return None
    return match_kinds(data["match"], lambda problem: _Invalid(problem, _at(data, "match")))


def match_kinds(value: Any, error: Callable[[str], Exception]) -> tuple[str, ...]:
    """``value`` (a list of kinds, or one kind) as kinds of :data:`MATCH_KINDS`, in their
    documented order; ``error(problem)`` is raised if it is not that."""
    items = [value] if isinstance(value, str) else value
    kinds = ", ".join(MATCH_KINDS)
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise error(f"'match' must be a list of {kinds}")
    for item in items:
        if item not in MATCH_KINDS:
            raise error(f"'match' must be a list of {kinds}, not {item!r}")
    return tuple(kind for kind in MATCH_KINDS if kind in items)


def _visibility(data: dict[str, Any]) -> str | None:
    """``visibility: visible | hidden | after-due``."""
    value = _text(data, "visibility")
    if value is not None and value not in VISIBILITIES:
        problem = f"'visibility' must be one of {', '.join(VISIBILITIES)}, not {value!r}"
        raise _Invalid(problem, _at(data, "visibility"))
    return value


def _stated(
    data: dict[str, Any], key: str, parse: Callable[[Any, Callable[[str], Exception]], T]
) -> T | None:
    """``data[key]`` parsed, if stated (``rubric``, ``facts``)."""
    if key not in data:
        return None
    return parse(data[key], lambda problem: _Invalid(problem, _at(data, key)))


def _reference(data: dict[str, Any]) -> str | None:
    value = _text(data, "reference")
    if value is not None and value not in REFERENCES:
        problem = f"'reference' must be one of {', '.join(REFERENCES)}, not {value!r}"
        raise _Invalid(problem, _at(data, "reference"))
    return value


def _at(container: Any, key: Any) -> Where:
    return position(container, key)


def _runs(data: dict[str, Any], value: Any) -> tuple[Run, ...]:
    if not isinstance(value, list) or not value:
        raise _Invalid("'runs' must be a non-empty list of runs", _at(data, "runs"))
    runs = []
    for number, item in enumerate(value, 1):
        try:
            if not isinstance(item, dict):
                raise _Invalid("must be a mapping with args, steps, exit, stderr")
            unknown = sorted(set(item) - set(_RUN_KEYS))
            if unknown:
                expected = ", ".join(_RUN_KEYS)
                problem = f"unknown key {unknown[0]!r} (expected {expected})"
                raise _Invalid(problem, _at(item, unknown[0]))
            runs.append(_run(item, points=True))
        except _Invalid as problem:
            where = problem.where or _at(value, number - 1)
            raise _Invalid(f"run {number}: {problem}", where) from None
    return tuple(runs)


def _run(data: dict[str, Any], *, points: bool = False) -> Run:
    if "steps" not in data:
        raise _Invalid("'steps' is missing (a list of out/out_re/out_any/in steps; may be empty)")
    return Run(
        steps=_steps(data, data["steps"]),
        args=_args(data, data["args"]) if "args" in data else None,
        exit=_whole(data, "exit", EXIT_RANGE),
        stderr=_text(data, "stderr"),
        points=_number(data, "points", POINTS_RANGE) if points else None,
    )


def _steps(data: dict[str, Any], value: Any) -> tuple[Step, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, list):
        raise _Invalid("'steps' must be a list", _at(data, "steps"))
    return tuple(_step(value, index) for index in range(len(value)))


def _step(steps: list[Any], index: int) -> Step:
    item, number, keys = steps[index], index + 1, ", ".join(STEP_KEYS)
    where = _at(steps, index)
    if not isinstance(item, dict) or len(item) != 1:
        raise _Invalid(f"step {number}: must be a mapping with exactly one of {keys}", where)
    ((key, value),) = item.items()
    if key not in STEP_KEYS:
        raise _Invalid(f"step {number}: unknown step {key!r} (expected one of {keys})", where)
    if key == "out_any":
        return _out_any(value, number, where)
    if not isinstance(value, str):
        raise _Invalid(f"step {number}: {key!r} must be a string", where)
    if key == "in" and ("\n" in value or "\r" in value):
        raise _Invalid(f"step {number}: 'in' must be one line (one step per line typed)", where)
    if key == "out_re":
        try:
            re.compile(value)
        except (re.error, RecursionError, OverflowError, ValueError) as error:
            problem = f"step {number}: 'out_re' is not a valid regex: {error}"
            raise _Invalid(problem, where) from None
    return STEP_KEYS[key](value)


def _out_any(value: Any, number: int, where: Where) -> OutAny:
    """``out_any: [text, …]``: at least two texts (strings), each once, at most
    :data:`MAX_ALTERNATIVES`."""
    if (
        not isinstance(value, list)
        or len(value) < 2
        or not all(isinstance(text, str) for text in value)
    ):
        problem = f"step {number}: 'out_any' must be a list of two or more strings"
        raise _Invalid(problem, where)
    if len(value) > MAX_ALTERNATIVES:
        problem = f"step {number}: 'out_any' lists more than {MAX_ALTERNATIVES} texts"
        raise _Invalid(problem, where)
    if len(set(value)) < len(value):
        problem = f"step {number}: 'out_any' lists a text twice"
        raise _Invalid(problem, where)
    return OutAny(tuple(value))


def _args(data: dict[str, Any], value: Any) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, list) or not all(isinstance(arg, str) for arg in value):
        raise _Invalid("'args' must be a list of strings", _at(data, "args"))
    if any("\0" in arg for arg in value):
        problem = "'args' must not hold a NUL character (no program can get one)"
        raise _Invalid(problem, _at(data, "args"))
    return tuple(value)


def _files(data: dict[str, Any], value: Any) -> tuple[tuple[str, Inline | Fixture], ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, dict):
        raise _Invalid(
            "'files' must map file names to text or to {fixture: path}", _at(data, "files")
        )
    return tuple(_file(value, name) for name in value)


def _file(files: dict[str, Any], name: str) -> tuple[str, Inline | Fixture]:
    problem = file_name_problem(name)
    if problem:
        raise _Invalid(f"files: {name!r} {problem}", _at(files, name))
    content = files[name]
    if isinstance(content, str):
        return name, Inline(content)
    if isinstance(content, dict) and set(content) == {"fixture"}:
        fixture = content["fixture"]
        if isinstance(fixture, str) and fixture and "\0" not in fixture:
            if PurePosixPath(fixture).is_absolute():
                problem = f"files: {name!r}: a fixture is a path relative to the transcript"
                raise _Invalid(f"{problem}, not {fixture!r}", _at(files, name))
            return name, Fixture(fixture)
    raise _Invalid(f"files: {name!r} must be text or {{fixture: path}}", _at(files, name))


def _text(data: dict[str, Any], key: str, *, required: bool = False) -> str | None:
    if key not in data:
        if required:
            raise _Invalid(f"{key!r} is missing")
        return None
    value = data[key]
    if not isinstance(value, str):
        raise _Invalid(f"{key!r} must be a string", _at(data, key))
    return value


def _one_word(data: dict[str, Any], key: str) -> str | None:
    value = _text(data, key)
    if value is not None and _CONTROL.search(value):
        raise _Invalid(f"{key!r} must not hold a control character", _at(data, key))
    return value


def _whole(data: dict[str, Any], key: str, bounds: tuple[int, int]) -> int | None:
    if key not in data:
        return None
    value, (low, high) = data[key], bounds
    if (
        not isinstance(value, str)
        or len(value.lstrip("-")) > MAX_DIGITS
        or not _WHOLE.fullmatch(value)
        or not low <= int(value) <= high
    ):
        raise _Invalid(f"{key!r} must be a whole number from {low} to {high}", _at(data, key))
    return int(value)


def _number(data: dict[str, Any], key: str, bounds: tuple[float, float]) -> float | None:
    if key not in data:
        return None
    value, (low, high) = data[key], bounds
    if (
        not isinstance(value, str)
        or len(value) > MAX_DIGITS
        or not _NUMBER.fullmatch(value)
        or not low <= float(value) <= high
    ):
        problem = f"{key!r} must be a number from {_plain_number(low)} to {_plain_number(high)}"
        raise _Invalid(problem, _at(data, key))
    return float(value)


# ---------------------------------------------------------------------------------- dumping


def dump_transcript(transcript: Transcript) -> str:
    """The transcript as YAML, keys in the documented order, text kept exact."""
    data: dict[str, Any] = {"name": transcript.name}
    if transcript.program is not None:
        data["program"] = transcript.program
    _put(data, "reference", transcript.reference)
    run_data = [_run_data(run) for run in transcript.runs]
    if transcript.single:
        first = run_data[0]
        if "args" in first:
            data["args"] = first.pop("args")
    _put(data, "seed", transcript.seed)
    if transcript.files is not None:
        data["files"] = {name: _content_data(content) for name, content in transcript.files}
    if transcript.play is not None:
        data["play"] = _play_data(transcript.play)
    elif transcript.single:
        data.update(run_data[0])
    else:
        data["runs"] = run_data
    _put(data, "timeout", _plain_number(transcript.timeout))
    _put(data, "points", _plain_number(transcript.points))
    _put(data, "match", None if transcript.match is None else list(transcript.match))
    _put(data, "visibility", transcript.visibility)
    _put(data, "rubric", None if transcript.rubric is None else rubric_data(transcript.rubric))
    _put(data, "facts", None if transcript.facts is None else facts_data(transcript.facts))
    return dump_text(data)


def _play_data(play: Play) -> dict[str, Any]:
    data = play.to_data()
    if isinstance(data["stones"], list):
        flow: list[Any] = FlowList()  # on one line: stones: [3, 5, 7]
        flow.extend(data["stones"])
        data["stones"] = flow
    return data


def _run_data(run: Run) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if run.args is not None:
        data["args"] = FlowList(run.args)
    data["steps"] = [{_key(step): _value(step)} for step in run.steps]
    _put(data, "exit", run.exit)
    _put(data, "stderr", run.stderr)
    _put(data, "points", _plain_number(run.points))
    return data


def _key(step: Step) -> str:
    return {Out: "out", OutRe: "out_re", OutAny: "out_any", In: "in"}[type(step)]


def _value(step: Step) -> str | list[str]:
    if isinstance(step, OutAny):
        return list(step.texts)
    return step.pattern if isinstance(step, OutRe) else step.text


def _content_data(content: Inline | Fixture) -> str | dict[str, str]:
    return content.text if isinstance(content, Inline) else {"fixture": content.path}


def _plain_number(value: float | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if value.is_integer() else value


def _put(data: dict[str, Any], key: str, value: object) -> None:
    if value is not None:
        data[key] = value


def step_label(step: Step, number: int) -> str:
    """``step 4 (out)``: a step named the way reports name it."""
    return f"step {number} ({_key(step)})"
