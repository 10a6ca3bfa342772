"""What grading one student gives: a score per transcript, the feedback, how the build went.

Results are plain data that round-trip through JSON (:meth:`StudentResult.to_json`,
:meth:`StudentResult.from_json`): that is how a worker hands them back, on any engine, and how
the cache under ``--out`` keeps them between runs. Nothing in them depends on timing or on
the engine, so the gradebook is the same however the course was graded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casino.harness.report import located, points_text, render
from casino.harness.session import Status, TranscriptResult


@dataclass(frozen=True)
class Score:
    """One transcript for one student."""

    path: str
    status: str
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

    @classmethod
    def of(cls, result: TranscriptResult, digest: str = "", folder: str | None = None) -> Score:
        """The score of a checked transcript; ``folder`` (the submission's temporary copy) is
        written ``<submission>`` wherever it shows (a stack trace), so that the feedback does
        not change from one grading to the next."""
        feedback = render(result, score=True)
        difference = first_difference(result)
        if folder:
            feedback = feedback.replace(folder, SUBMISSION)
            difference = difference and difference.replace(folder, SUBMISSION)
        return cls(
            digest=digest,
            path=result.path,
            status=result.status.value.lower(),
            points=result.points,
            max_points=result.max_points,
            feedback=feedback,
            first_difference=difference,
        )


SUBMISSION = "<submission>"
"""How the path of the submission's temporary copy is shown in feedback."""


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
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StudentResult:
        """From :meth:`to_json`'s data (``KeyError``/``TypeError`` if it is not that)."""
        return cls(
            student=str(data["student"]),
            scores=tuple(Score(**score) for score in data["scores"]),
            submission=str(data["submission"]),
            build_failed=bool(data["build_failed"]),
            build_output=str(data["build_output"]),
            note=data["note"],
        )


def feedback(result: StudentResult) -> str:
    """The student's feedback file: the score, then each transcript as the grader reports it
    (a failure with its located difference and diff), or why nothing could be run."""
    lines = [f"{result.student}: {points_text(result.points)}/{points_text(result.max_points)}"]
    if result.note:
        lines.append(f"not graded: {result.note}")
    if result.build_failed:
        lines.append("the build failed; no transcript was run. What it printed:")
        lines += [f"  {line}" for line in result.build_output.splitlines()]
    text = "\n".join(lines) + "\n\n"
    if not result.build_failed and not result.note:
        text += "".join(score.feedback for score in result.scores)
    return text
