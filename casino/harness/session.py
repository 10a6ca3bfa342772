"""Playing a transcript: a fresh working directory, its files, each run in order, the verdicts.

This is the one path that ``casino replay``, ``--update`` and the pytest plugin share.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from casino.harness.diff import RunVerdict, compare_run
from casino.harness.model import (
    DEFAULT_POINTS,
    Fixture,
    Inline,
    Transcript,
    TranscriptError,
    load_transcript,
)
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Outcome, Runner, Target, TargetError


class Status(Enum):
    """A transcript's verdict."""

    PASS = "PASS"
    FAIL = "FAIL"
    ERROR = "ERROR"
    """The transcript could not be read or run at all (malformed, unknown program)."""


@dataclass(frozen=True)
class TranscriptResult:
    """Everything a report needs about one transcript (picklable, for ``--jobs``)."""

    path: str
    status: Status
    name: str | None = None
    verdicts: tuple[RunVerdict, ...] = ()
    outcomes: tuple[Outcome, ...] = ()
    error: str | None = None
    points: float = 0.0
    max_points: float = DEFAULT_POINTS
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether the transcript passed."""
        return self.status is Status.PASS


@dataclass(frozen=True)
class Options:
    """How to replay: which runner, and an external command replacing casino's program."""

    runner: str = "inproc"
    command: tuple[str, ...] | None = None
    program_dir: Path | None = None
    """The folder ``command`` is written for (``--program-dir``; ``None``: the current one)."""


def target_of(transcript: Transcript, options: Options) -> Target:
    """The ``--program`` command if there is one, else the transcript's own program."""
    return Target(transcript.program, options.command, options.program_dir)


def write_files(transcript: Transcript, cwd: Path) -> None:
    """Put the transcript's ``files`` into ``cwd`` (a fresh scratch directory, so plain writes
    are enough there); a missing fixture or an impossible name is a :class:`TranscriptError`."""
    base = transcript.path.parent if transcript.path else Path.cwd()
    where = transcript.path or "transcript"
    for name, content in transcript.files or ():
        data = content.text.encode("utf-8") if isinstance(content, Inline) else b""
        if isinstance(content, Fixture):
            try:
                data = (base / content.path).read_bytes()
            except OSError as error:
                problem = f"fixture {content.path}: {error.strerror or error}"
                raise TranscriptError(f"{where}: files: {name!r}: {problem}") from None
        try:
            (cwd / name).parent.mkdir(parents=True, exist_ok=True)
            (cwd / name).write_bytes(data)
        except OSError as error:
            problem = f"cannot write it: {error.strerror or error}"
            raise TranscriptError(f"{where}: files: {name!r}: {problem}") from None


def play(transcript: Transcript, runner: Runner, target: Target) -> tuple[Outcome, ...]:
    """Run every run of ``transcript`` in order in one fresh working directory."""
    with tempfile.TemporaryDirectory(prefix="casino-", ignore_cleanup_errors=True) as scratch:
        cwd = Path(scratch)
        write_files(transcript, cwd)
        outcomes = []
        for run in transcript.runs:
            job = Job(target, run, cwd, transcript.seed, transcript.step_timeout)
            outcomes.append(runner.run(job))
        return tuple(outcomes)


def check(transcript: Transcript, runner: Runner, target: Target) -> TranscriptResult:
    """Play ``transcript`` and judge every run."""
    started = time.perf_counter()
    path = str(transcript.path or "")
    try:
        outcomes = play(transcript, runner, target)
    except (TranscriptError, TargetError) as error:
        message = str(error) if isinstance(error, TranscriptError) else f"{path}: {error}"
        return TranscriptResult(
            path, Status.ERROR, transcript.name, error=message, max_points=transcript.max_points
        )
    verdicts = tuple(compare_run(run, o) for run, o in zip(transcript.runs, outcomes, strict=True))
    passed = all(verdict.passed for verdict in verdicts)
    return TranscriptResult(
        path=path,
        status=Status.PASS if passed else Status.FAIL,
        name=transcript.name,
        verdicts=verdicts,
        outcomes=outcomes,
        points=transcript.max_points if passed else 0.0,
        max_points=transcript.max_points,
        seconds=time.perf_counter() - started,
    )


def check_path(path: str | Path, options: Options) -> TranscriptResult:
    """Load the transcript at ``path`` and check it (a malformed one is an ``ERROR``)."""
    try:
        transcript = load_transcript(path)
    except TranscriptError as error:
        return TranscriptResult(str(path), Status.ERROR, error=str(error))
    return check(transcript, make_runner(options.runner), target_of(transcript, options))
