"""What a course keeps from a grading, under ``--out``.

- ``gradebook.csv``: ``student,score,max`` then one column of points per transcript (its path),
  then, when a transcript has a rubric or allows a near miss, ``not exact``: each transcript
  that earned points without its exact text, how and why (:func:`not_exact`);
- ``gradebook.json``: the same, with each transcript's name and worth, and per transcript its
  ``verdict`` (``exact``, ``allowed``, ``behaviour``, ``fail``, ``error``) and ``why``;
- ``feedback/STUDENT.txt``: what the student sees (:func:`casino.grade.results.feedback`);
- ``summary.html``: one page for staff (:mod:`casino.grade.summary`).

A class checked by a tester on rubric lines (``casino stud check``) gets the same files with a
column per line instead of per transcript (:func:`lines_gradebook_csv`,
:func:`lines_gradebook_json`); this module is the one writer of both gradebooks.

Students are in name order and nothing depends on timing, so the files are the same whatever
the engine or ``--jobs``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence

from casino.grade.course import Material
from casino.grade.late import Lateness
from casino.grade.results import LineResult, StudentResult
from casino.grade.summary import summary_html as summary_html
from casino.harness.report import escaped_controls, points_text

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: a leading ``=``, ``+``, ``-``, ``@``, tab or
    carriage return quoted with ``'`` (OWASP's list), and every other control character
    (ESC, C1…) but line feeds and tabs written ``\\xNN``."""
    quoted = f"'{text}" if text.startswith(_FORMULA_START) else text
    return escaped_controls(quoted, keep="\n\t")


LATE_COLUMNS = ("days_late", "penalty", "final")
"""The columns ``--due`` adds after ``max``."""


def _late_cells(late: Mapping[str, Lateness] | None, result: StudentResult) -> list[str]:
    """``days_late,penalty,final`` for a course graded with ``--due`` (empty cells for a
    student not graded); nothing without it."""
    if late is None:
        return []
    known = late.get(result.student)
    if known is None:
        return ["", "", ""]
    return [str(known.days), points_text(known.penalty), points_text(known.final)]


def gradebook_csv(
    materials: Sequence[Material],
    results: Sequence[StudentResult],
    late: Mapping[str, Lateness] | None = None,
) -> str:
    """``gradebook.csv`` (with ``late``: :data:`LATE_COLUMNS` after ``max``)."""
    added = list(LATE_COLUMNS) if late is not None else []
    paths = [text_cell(m.path) for m in materials]
    lenient = any(m.transcript.grading or m.transcript.allowed for m in materials)
    head = ["student", "score", "max", *added, *paths, *(["not exact"] if lenient else [])]
    rows = [
        [
            text_cell(result.student),
            points_text(result.points),
            points_text(result.max_points),
            *_late_cells(late, result),
            *(points_text(score.points) for score in result.scores),
            *([text_cell(not_exact(result))] if lenient else []),
        ]
        for result in results
    ]
    return csv_text([head, *rows])


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """``rows`` as a gradebook's CSV (lines ended ``\\n``)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def json_text(data: object) -> str:
    """``data`` as a gradebook's JSON (indented, UTF-8 as it is, a final newline)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def lines_gradebook_csv(lines: Mapping[str, float], results: Sequence[LineResult]) -> str:
    """``gradebook.csv`` of a tester's rubric ``lines`` (name → worth): ``student,score,max``,
    a column per line, then ``note``."""
    worth = points_text(sum(lines.values()))
    rows = [
        [
            text_cell(result.student),
            points_text(result.score),
            worth,
            *(points_text(result.points[line]) for line in lines),
            text_cell(result.note),
        ]
        for result in results
    ]
    return csv_text([["student", "score", "max", *lines, "note"], *rows])


def lines_gradebook_json(lines: Mapping[str, float], results: Sequence[LineResult]) -> str:
    """``gradebook.json`` of a tester's rubric ``lines``: the same, with each line's worth."""
    worth = sum(lines.values())
    data = {
        "max": worth,
        "lines": [{"name": name, "max_points": points} for name, points in lines.items()],
        "students": [
            {
                "student": result.student,
                "score": result.score,
                "max": worth,
                "points": result.points,
                "tested": result.tested,
                "note": result.note,
            }
            for result in results
        ],
    }
    return json_text(data)


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


def gradebook_json(
    materials: Sequence[Material],
    results: Sequence[StudentResult],
    late: Mapping[str, Lateness] | None = None,
) -> str:
    """``gradebook.json`` (with ``late``: each student's ``late``, :func:`late_json`)."""
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
                **({} if late is None else {"late": late_json(late.get(result.student))}),
                "verdict": {score.path: score.verdict for score in result.scores},
                "why": {score.path: list(score.why) for score in result.scores if score.why},
            }
            for result in results
        ],
    }
    return json_text(data)


def late_json(late: Lateness | None) -> dict[str, object] | None:
    """A student's lateness in ``gradebook.json`` (``None``: not graded)."""
    if late is None:
        return None
    submitted = None if late.submitted is None else late.submitted.isoformat()
    return {
        "due": late.due.isoformat(),
        "extended": late.extended,
        "submitted": submitted,
        "source": late.source,
        "days": late.days,
        "raw": late.raw,
        "penalty": late.penalty,
        "final": late.final,
    }


RUBRIC_COLUMNS = ("rubric_penalty", "rubric_final", "rubric_percent", "rubric_unmarked")
"""The columns a course with rubric lines adds at the end of ``gradebook.csv``, after one
column per line (its id): the late penalty on the rubric's total, the final (the total less
it), its percentage of the rubric's maximum and the manual lines not yet marked."""


def with_rubric_csv(text: str, header: Sequence[str], cells: Mapping[str, Sequence[str]]) -> str:
    """``gradebook.csv`` (``text``) with the rubric's columns ``header`` at the end, each row's
    ``cells`` found by its student cell (empty for a student the rubric did not grade); a
    gradebook already ending in ``header`` has those columns replaced, so merging a sheet
    again rewrites them."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return text
    width = len(header)
    old = len(rows[0]) >= width and rows[0][len(rows[0]) - width :] == list(header)
    kept = [row[: len(row) - width] if old else row for row in rows]
    rest = [[*row, *cells.get(row[0] if row else "", [""] * width)] for row in kept[1:]]
    return csv_text([[*kept[0], *header], *rest])


def with_rubric_json(
    text: str, rubric: Mapping[str, object], students: Mapping[str, object]
) -> str:
    """``gradebook.json`` (``text``) with the course's ``rubric`` (its lines and maximum) and
    each student's ``rubric`` (``students``; ``None`` for one the rubric did not grade),
    replacing any already there."""
    data = json.loads(text)
    data["rubric"] = rubric
    for student in data["students"]:
        student["rubric"] = students.get(student["student"])
    return json_text(data)
