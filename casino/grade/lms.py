"""Grades back to where the course keeps them: the CSV file the platform's grade import reads
(``moodle.csv``, ``canvas.csv``, ``blackboard.csv``: each platform's module in
:mod:`casino.grade.platforms` says its columns).

A student casino could not grade gets an empty grade (the platform then keeps what it had, and
nobody is given 0 for the grader's trouble) and a comment saying why. Numbers are written with
a decimal point, as both platforms read them; text cells that a spreadsheet would take for a
formula are quoted as in ``gradebook.csv``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.grade.platforms import GradeRow, Identity, Platform
from casino.grade.results import StudentResult
from casino.harness.report import points_text


def _comment(result: StudentResult) -> str:
    """One line for the student's row: the score, or why there is none."""
    if result.note is not None:
        return f"not graded by casino: {result.note}"
    if result.build_failed:
        return "the build failed: see the feedback file"
    failed = sum(score.points < score.max_points for score in result.scores)
    if not failed:
        return "every transcript passed"
    return f"{failed} of {len(result.scores)} transcripts not passed: see the feedback file"


def _grade(result: StudentResult, finals: Mapping[str, float] | None = None) -> str:
    """The grade to import: the score, or the final score after a late penalty."""
    if result.note is not None:
        return ""
    return points_text(finals.get(result.student, result.points) if finals else result.points)


def import_csv(
    platform: Platform,
    results: Sequence[StudentResult],
    identities: Mapping[str, Identity],
    assignment: str,
    finals: Mapping[str, float] | None = None,
) -> str:
    """The platform's grade import for the students that came from it (``finals``: the
    scores after a late penalty, :mod:`casino.grade.late`; ``assignment``: the column's
    name where the platform names one)."""
    rows = [
        GradeRow(who, _grade(result, finals), result.max_points, _comment(result))
        for result in results
        if (who := identities.get(result.student)) is not None and who.platform == platform.name
    ]
    most = max((result.max_points for result in results), default=0)
    return platform.grade_import(rows, assignment, most)
