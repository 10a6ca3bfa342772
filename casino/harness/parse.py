"""Transcripts from YAML text: every key validated into :mod:`casino.harness.model`'s values.

A transcript may come from anyone, so validation is bounded: the YAML rules of
:mod:`casino.harness.yamltext` (no tags, anchors, aliases; bounded nesting); every number
checked for its digits before it is converted, then for its range (the constants below); and
every problem is one :class:`~casino.harness.model.TranscriptError` line naming the file and,
when known, the line and column. The file itself is read by :mod:`casino.harness.load`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

from casino.harness.model import (
    MATCH_KINDS,
    MAX_ALTERNATIVES,
    REFERENCES,
    STEP_KEYS,
    VISIBILITIES,
    Fixture,
    Inline,
    OutAny,
    Run,
    Step,
    Transcript,
    TranscriptError,
    plain_number,
)
from casino.harness.playspec import Play, parse_play
from casino.harness.rubric import EVERY_WORD_AND_NUMBER, Grading, parse_facts, parse_rubric
from casino.harness.yamltext import TextError, load_text, position

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
_RUN_KEYS = ("args", "steps", "exit", "stderr", "points")
_WHOLE = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

T = TypeVar("T")
Where = tuple[int, int] | None
"""A 1-based line and column in the transcript's text, when known."""


class _Invalid(Exception):
    """Control flow, not an error: a validation problem, before the file name (and where)
    is put in front of it."""

    def __init__(self, problem: str, where: Where = None) -> None:
        super().__init__(problem)
        self.where = where


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
        reference=_one_of(data, "reference", REFERENCES),
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
    return _one_of(data, "visibility", VISIBILITIES)


def _one_of(data: dict[str, Any], key: str, choices: Sequence[str]) -> str | None:
    """``data[key]``, a text among ``choices``, if stated."""
    value = _text(data, key)
    if value is not None and value not in choices:
        problem = f"'{key}' must be one of {', '.join(choices)}, not {value!r}"
        raise _Invalid(problem, _at(data, key))
    return value


def _stated(
    data: dict[str, Any], key: str, parse: Callable[[Any, Callable[[str], Exception]], T]
) -> T | None:
    """``data[key]`` parsed, if stated (``rubric``, ``facts``)."""
    if key not in data:
        return None
    return parse(data[key], lambda problem: _Invalid(problem, _at(data, key)))


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
        problem = f"{key!r} must be a number from {plain_number(low)} to {plain_number(high)}"
        raise _Invalid(problem, _at(data, key))
    return float(value)
