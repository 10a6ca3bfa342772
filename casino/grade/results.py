"""What grading one student gives: a score per transcript, the feedback, how the build went.

Results are plain data that round-trip through JSON (:meth:`StudentResult.to_json`,
:meth:`StudentResult.from_json`): that is how a worker hands them back, on any engine, and how
the cache under ``--out`` keeps them between runs. Nothing in them depends on timing or on
the engine, so the gradebook is the same however the course was graded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from casino.grade.late import Lateness
from casino.harness.diff import RunVerdict, VerdictKind
from casino.harness.report import (
    escaped_controls,
    feedback_only,
    located,
    marks,
    points_text,
    render,
)
from casino.harness.runners.base import FailureKind
from casino.harness.session import Status, TranscriptResult


class Kind(StrEnum):
    """How a transcript went for a student (:func:`failure_kind` decides, in one place):

    - ``pass``; ``diff``: it ran to its end and printed something else;
    - ``crash``: killed by a signal, or it ended with a non-zero exit status the transcript
      did not expect *and* wrote to stderr (a Java exception, a Python traceback,
      ``MemoryError``);
    - ``timeout``: stopped for taking too long; ``flood``: stopped for printing more than its
      output cap (:func:`casino.harness.runners.base.flood_problem`);
    - ``build``: not run, the build failed; ``error``: it could not be run at all (the program
      could not start, the submission could not be graded).

    Its text is the word the gradebook, the summary and the cache write."""

    PASS = "pass"
    DIFF = "diff"
    CRASH = "crash"
    TIMEOUT = "timeout"
    FLOOD = "flood"
    BUILD = "build"
    ERROR = "error"


KINDS: tuple[Kind, ...] = tuple(Kind)


class ScoreStatus(StrEnum):
    """A score's status (:attr:`Score.status`): the transcript's, in the gradebook's words."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    """The program could not be run (or the student not graded)."""


@dataclass(frozen=True)
class Score:
    """One transcript for one student."""

    path: str
    status: ScoreStatus
    """``pass``, ``fail`` or ``error`` (the program could not be run)."""
    points: float
    max_points: float
    feedback: str
    """The grader-style report of the transcript (the headline, and a failure's details)."""
    first_difference: str | None = None
    """For a failure: its first differing line (expected and actual) or why the run
    stopped; what the staff summary groups failures by."""
    digest: str = ""
    """The hash of the transcript it was graded with (a re-run reuses it while it holds)."""
    kind: Kind = Kind.PASS
    """How it went (:data:`Kind`); every constructor of a score states it."""
    failed_runs: tuple[int, ...] = ()
    """The runs (1-based) that failed, for a transcript of several ``runs:``."""
    stderr_line: str = ""
    """For a crash: the line of stderr that says what went wrong (:func:`stderr_headline`)."""
    verdict: VerdictKind = VerdictKind.FAIL
    """``exact``, ``allowed`` (passed thanks to a ``match:`` allowance), ``behaviour`` (kept
    its behaviour points only, by the folder's rubric), ``fail`` or ``error``
    (:attr:`casino.harness.session.TranscriptResult.kind`)."""
    why: tuple[str, ...] = ()
    """Why each run that was not exact but earned points did (an allowance's note, or
    ``behaviour only: …``)."""

    @classmethod
    def of(cls, result: TranscriptResult, digest: str = "", folder: str | None = None) -> Score:
        """The score of a checked transcript; ``folder`` (the submission's temporary copy) is
        written ``<submission>`` wherever it shows (a stack trace), so that the feedback does
        not change from one grading to the next."""
        counted = not feedback_only(result)  # else it failed only in runs worth nothing
        kind = failure_kind(result) if counted else Kind.PASS
        stderr = stderr_headline(_first_failure(result)) if kind is Kind.CRASH else ""
        feedback = _named(render(result, score=True), kind, result, stderr)
        difference = first_difference(result) if counted else None
        if folder:
            shown = {folder: SUBMISSION}
            feedback, stderr = shown_paths(feedback, shown), shown_paths(stderr, shown)
            difference = difference and shown_paths(difference, shown)
        return cls(
            digest=digest,
            path=result.path,
            status=ScoreStatus(result.status.value.lower()) if counted else ScoreStatus.PASS,
            points=result.points,
            max_points=result.max_points,
            feedback=feedback,
            first_difference=difference,
            kind=kind,
            failed_runs=failing_runs(result) if counted else (),
            stderr_line=stderr,
            verdict=result.kind if counted else _counted_verdict(result),
            why=result.why if counted else (),
        )

    @property
    def word(self) -> str:
        """``PASS``, ``PARTIAL`` (it kept behaviour points only), ``FAIL`` or ``ERROR``: the
        word its feedback opens with, for the student's copy and the staff's alike."""
        if self.status is ScoreStatus.FAIL:
            return "PARTIAL" if self.verdict is VerdictKind.BEHAVIOUR else "FAIL"
        return {"pass": "PASS"}.get(self.status, "ERROR")


def _counted_verdict(result: TranscriptResult) -> VerdictKind:
    """The verdict of a transcript that failed only in runs worth nothing, on the others."""
    counted = [v for v, worth in zip(result.verdicts, result.run_points, strict=True) if worth]
    allowed = any(v.kind is VerdictKind.ALLOWED for v in counted)
    return VerdictKind.ALLOWED if allowed else VerdictKind.EXACT


SUBMISSION = "<submission>"
"""How the path of the submission's temporary copy is shown in feedback."""


def shown_paths(text: str, folders: Mapping[str, str]) -> str:
    """``text`` with each temporary folder of ``folders`` written as what it maps to
    (:data:`SUBMISSION`): the feedback does not change from one grading to the next."""
    for folder, shown in folders.items():
        text = text.replace(folder, shown)
    return text


def _first_failure(result: TranscriptResult) -> RunVerdict | None:
    """The verdict of the first run that failed (``None``: none did, or none ran)."""
    return next((verdict for verdict in result.verdicts if not verdict.passed), None)


def failing_runs(result: TranscriptResult) -> tuple[int, ...]:
    """The runs (1-based) of a transcript of several ``runs:`` that failed; ``()`` for a
    transcript of one run. (Derived from the harness's verdict per run; the one place that
    knows which run of a chain failed.)"""
    if len(result.verdicts) < 2:
        return ()
    return tuple(number for number, v in enumerate(result.verdicts, 1) if not v.passed)


def runs_text(failed: tuple[int, ...], runs: int) -> str:
    """``run 2 of 5``, ``runs 2, 4 of 5``; ``""`` when there is nothing to say."""
    if not failed or runs < 2:
        return ""
    numbers = ", ".join(map(str, failed))
    return f"run{'s' if len(failed) > 1 else ''} {numbers} of {runs}"


_KIND_OF_FAILURE: dict[FailureKind, Kind] = {
    FailureKind.TIMEOUT: Kind.TIMEOUT,
    FailureKind.FLOOD: Kind.FLOOD,
    FailureKind.CANNOT_START: Kind.ERROR,
    FailureKind.CRASH: Kind.CRASH,  # killed by a signal, or crashed in casino's own process
}
"""A run's problem, by the kind its runner gave it, as the gradebook names it."""


def failure_kind(result: TranscriptResult) -> Kind:
    """How the transcript went (:data:`Kind`), judged on its first failing run."""
    if result.status is Status.ERROR:
        return Kind.ERROR
    verdict = _first_failure(result)
    if result.status is Status.PASS or verdict is None:
        return Kind.PASS
    if verdict.problem and verdict.failure is not None:
        return _KIND_OF_FAILURE[verdict.failure]
    unexpected = verdict.exit_expected in (None, 0) and verdict.exit_actual not in (None, 0)
    return Kind.CRASH if unexpected and _stderr_of(verdict).strip() else Kind.DIFF


def _stderr_of(verdict: RunVerdict) -> str:
    return verdict.unpinned_stderr if verdict.stderr is None else verdict.stderr.actual


_TRACEBACK = "Traceback (most recent call last):"
STDERR_LINE_MAX = 300
"""Characters of a crash's stderr line kept (the feedback has all of its stderr)."""


def stderr_headline(verdict: RunVerdict | None) -> str:
    """The line of a run's stderr that says what went wrong: the first non-blank one (Java's
    ``Exception in thread "main" …``), or for a Python traceback its last one (the
    exception; the first is only ``Traceback (most recent call last):``), at most
    :data:`STDERR_LINE_MAX` characters."""
    if verdict is None:
        return ""
    lines = [line.strip() for line in _stderr_of(verdict).splitlines() if line.strip()]
    if not lines:
        return ""
    line = escaped_controls(lines[-1] if lines[0] == _TRACEBACK else lines[0])
    return line if len(line) <= STDERR_LINE_MAX else line[:STDERR_LINE_MAX] + "…"


def _named(feedback: str, kind: Kind, result: TranscriptResult, stderr: str) -> str:
    """The transcript's report with a crash named as such right under its headline (a
    time-out, a flood and a diff already open with what they are)."""
    verdict = _first_failure(result)
    if kind is not Kind.CRASH or verdict is None:
        return feedback
    head, _, rest = feedback.partition("\n")
    where = runs_text(failing_runs(result)[:1], len(result.verdicts))
    how = verdict.problem or f"exit status {verdict.exit_actual}"
    said = f": {stderr}" if stderr else ""
    return f"{head}\n  crashed{' in ' + where if where else ''} ({how}){said}\n{rest}"


def first_difference(result: TranscriptResult) -> str | None:
    """What went wrong first in a failed transcript, in one or two lines."""
    if result.status is Status.ERROR:
        return result.error
    for verdict in result.verdicts:
        if verdict.passed:
            continue
        if verdict.output.difference is not None:
            return "\n".join(line.strip() for line in located(verdict.output, "")[1:3])
        if verdict.problem:
            return verdict.problem
        if verdict.stderr is not None and verdict.stderr.difference is not None:
            return "stderr differs"
        return f"exit status {verdict.exit_actual}, expected {verdict.exit_expected}"
    return None


@dataclass(frozen=True)
class StudentResult:
    """A student's grading: per-transcript scores, or why there are none to earn."""

    student: str
    scores: tuple[Score, ...]
    submission: str = ""
    """The content hash of the submission and settings it was graded with (the cache key)."""
    build_failed: bool = False
    build_output: str = ""
    """What the build printed (its problem, stdout and stderr), when it failed."""
    note: str | None = None
    """Why the submission was not graded at all (too large, the grader's process died)."""
    explored: str = ""
    """What ``--explore`` found (feedback text; empty without it)."""

    @property
    def points(self) -> float:
        """Points earned."""
        return sum(score.points for score in self.scores)

    @property
    def max_points(self) -> float:
        """Points there were to earn."""
        return sum(score.max_points for score in self.scores)

    def to_json(self) -> dict[str, Any]:
        """As JSON data."""
        return {
            "student": self.student,
            "submission": self.submission,
            "build_failed": self.build_failed,
            "build_output": self.build_output,
            "note": self.note,
            "scores": [vars(score) for score in self.scores],
            "explored": self.explored,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StudentResult:
        """From :meth:`to_json`'s data (``KeyError``/``TypeError`` if it is not that)."""
        return cls(
            student=str(data["student"]),
            scores=tuple(_score(score) for score in data["scores"]),
            submission=str(data["submission"]),
            build_failed=bool(data["build_failed"]),
            build_output=str(data["build_output"]),
            note=data["note"],
            explored=str(data.get("explored", "")),
        )


def _score(data: dict[str, Any]) -> Score:
    """A score from its JSON data; one stored before scores had a ``kind`` is not readable
    (``KeyError``), so that the student is graded again."""
    try:
        kind, status = Kind(data["kind"]), ScoreStatus(data["status"])
        verdict = VerdictKind(data.get("verdict", "exact" if status == "pass" else status))
    except ValueError as error:
        raise TypeError(str(error)) from None
    why = tuple(str(line) for line in data.get("why", ()))
    fields = {"kind": kind, "status": status, "verdict": verdict, "why": why}
    return Score(**{**data, "failed_runs": tuple(data["failed_runs"]), **fields})


FOLD_AT = 3
"""A line repeated this many times in a row or more is shown once, then counted."""


def fold_repeats(text: str) -> str:
    """``text`` with each run of :data:`FOLD_AT` or more identical lines shown once, followed
    by ``… the line above N more times`` (indented as it is): a program that printed the same
    line 4,083 times before it was stopped fills four lines, not thousands."""
    lines = text.split("\n")
    folded: list[str] = []
    start = 0
    while start < len(lines):
        end = start
        while end + 1 < len(lines) and lines[end + 1] == lines[start]:
            end += 1
        repeats = end - start
        if repeats + 1 >= FOLD_AT:
            line = lines[start]
            indent = line[: len(line) - len(line.lstrip(" \t"))]
            more = f"{repeats:,} more time{'' if repeats == 1 else 's'}"
            folded += [line, f"{indent}… the line above {more}"]
        else:
            folded += lines[start : end + 1]
        start = end + 1
    return "\n".join(folded)


HIDDEN_NOTE = "hidden test: its input and expected output are not shown"
"""What a student's feedback says of a hidden transcript, after its name and points."""


def withheld_line(score: Score, name: str) -> str:
    """A hidden transcript as a student sees it: how it went, its points and name, nothing of
    its input, its expected output or the program's output."""
    return (
        f"{score.word} {marks(score.points, score.max_points)} {name} ({score.path}): "
        f"{HIDDEN_NOTE}\n"
    )


def points_line(student: str, points: float, max_points: float) -> str:
    """``ada: 4/4``: a student's points out of the maximum."""
    return f"{student}: {points_text(points)}/{points_text(max_points)}"


def indented(text: str) -> list[str]:
    """Each line of ``text`` (what a failed build printed) indented by two spaces."""
    return [f"  {line}" for line in text.splitlines()]


def score_line(result: StudentResult, late: Lateness | None = None) -> str:
    """The feedback's first line: ``ada: 4/4``; with a late penalty, the final score first,
    beside its parts (``grace: 1.6/4 final (raw 4/4, late penalty 2.4)``)."""
    worth = points_text(result.max_points)
    if late is None or not late.penalty:
        return points_line(result.student, result.points, result.max_points)
    return (
        f"{result.student}: {points_text(late.final)}/{worth} final (raw "
        f"{points_text(result.points)}/{worth}, late penalty {points_text(late.penalty)})"
    )


def feedback(
    result: StudentResult,
    notes: Sequence[str] = (),
    withheld: Mapping[str, str] | None = None,
    late: Lateness | None = None,
) -> str:
    """The student's feedback file: the score, then each transcript as the grader reports it
    — a failure opens with what it is (a crash, a time-out, a flood, or the first difference
    with its step, line and column), then the whole diff, then what the program wrote to
    stderr — or why nothing could be run; repeated lines folded (:func:`fold_repeats`).
    ``notes`` go under the score line (late work); a transcript in ``withheld`` (path → name)
    is shown as its name and points only (:func:`withheld_line`); with ``late``, the score
    line shows the final score beside its parts (:func:`score_line`)."""
    lines = [score_line(result, late)]
    lines += notes
    if result.note:
        lines.append(f"not graded: {result.note}")
    if result.build_failed:
        lines.append("the build failed; no transcript was run. What it printed:")
        lines += indented(result.build_output)
    text = "\n".join(lines) + "\n\n"
    if not result.build_failed and not result.note:
        hidden = withheld or {}
        text += "".join(
            withheld_line(score, hidden[score.path]) if score.path in hidden else score.feedback
            for score in result.scores
        )
    if result.explored:
        text += "\n" + result.explored
    return fold_repeats(text)


# ---------------------------------------------------------------- a tester's rubric lines


@dataclass(frozen=True)
class LineResult:
    """A student checked by a tester on rubric lines rather than by transcripts (``casino
    stud check``): each line's points (0 each when not tested), and why it was not tested or
    lost a line at once (a note)."""

    student: str
    points: dict[str, float]
    tested: bool
    note: str = ""

    @property
    def score(self) -> float:
        """Points earned."""
        return sum(self.points.values())


def tester_feedback(
    result: LineResult,
    max_points: float,
    *,
    notes: Sequence[str] = (),
    report: str | None = None,
    build_output: str = "",
    folders: Mapping[str, str] | None = None,
) -> str:
    """The feedback file of a :class:`LineResult`: its points line and ``notes`` (late
    parts), then the tester's ``report`` (``folders`` shown as :func:`shown_paths` shows
    them), or when it was not tested why, with what a failed build printed."""
    head = points_line(result.student, result.score, max_points) + "\n"
    head += "".join(f"{line}\n" for line in notes)
    if report is not None:
        return shown_paths(head + "\n" + report, folders or {})
    text = head + f"not tested: {result.note}\n"
    if build_output:
        text += "What the build printed:\n" + "".join(
            f"{line}\n" for line in indented(build_output)
        )
    return text
