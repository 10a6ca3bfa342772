"""What a course keeps from a grading, under ``--out``.

- ``gradebook.csv``: ``student,score,max`` then one column of points per transcript (its path);
- ``gradebook.json``: the same, with each transcript's name and worth;
- ``feedback/STUDENT.txt``: what the student sees (:func:`casino.grade.results.feedback`);
- ``summary.html``: one page for staff (:mod:`casino.grade.summary`).

Students are in name order and nothing depends on timing, so the files are the same whatever
the engine or ``--jobs``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from casino.grade.course import Material
from casino.grade.results import StudentResult
from casino.grade.summary import summary_html as summary_html
from casino.harness.report import escaped_controls, points_text

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: a leading ``=``, ``+``, ``-``, ``@``, tab or
    carriage return quoted with ``'`` (OWASP's list), and every other control character
    (ESC, C1…) but line feeds and tabs written ``\\xNN``."""
    quoted = f"'{text}" if text.startswith(_FORMULA_START) else text
    return escaped_controls(quoted, keep="\n\t")


def gradebook_csv(materials: Sequence[Material], results: Sequence[StudentResult]) -> str:
    """``gradebook.csv``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "score", "max", *(text_cell(m.path) for m in materials)])
    for result in results:
        writer.writerow(
            [
                text_cell(result.student),
                points_text(result.points),
                points_text(result.max_points),
                *(points_text(score.points) for score in result.scores),
            ]
        )
    return buffer.getvalue()


def gradebook_json(materials: Sequence[Material], results: Sequence[StudentResult]) -> str:
    """``gradebook.json``."""
    data = {
        "max": sum(m.transcript.max_points for m in materials),
        "transcripts": [
            {"path": m.path, "name": m.transcript.name, "max_points": m.transcript.max_points}
            for m in materials
        ],
        "students": [
            {
                "student": result.student,
                "score": result.points,
                "max": result.max_points,
                "build_failed": result.build_failed,
                "not_graded": result.note,
                "points": {score.path: score.points for score in result.scores},
                "status": {score.path: score.status for score in result.scores},
                "kind": {score.path: score.kind for score in result.scores},
            }
            for result in results
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
