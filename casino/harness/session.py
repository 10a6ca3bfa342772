"""Playing a transcript: a fresh working directory, its files, each run in order, the verdicts.

This is the one path that ``casino replay``, ``--update`` and the pytest plugin share.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from casino.harness.diff import RunVerdict, VerdictKind, compare_run
from casino.harness.load import MAX_FIXTURE_BYTES, TooLarge, load_transcript, read_capped
from casino.harness.model import (
    DEFAULT_POINTS,
    MATCH_KINDS,
    Fixture,
    Inline,
    Transcript,
    TranscriptError,
)
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Outcome, Runner, Target, TargetError
from casino.interrupts import scratch_directory

if TYPE_CHECKING:  # the sandbox's modules (ctypes, cgroups) are imported by a run that uses one
    from casino.harness.runners.sandbox import Sandbox


class Status(Enum):
    """A transcript's verdict."""

    PASS = "PASS"
    FAIL = "FAIL"
    ERROR = "ERROR"
    """The transcript could not be read or run at all (malformed, unknown program)."""
    SKIP = "SKIP"
    """Not run: a ``reference: casino`` transcript under ``--program`` (no other program can
    pass it). A skipped transcript neither fails a replay nor counts towards the score."""


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
    run_points: tuple[float, ...] = ()
    """What each run is worth (a chain's runs are scored one by one)."""
    allowed: tuple[str, ...] = ()
    """What the output was allowed besides exact (``match``; empty: exact)."""

    def run_earned(self, index: int) -> float:
        """The points run ``index`` (0-based) earned (its share of them, with a rubric)."""
        if index >= len(self.verdicts) or index >= len(self.run_points):
            return 0.0
        credit = self.verdicts[index].credit
        return self.run_points[index] if credit >= 1 else self.run_points[index] * credit

    @property
    def kind(self) -> VerdictKind:
        """``exact``, ``allowed`` (passed, some run thanks to ``match:``), ``behaviour``
        (some run kept behaviour points only), ``fail`` — or the status (``error``,
        ``skip``) of a transcript that was not judged."""
        if not self.verdicts or self.status in (Status.ERROR, Status.SKIP):
            return VerdictKind(self.status.value.lower())
        kinds = {verdict.kind for verdict in self.verdicts}
        if VerdictKind.BEHAVIOUR in kinds:
            return VerdictKind.BEHAVIOUR
        if not self.passed:
            return VerdictKind.FAIL
        return VerdictKind.ALLOWED if VerdictKind.ALLOWED in kinds else VerdictKind.EXACT

    @property
    def why(self) -> tuple[str, ...]:
        """Why each run that needed an allowance or kept only behaviour points did (``run 2
        of 3: …`` for a chain)."""
        count = len(self.verdicts)
        return tuple(
            verdict.why if count == 1 else f"run {number} of {count}: {verdict.why}"
            for number, verdict in enumerate(self.verdicts, 1)
            if verdict.why
        )

    @property
    def passed(self) -> bool:
        """Whether the transcript passed."""
        return self.status is Status.PASS

    @property
    def ok(self) -> bool:
        """Whether the transcript does not fail the replay (it passed, or was skipped)."""
        return self.status in (Status.PASS, Status.SKIP)

    @property
    def counted(self) -> bool:
        """Whether the transcript counts towards the score (it was not skipped)."""
        return self.status is not Status.SKIP


@dataclass(frozen=True)
class Options:
    """How to replay: which runner, and an external command replacing casino's program."""

    runner: str = "inproc"
    command: tuple[str, ...] | None = None
    program_dir: Path | None = None
    """The folder ``command`` is written for (``--program-dir``; ``None``: the current one)."""
    sandbox: Sandbox | None = None
    """Resource limits for each run of an external program (``casino grade``)."""
    match: tuple[str, ...] = ()
    """Near misses allowed for every transcript (``--match``), besides each one's own."""


def target_of(transcript: Transcript, options: Options) -> Target:
    """The ``--program`` command if there is one, else the transcript's own program."""
    return Target(transcript.program, options.command, options.program_dir)


def write_files(transcript: Transcript, cwd: Path) -> None:
    """Put the transcript's ``files`` into ``cwd`` (a fresh scratch directory, so plain writes
    are enough there); a fixture that cannot be read (missing, not a regular file, all of them
    together over :data:`MAX_FIXTURE_BYTES`) or an impossible name is a :class:`TranscriptError`."""
    base = transcript.path.parent if transcript.path else Path.cwd()
    where = transcript.path or "transcript"
    budget, limit = MAX_FIXTURE_BYTES, f"{MAX_FIXTURE_BYTES >> 20} MiB"
    for name, content in transcript.files or ():
        data = content.text.encode("utf-8") if isinstance(content, Inline) else b""
        if isinstance(content, Fixture):
            try:
                data = read_capped(base / content.path, budget)
            except TooLarge:
                problem = f"fixture {content.path}: the fixtures together are over {limit}"
                raise TranscriptError(f"{where}: files: {name!r}: {problem}") from None
            except ValueError as error:
                problem = f"fixture {content.path}: {error}"
                raise TranscriptError(f"{where}: files: {name!r}: {problem}") from None
            budget -= len(data)
        try:
            (cwd / name).parent.mkdir(parents=True, exist_ok=True)
            (cwd / name).write_bytes(data)
        except OSError as error:
            problem = f"cannot write it: {error.strerror or error}"
            raise TranscriptError(f"{where}: files: {name!r}: {problem}") from None


def play(
    transcript: Transcript, runner: Runner, target: Target, sandbox: Sandbox | None = None
) -> tuple[Outcome, ...]:
    """Run every run of ``transcript`` in order in one fresh working directory (each run
    under ``sandbox``, if given)."""
    with scratch_directory("casino-") as cwd:
        write_files(transcript, cwd)
        outcomes = []
        for run in transcript.runs:
            job = Job(target, run, cwd, transcript.seed, transcript.step_timeout, sandbox)
            outcomes.append(runner.run(job))
        return tuple(outcomes)


SKIP_NOTE = "only casino's own program can pass it (reference: casino)"
"""Why a reference transcript is not run against another program."""


def check(
    transcript: Transcript,
    runner: Runner,
    target: Target,
    sandbox: Sandbox | None = None,
    match: tuple[str, ...] = (),
) -> TranscriptResult:
    """Play ``transcript`` (under ``sandbox``, if given) and judge every run, allowing the near
    misses the transcript (or its folder) allows and ``match``.

    Each run of a chain is scored on its own (:attr:`Transcript.run_points`): a failed run
    costs its own points, and the runs after it still run, on what it left behind."""
    started = time.perf_counter()
    path = str(transcript.path or "")
    if target.external and transcript.reference is not None:
        return TranscriptResult(
            path, Status.SKIP, transcript.name, error=SKIP_NOTE, max_points=transcript.max_points
        )
    outcomes: tuple[Outcome, ...]
    verdicts: tuple[RunVerdict, ...] = ()
    try:
        if transcript.play is not None:
            from casino.harness.play import play_games  # a played game's referee: only here

            with scratch_directory("casino-") as cwd:
                write_files(transcript, cwd)
                played = play_games(transcript, runner, target, cwd, sandbox)
            outcomes, verdicts = (played.outcome,), (played.verdict,)
        else:
            outcomes = play(transcript, runner, target, sandbox)
    except (TranscriptError, TargetError) as error:
        message = str(error) if isinstance(error, TranscriptError) else f"{path}: {error}"
        return TranscriptResult(
            path, Status.ERROR, transcript.name, error=message, max_points=transcript.max_points
        )
    allowed = tuple(k for k in MATCH_KINDS if k in transcript.allowed or k in match)
    if transcript.play is None:
        try:
            verdicts = judged(transcript, outcomes, allowed)
        except Exception as error:  # a bug in casino's judge: this transcript's, nobody else's
            why = f"{path}: a bug in casino while judging it: {type(error).__name__}: {error}"
            return TranscriptResult(
                path,
                Status.ERROR,
                transcript.name,
                error=why,
                outcomes=outcomes,
                max_points=transcript.max_points,
            )
    credits = tuple(verdict.credit for verdict in verdicts)
    return TranscriptResult(
        path=path,
        status=Status.PASS if all(credit >= 1 for credit in credits) else Status.FAIL,
        name=transcript.name,
        verdicts=verdicts,
        outcomes=outcomes,
        points=transcript.earned(credits),
        max_points=transcript.max_points,
        seconds=time.perf_counter() - started,
        run_points=transcript.run_points,
        allowed=allowed,
    )


def judged(
    transcript: Transcript, outcomes: tuple[Outcome, ...], allowed: tuple[str, ...]
) -> tuple[RunVerdict, ...]:
    """The verdict on each run of ``transcript`` against its outcome."""
    pairs = zip(transcript.runs, outcomes, strict=True)
    return tuple(compare_run(run, outcome, allowed, transcript.grading) for run, outcome in pairs)


def check_path(path: str | Path, options: Options) -> TranscriptResult:
    """Load the transcript at ``path`` and check it (a malformed one is an ``ERROR``)."""
    try:
        transcript = load_transcript(path)
    except TranscriptError as error:
        return TranscriptResult(str(path), Status.ERROR, error=str(error))
    runner = make_runner(options.runner)
    target = target_of(transcript, options)
    return check(transcript, runner, target, options.sandbox, options.match)
