"""Grading one student: a fresh copy of the folder, the build once, then every transcript.

Everything happens in a temporary directory of its own: the submission is copied (or unpacked,
on another machine) into it, ``--build`` runs there once, and ``--run`` is then the program
every transcript is replayed against through the harness (:func:`casino.harness.session.check`:
each transcript in its own scratch directory holding only its ``files:``, chained ``runs:``
included), each run under the course's :class:`~casino.harness.runners.sandbox.Sandbox`.

The build is a run too: ``sh -c BUILD`` through the pipe runner with no input, so it is bounded
and contained like every run (``build_timeout`` seconds without output or in all, capped output,
the sandbox). A build that fails is a result (score 0, with what it printed), never an error of
the grader.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from casino.grade.course import (
    Course,
    Material,
    Packed,
    TooLargeSubmission,
    copy_submission,
    unpack,
)
from casino.grade.results import SUBMISSION, Kind, Score, StudentResult
from casino.harness.model import Run
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Target, signal_problem
from casino.harness.runners.pipe import PipeRunner
from casino.harness.session import check

Cached = dict[str, Score]
"""Scores a re-run may reuse, by transcript path and digest (:func:`cache_key`)."""


def cache_key(path: str, digest: str) -> str:
    """How a reusable score is found: the transcript's path and its content hash."""
    return f"{path}\0{digest}"


def grade_student(
    course: Course,
    student: str,
    source: Path | Packed,
    submission: str = "",
    cached: Cached | None = None,
) -> StudentResult:
    """Grade ``student``'s submission (a folder, or packed files), reusing ``cached`` scores
    of unchanged transcripts; the build runs only if a transcript is left to run."""
    with tempfile.TemporaryDirectory(prefix="casino-grade-", ignore_cleanup_errors=True) as tmp:
        folder = Path(tmp, "submission")
        folder.mkdir()
        try:
            if isinstance(source, Path):
                copy_submission(source, folder)
            else:
                unpack(source, folder)
        except (TooLargeSubmission, OSError) as error:
            note = str(error) if isinstance(error, TooLargeSubmission) else _unreadable(error)
            return not_graded(course, student, note, submission)
        cached = cached or {}
        todo = [m for m in course.materials if cache_key(m.path, m.digest) not in cached]
        if todo and course.build is not None:
            failure = build(course, folder)
            if failure is not None:
                return built_nothing(course, student, failure, submission)
        fresh = play_all(course, todo, folder, Path(tmp, "fixtures"))
        scores = tuple(
            cached.get(cache_key(m.path, m.digest)) or fresh[m.path] for m in course.materials
        )
        return StudentResult(student, scores, submission)


def _unreadable(error: OSError) -> str:
    return f"the submission cannot be read: {error.strerror or error}"


def play_all(
    course: Course, materials: list[Material], folder: Path, fixtures: Path
) -> dict[str, Score]:
    """Each transcript of ``materials`` against the course's command written for ``folder``."""
    runner = make_runner(course.runner)
    target = Target(None, course.run, folder)
    scores = {}
    for index, material in enumerate(materials):
        place = fixtures / str(index)
        place.mkdir(parents=True)
        result = check(material.placed(place), runner, target, course.sandbox)
        scores[material.path] = Score.of(result, material.digest, str(folder))
    return scores


def build(course: Course, folder: Path) -> str | None:
    """Run the build command in ``folder``; ``None`` if it succeeded, else what it printed."""
    assert course.build is not None
    target = Target(None, ("sh", "-c", course.build), folder)
    job = Job(target, Run(()), folder, None, course.build_timeout, course.sandbox)
    outcome = PipeRunner().run(job)
    if outcome.problem is None and outcome.exit == 0:
        return None
    why = outcome.problem or signal_problem(outcome.exit) or f"exit status {outcome.exit}"
    more = f"\n… {outcome.stderr_dropped} more bytes" if outcome.stderr_dropped else ""
    printed = "\n".join(text.rstrip("\n") for text in (outcome.output, outcome.stderr) if text)
    text = f"{course.build}: {why}\n{printed}{more}".rstrip("\n") + "\n"
    return text.replace(str(folder), SUBMISSION)


def _zero(material: Material, why: str, kind: Kind) -> Score:
    transcript = material.transcript
    headline = f"FAIL [0/{transcript.max_points:g}] {transcript.name} ({material.path})"
    return Score(
        material.path,
        "fail",
        0.0,
        transcript.max_points,
        f"{headline}\n  {why}\n",
        why,
        material.digest,
        kind,
    )


def built_nothing(course: Course, student: str, output: str, submission: str) -> StudentResult:
    """The result of a submission whose build failed: every transcript 0 points."""
    scores = tuple(_zero(m, "not run: the build failed", "build") for m in course.materials)
    return StudentResult(student, scores, submission, build_failed=True, build_output=output)


def not_graded(course: Course, student: str, note: str, submission: str = "") -> StudentResult:
    """The result of a submission that could not be graded at all: every transcript 0."""
    scores = tuple(_zero(m, f"not run: {note}", "error") for m in course.materials)
    return StudentResult(student, scores, submission, note=note)
