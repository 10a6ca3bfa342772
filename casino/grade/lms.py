"""Grades back to where the course keeps them: the CSV files Moodle's and Canvas's grade
imports read.

- ``moodle.csv`` is Moodle's *offline grading worksheet* (Assignment → "Upload grading
  worksheet"): the columns ``Identifier`` (``Participant 12345``, the number in the download's
  folder names), ``Full name``, ``Grade``, ``Maximum Grade`` and ``Feedback comments``; Moodle
  matches rows by ``Identifier`` and leaves columns it does not know alone.
- ``canvas.csv`` is Canvas's *gradebook import* (Grades → Import): ``Student``, ``ID`` (the user
  id in the download's file names), ``SIS User ID``, ``SIS Login ID``, ``Section``, then one
  column for the assignment (``--assignment``; "casino" by default), with Canvas's own
  ``Points Possible`` row under the header. Canvas matches rows by ``ID``.

A student casino could not grade gets an empty grade (the platform then keeps what it had, and
nobody is given 0 for the grader's trouble) and a comment saying why. Numbers are written with
a decimal point, as both platforms read them; text cells that a spreadsheet would take for a
formula are quoted as in ``gradebook.csv``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from casino.grade.books import text_cell
from casino.grade.intake import Identity
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


def moodle_csv(
    results: Sequence[StudentResult],
    identities: Mapping[str, Identity],
    finals: Mapping[str, float] | None = None,
) -> str:
    """Moodle's grading worksheet for the students that came from Moodle (``finals``: the
    scores after a late penalty, :mod:`casino.grade.late`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["Identifier", "Full name", "Grade", "Maximum Grade", "Feedback comments"])
    for result in results:
        who = identities.get(result.student)
        if who is None or who.platform != "moodle":
            continue
        writer.writerow(
            [
                f"Participant {who.id}",
                text_cell(who.name),
                _grade(result, finals),
                points_text(result.max_points),
                text_cell(_comment(result)),
            ]
        )
    return buffer.getvalue()


def canvas_csv(
    results: Sequence[StudentResult],
    identities: Mapping[str, Identity],
    assignment: str,
    finals: Mapping[str, float] | None = None,
) -> str:
    """Canvas's gradebook import for the students that came from Canvas (``finals`` as for
    :func:`moodle_csv`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    head = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    writer.writerow([*head, text_cell(assignment)])
    most = max((result.max_points for result in results), default=0)
    writer.writerow(["Points Possible", "", "", "", "", points_text(most)])
    for result in results:
        who = identities.get(result.student)
        if who is None or who.platform != "canvas":
            continue
        writer.writerow([text_cell(who.name), who.id, "", "", "", _grade(result, finals)])
    return buffer.getvalue()
