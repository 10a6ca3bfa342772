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

import dataclasses
import tempfile
from pathlib import Path

from casino.explore.feedback import explore_feedback
from casino.grade.course import (
    MAX_SUBMISSION_FILES,
    Course,
    Material,
    Packed,
    TooLargeSubmission,
    copy_submission,
    unpack,
)
from casino.grade.results import SUBMISSION, Kind, Score, ScoreStatus, StudentResult
from casino.grade.sealed import run_build
from casino.harness.diff import VerdictKind
from casino.harness.runners import make_runner
from casino.harness.runners.base import Target, signal_problem
from casino.harness.runners.folders import remove_tree
from casino.harness.runners.sandbox import isolation_works
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
    of unchanged transcripts; the build runs only if a transcript is left to run.

    Whatever goes wrong grading it (its folder cannot be copied, a run cannot be started or
    recorded, the disk is full) is this submission's result, not graded with the reason:
    one submission never stops the others."""
    if course.sandbox is not None and course.sandbox.isolate and not isolation_works():
        return not_graded(course, student, NO_SANDBOX, submission)  # a node without bwrap
    tmp = Path(tempfile.mkdtemp(prefix="casino-grade-"))
    try:
        return _grade_in(course, student, source, submission, cached or {}, tmp)
    except TooLargeSubmission as error:
        return not_graded(course, student, str(error), submission)
    except OSError as error:
        return not_graded(course, student, _unreadable(error), submission)
    except Exception as error:  # whatever it is, it is this submission's alone
        return not_graded(course, student, f"grading it failed: {error!r}", submission)
    finally:
        remove_tree(tmp)


def _grade_in(
    course: Course, student: str, source: Path | Packed, submission: str, cached: Cached, tmp: Path
) -> StudentResult:
    folder = tmp / "submission"
    folder.mkdir()
    if isinstance(source, Path):
        copy_submission(source, folder)
    else:
        unpack(source, folder)
    todo = [m for m in course.materials if cache_key(m.path, m.digest) not in cached]
    if (todo or course.explore) and course.build is not None:
        failure = build(course, folder)
        if failure is not None:
            return built_nothing(course, student, failure, submission)
    fresh = play_all(course, todo, folder, tmp)
    scores = tuple(
        cached.get(cache_key(m.path, m.digest)) or fresh[m.path] for m in course.materials
    )
    explored = ""
    if course.explore is not None:
        explored = explore_feedback(
            course.explore, course.run, folder, course.runner, course.sandbox
        )
    return StudentResult(student, scores, submission, explored=explored)


NO_SANDBOX = "the machine grading it cannot run programs in a sandbox (bubblewrap); grade it again"


def _unreadable(error: OSError) -> str:
    return f"the submission cannot be copied or graded: {error.strerror or error}"


def play_all(
    course: Course, materials: list[Material], folder: Path, tmp: Path
) -> dict[str, Score]:
    """Each transcript of ``materials`` against the course's command written for ``folder``
    (each transcript's fixtures in a fresh folder of ``tmp`` with a name no one can guess)."""
    runner = make_runner(course.runner)
    target = Target(None, course.run, folder)
    scores = {}
    for material in materials:
        place = Path(tempfile.mkdtemp(prefix="fixtures-", dir=tmp))
        result = check(material.placed(place), runner, target, course.sandbox)
        scores[material.path] = Score.of(result, material.digest, str(folder))
    return scores


def build(course: Course, folder: Path) -> str | None:
    """Run the build command in ``folder``; ``None`` if it succeeded, else what it printed."""
    assert course.build is not None
    sandbox = course.sandbox  # a build may leave as many files as a submission may hold
    if sandbox is not None:
        sandbox = dataclasses.replace(sandbox, back_files=MAX_SUBMISSION_FILES)
    outcome = run_build(course.build, folder, course.build_timeout, sandbox)
    if outcome is None:
        return None
    why = outcome.problem or signal_problem(outcome.exit) or f"exit status {outcome.exit}"
    more = f"\n… {outcome.stderr_dropped} more bytes" if outcome.stderr_dropped else ""
    printed = "\n".join(text.rstrip("\n") for text in (outcome.output, outcome.stderr) if text)
    text = f"{course.build}: {why}\n{printed}{more}".rstrip("\n") + "\n"
    return text.replace(str(folder), SUBMISSION)


def _zero(material: Material, why: str, kind: Kind) -> Score:
    """No points for ``material``: the build failed (``kind`` build: a FAIL), or the student
    could not be graded at all (``kind`` error: an ERROR, with the reason)."""
    status = ScoreStatus.ERROR if kind is Kind.ERROR else ScoreStatus.FAIL
    transcript = material.transcript
    headline = f"{status.upper()} [0/{transcript.max_points:g}] {transcript.name} ({material.path})"
    return Score(
        material.path,
        status,
        0.0,
        transcript.max_points,
        f"{headline}\n  {why}\n",
        why,
        material.digest,
        kind,
        verdict=VerdictKind(status),
    )


def built_nothing(course: Course, student: str, output: str, submission: str) -> StudentResult:
    """The result of a submission whose build failed: every transcript 0 points."""
    scores = tuple(_zero(m, "not run: the build failed", Kind.BUILD) for m in course.materials)
    return StudentResult(student, scores, submission, build_failed=True, build_output=output)


def not_graded(course: Course, student: str, note: str, submission: str = "") -> StudentResult:
    """The result of a submission that could not be graded at all: every transcript 0, an
    error (with the reason)."""
    scores = tuple(_zero(m, f"not run: {note}", Kind.ERROR) for m in course.materials)
    return StudentResult(student, scores, submission, note=note)
