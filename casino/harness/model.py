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

or ``runs:`` — a list of ``{args, steps, exit, stderr}`` — instead of ``args/steps/exit/stderr``.
Keys that were absent stay ``None``, so a load → dump round trip writes back what was there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from casino.errors import CasinoError
from casino.harness.yamltext import FlowList, dump_text, load_text

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
class In:
    """One line typed to the program (sent followed by a newline)."""

    text: str


Step = Out | OutRe | In
STEP_KEYS: dict[str, Callable[[str], Step]] = {"out": Out, "out_re": OutRe, "in": In}


@dataclass(frozen=True)
class Segment:
    """The output steps before one typed line (the last segment of a run types nothing)."""

    outputs: tuple[Out | OutRe, ...]
    line: In | None
    first: int
    """The 1-based number of the segment's first step (one past the end if it has none)."""


def segments(steps: tuple[Step, ...]) -> list[Segment]:
    """A run's steps as output-then-input segments: one per ``in`` step, plus the last."""
    result: list[Segment] = []
    outputs: list[Out | OutRe] = []
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
    single: bool = True
    """Written in the single-run form (``steps`` at the top level) rather than ``runs:``."""
    path: Path | None = field(default=None, compare=False)

    @property
    def step_timeout(self) -> float:
        """Seconds a step may wait before the run is judged hung."""
        return DEFAULT_TIMEOUT if self.timeout is None else self.timeout

    @property
    def max_points(self) -> float:
        """What the transcript is worth under ``--score``."""
        return DEFAULT_POINTS if self.points is None else self.points

    def with_runs(self, runs: tuple[Run, ...]) -> Transcript:
        """The same transcript with other runs (used by ``--update``)."""
        return replace(self, runs=runs)


# ---------------------------------------------------------------------------------- loading

_TOP_KEYS = {"name", "program", "args", "seed", "files", "steps", "runs", "exit", "stderr"}
_TOP_KEYS |= {"timeout", "points", "reference"}
REFERENCES = ("casino",)
"""The values ``reference`` may take: whose program alone can pass the transcript."""
_RUN_KEYS = ("args", "steps", "exit", "stderr")
_WHOLE = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


class _Invalid(Exception):
    """A validation problem, before the file name is put in front of it."""


def load_transcript(path: str | Path) -> Transcript:
    """Read and validate the transcript at ``path``; :class:`TranscriptError` if it is not one."""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as error:
        raise TranscriptError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise TranscriptError(f"{path}: not UTF-8 text") from None
    return parse_transcript(text, Path(path))


def parse_transcript(text: str, path: Path) -> Transcript:
    """Validate YAML ``text`` as a transcript; errors name ``path`` and the step."""
    try:
        data = load_text(text)
    except yaml.YAMLError as error:
        raise TranscriptError(f"{path}: {_yaml_problem(error)}") from None
    try:
        return _transcript(data, path)
    except _Invalid as problem:
        raise TranscriptError(f"{path}: {problem}") from None


def _yaml_problem(error: yaml.YAMLError) -> str:
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or "not valid YAML"
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
    return f"{where}not valid YAML: {problem}"


def _transcript(data: Any, path: Path) -> Transcript:
    if not isinstance(data, dict):
        raise _Invalid("a transcript must be a mapping with name, program and steps (or runs)")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise _Invalid(f"unknown key {unknown[0]!r} (expected {', '.join(sorted(_TOP_KEYS))})")
    name = _text(data, "name", required=True)
    assert name is not None
    if "\n" in name or not name.strip():
        raise _Invalid("'name' must be one non-empty line")
    single = "runs" not in data
    runs: tuple[Run, ...]
    if single:
        runs = (_run(data),)
    else:
        clash = [key for key in _RUN_KEYS if key in data]
        if clash:
            raise _Invalid(f"'{clash[0]}' belongs inside each run when 'runs' is used")
        runs = _runs(data["runs"])
    return Transcript(
        name=name,
        runs=runs,
        program=_text(data, "program"),
        reference=_reference(data),
        seed=_whole(data, "seed"),
        files=_files(data.get("files")) if "files" in data else None,
        timeout=_positive(data, "timeout", allow_zero=False),
        points=_positive(data, "points", allow_zero=True),
        single=single,
        path=path,
    )


def _reference(data: dict[str, Any]) -> str | None:
    value = _text(data, "reference")
    if value is not None and value not in REFERENCES:
        raise _Invalid(f"'reference' must be one of {', '.join(REFERENCES)}, not {value!r}")
    return value


def _runs(value: Any) -> tuple[Run, ...]:
    if not isinstance(value, list) or not value:
        raise _Invalid("'runs' must be a non-empty list of runs")
    runs = []
    for number, item in enumerate(value, 1):
        try:
            if not isinstance(item, dict):
                raise _Invalid("must be a mapping with args, steps, exit, stderr")
            unknown = sorted(set(item) - set(_RUN_KEYS))
            if unknown:
                raise _Invalid(f"unknown key {unknown[0]!r} (expected {', '.join(_RUN_KEYS)})")
            runs.append(_run(item))
        except _Invalid as problem:
            raise _Invalid(f"run {number}: {problem}") from None
    return tuple(runs)


def _run(data: dict[str, Any]) -> Run:
    if "steps" not in data:
        raise _Invalid("'steps' is missing (a list of out/out_re/in steps; may be empty)")
    return Run(
        steps=_steps(data["steps"]),
        args=_args(data["args"]) if "args" in data else None,
        exit=_whole(data, "exit"),
        stderr=_text(data, "stderr"),
    )


def _steps(value: Any) -> tuple[Step, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, list):
        raise _Invalid("'steps' must be a list")
    return tuple(_step(item, number) for number, item in enumerate(value, 1))


def _step(item: Any, number: int) -> Step:
    keys = ", ".join(STEP_KEYS)
    if not isinstance(item, dict) or len(item) != 1:
        raise _Invalid(f"step {number}: must be a mapping with exactly one of {keys}")
    ((key, value),) = item.items()
    if key not in STEP_KEYS:
        raise _Invalid(f"step {number}: unknown step {key!r} (expected one of {keys})")
    if not isinstance(value, str):
        raise _Invalid(f"step {number}: {key!r} must be a string")
    if key == "in" and ("\n" in value or "\r" in value):
        raise _Invalid(f"step {number}: 'in' must be one line (one step per line typed)")
    if key == "out_re":
        try:
            re.compile(value)
        except re.error as error:
            raise _Invalid(f"step {number}: 'out_re' is not a valid regex: {error}") from None
    return STEP_KEYS[key](value)


def _args(value: Any) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, list) or not all(isinstance(arg, str) for arg in value):
        raise _Invalid("'args' must be a list of strings")
    return tuple(value)


def _files(value: Any) -> tuple[tuple[str, Inline | Fixture], ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, dict):
        raise _Invalid("'files' must map file names to text or to {fixture: path}")
    return tuple((_file_name(name), _file_content(name, text)) for name, text in value.items())


def _file_name(name: str) -> str:
    pure = PurePosixPath(name)
    if not name or pure.is_absolute() or ".." in pure.parts or "\\" in name:
        raise _Invalid(f"files: {name!r} must be a relative path inside the working directory")
    return name


def _file_content(name: str, content: Any) -> Inline | Fixture:
    if isinstance(content, str):
        return Inline(content)
    if isinstance(content, dict) and set(content) == {"fixture"}:
        fixture = content["fixture"]
        if isinstance(fixture, str) and fixture:
            return Fixture(fixture)
    raise _Invalid(f"files: {name!r} must be text or {{fixture: path}}")


def _text(data: dict[str, Any], key: str, *, required: bool = False) -> str | None:
    if key not in data:
        if required:
            raise _Invalid(f"{key!r} is missing")
        return None
    value = data[key]
    if not isinstance(value, str):
        raise _Invalid(f"{key!r} must be a string")
    return value


def _whole(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if key not in data:
        return None
    if not isinstance(value, str) or not _WHOLE.fullmatch(value):
        raise _Invalid(f"{key!r} must be a whole number")
    return int(value)


def _positive(data: dict[str, Any], key: str, *, allow_zero: bool) -> float | None:
    value = data.get(key)
    if key not in data:
        return None
    if not isinstance(value, str) or not _NUMBER.fullmatch(value):
        raise _Invalid(f"{key!r} must be a number")
    number = float(value)
    if number == 0 and not allow_zero:
        raise _Invalid(f"{key!r} must be more than 0")
    return number


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
    if transcript.single:
        data.update(run_data[0])
    else:
        data["runs"] = run_data
    _put(data, "timeout", _number(transcript.timeout))
    _put(data, "points", _number(transcript.points))
    return dump_text(data)


def _run_data(run: Run) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if run.args is not None:
        data["args"] = FlowList(run.args)
    data["steps"] = [{_key(step): _value(step)} for step in run.steps]
    _put(data, "exit", run.exit)
    _put(data, "stderr", run.stderr)
    return data


def _key(step: Step) -> str:
    return {Out: "out", OutRe: "out_re", In: "in"}[type(step)]


def _value(step: Step) -> str:
    return step.pattern if isinstance(step, OutRe) else step.text


def _content_data(content: Inline | Fixture) -> str | dict[str, str]:
    return content.text if isinstance(content, Inline) else {"fixture": content.path}


def _number(value: float | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if value.is_integer() else value


def _put(data: dict[str, Any], key: str, value: object) -> None:
    if value is not None:
        data[key] = value


def step_label(step: Step, number: int) -> str:
    """``step 4 (out)``: a step named the way reports name it."""
    return f"step {number} ({_key(step)})"
