"""What a course keeps from a grading, under ``--out``.

- ``gradebook.csv``: ``student,score,max`` then one column of points per transcript (its path),
  then, when a transcript has a rubric or allows a near miss, ``not exact``: each transcript
  that earned points without its exact text, how and why (:func:`not_exact`);
- ``gradebook.json``: the same, with each transcript's name and worth, and per transcript its
  ``verdict`` (``exact``, ``allowed``, ``behaviour``, ``fail``, ``error``) and ``why``;
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
from casino.harness.report import points_text

_FORMULA_START = ("=", "+", "-", "@")


def text_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text (a leading ``=``, ``+``, ``-``, ``@`` quoted)."""
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def gradebook_csv(materials: Sequence[Material], results: Sequence[StudentResult]) -> str:
    """``gradebook.csv``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    paths = [text_cell(m.path) for m in materials]
    lenient = any(m.transcript.grading or m.transcript.allowed for m in materials)
    writer.writerow(["student", "score", "max", *paths, *(["not exact"] if lenient else [])])
    for result in results:
        writer.writerow(
            [
                text_cell(result.student),
                points_text(result.points),
                points_text(result.max_points),
                *(points_text(score.points) for score in result.scores),
                *([text_cell(not_exact(result))] if lenient else []),
            ]
        )
    return buffer.getvalue()


NOT_EXACT = ("allowed", "behaviour")
"""The verdicts that earn points without the exact text."""


def not_exact(result: StudentResult) -> str:
    """``a.yaml: behaviour only: it differs in wording; every fact is right | b.yaml: passed
    with match: trailing-space; …``: each transcript that earned points without its exact
    text, and why (run by run for a chain)."""
    return " | ".join(
        f"{score.path}: {'; '.join(score.why)}"
        for score in result.scores
        if score.verdict in NOT_EXACT
    )


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
                "verdict": {score.path: score.verdict for score in result.scores},
                "why": {score.path: list(score.why) for score in result.scores if score.why},
            }
            for result in results
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
