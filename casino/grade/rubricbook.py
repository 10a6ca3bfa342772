"""The rubric's gradebook: each student's lines, total, late penalty and final grade, as
``rubric.csv``, the rubric's columns of ``gradebook.csv`` / ``gradebook.json`` and the
platform's grade import (:mod:`casino.grade.platforms`), from the state ``rubric.json`` keeps
and the marker's sheet (:mod:`casino.grade.sheet`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from casino.errors import CasinoError
from casino.files import write_atomic
from casino.grade.books import RUBRIC_COLUMNS, text_cell, with_rubric_csv, with_rubric_json
from casino.grade.late import parse_rule
from casino.grade.lines import Line
from casino.grade.platforms import GradeRow, Identity, find_platform
from casino.harness.report import points_text


class MarksError(CasinoError):
    """A filled sheet that cannot be merged (one line)."""


Row = dict[str, str]


def scale_text(line: Line) -> str:
    """The scale as the sheet shows it: ``0 / 0.4 / 0.8 / 1.2 / 1.5``, or ``0 to 5``."""
    if line.scale:
        return " / ".join(points_text(value) for value in line.scale)
    return f"0 to {points_text(line.points)}"


def manual_score(line: Line, row: Row, number: int) -> float | None:
    """The marker's score on one row (``None``: not marked yet); :class:`MarksError` if it is
    not on the line's scale."""
    text = row.get("score", "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise MarksError(f"row {number}: score {text!r} is not a number") from None
    if line.scale and value not in line.scale:
        raise MarksError(
            f"row {number}: score {text} is not on the scale {scale_text(line)} of {line.id}"
        )
    if not 0 <= value <= line.points:
        raise MarksError(f"row {number}: score {text} is not from 0 to {points_text(line.points)}")
    return value


def state_lines(state: Mapping[str, Any]) -> tuple[Line, ...]:
    """The rubric's lines as ``rubric.json`` keeps them."""
    fixed = ("id", "text", "kind", "points")
    return tuple(
        Line(
            d["id"],
            d["text"],
            d["kind"],
            float(d["points"]),
            {k: v for k, v in d.items() if k not in fixed},
        )
        for d in state["lines"]
    )


@dataclass
class Final:
    """One student's rubric grade."""

    points: dict[str, float | None]
    raw: float
    penalty: float
    unmarked: int

    @property
    def final(self) -> float:
        """The total less the late penalty."""
        return self.raw - self.penalty


def finals(state: Mapping[str, Any], rows: Sequence[Row], strict: bool = True) -> dict[str, Final]:
    """Every student's lines, total and late penalty (the rule applied last, to the total).
    A score off its line's scale is a :class:`MarksError` when ``strict`` (merging a sheet),
    else not marked (a regrade after the scale changed: the row is flagged)."""
    lines = {line.id: line for line in state_lines(state)}
    worth = worth_of(lines.values())
    rule = None if state["rule"] is None else parse_rule(state["rule"])
    marked: dict[str, dict[str, float | None]] = {}
    for number, row in enumerate(rows, 2):
        try:
            score = manual_score(lines[row["line"]], row, number)
        except MarksError:
            if strict:
                raise
            score = None
        marked.setdefault(row["student"], {})[row["line"]] = score
    result = {}
    for student, auto in sorted(state["auto"].items()):
        points: dict[str, float | None] = {key: auto.get(key) for key in lines}
        points.update(marked.get(student, {}))
        raw = sum(value or 0.0 for value in points.values())
        days = state["days"].get(student, 0)
        penalty = 0.0 if rule is None else rule.penalty(raw, worth, days)
        result[student] = Final(points, raw, penalty, sum(v is None for v in points.values()))
    return result


def worth_of(lines: Iterable[Line]) -> float:
    """The rubric's maximum: every line's points but a bonus's."""
    return sum(line.points for line in lines if not line.bonus)


def percent(value: float, worth: float) -> str:
    """``value`` of ``worth`` as a percentage with at most two decimals."""
    return points_text(round(100 * value / worth, 2) if worth else 0.0)


def write_books(
    out: Path, state: Mapping[str, Any], rows: Sequence[Row], strict: bool = True
) -> str:
    """``rubric.csv``, the rubric's columns in ``gradebook.csv`` and ``gradebook.json`` (when
    ``out`` has them) and the platform's grade import; the files written, in words
    (``strict``: see :func:`finals`)."""
    lines = state_lines(state)
    worth = worth_of(lines)
    graded = finals(state, rows, strict)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "student",
            *(line.id for line in lines),
            "total",
            "max",
            "penalty",
            "final",
            "percent",
            "unmarked",
        ]
    )
    for student, final in graded.items():
        cells = _line_cells(lines, final)
        money = [
            points_text(final.raw),
            points_text(worth),
            points_text(final.penalty),
            points_text(final.final),
        ]
        writer.writerow(
            [text_cell(student), *cells, *money, percent(final.final, worth), final.unmarked]
        )
    write_atomic(out / "rubric.csv", buffer.getvalue())
    written = ["rubric.csv", *_gradebooks(out, lines, graded, worth)]
    platform = _platform_csv(state, lines, graded, worth)
    if platform is not None:
        write_atomic(out / platform[0], platform[1])
        written.append(platform[0])
    return ", ".join(written)


def _line_cells(lines: tuple[Line, ...], final: Final) -> list[str]:
    """Each line's points as a cell (empty: a manual line not marked)."""
    return [
        "" if final.points[line.id] is None else points_text(final.points[line.id] or 0.0)
        for line in lines
    ]


def _gradebooks(
    out: Path, lines: tuple[Line, ...], graded: Mapping[str, Final], worth: float
) -> list[str]:
    """The rubric's result in ``out``'s ``gradebook.csv`` and ``gradebook.json`` (each
    line's points, the late penalty, the final, its percentage, the lines not marked); the
    files rewritten (none where ``casino grade`` wrote no gradebook)."""
    written = []
    book = out / "gradebook.csv"
    if book.is_file():
        cells = {
            text_cell(student): [
                *_line_cells(lines, final),
                points_text(final.penalty),
                points_text(final.final),
                percent(final.final, worth),
                str(final.unmarked),
            ]
            for student, final in graded.items()
        }
        header = [*(text_cell(line.id) for line in lines), *RUBRIC_COLUMNS]
        text = book.read_text(encoding="utf-8")
        write_atomic(book, with_rubric_csv(text, header, cells))
        written.append(book.name)
    book = out / "gradebook.json"
    if book.is_file():
        rubric = {
            "max": worth,
            "lines": [
                {"id": line.id, "kind": line.kind, "points": line.points, "bonus": line.bonus}
                for line in lines
            ],
        }
        students = {
            student: {
                "points": final.points,
                "total": final.raw,
                "penalty": final.penalty,
                "final": final.final,
                "percent": float(percent(final.final, worth)),
                "unmarked": final.unmarked,
            }
            for student, final in graded.items()
        }
        text = book.read_text(encoding="utf-8")
        write_atomic(book, with_rubric_json(text, rubric, students))
        written.append(book.name)
    return written


def _platform_csv(
    state: Mapping[str, Any], lines: tuple[Line, ...], graded: Mapping[str, Final], worth: float
) -> tuple[str, str] | None:
    """The platform's grade import with the rubric's final grades (empty while a student's
    manual lines are not all marked); its file name and text, ``None`` without a platform."""
    platform = find_platform(state["layout"])
    if platform is None:
        return None
    rows = []
    for student, final in graded.items():
        who = state["identities"].get(student)
        if who is not None and who[0] == platform.name:
            grade = "" if final.unmarked else points_text(final.final)
            rows.append(GradeRow(Identity(*who), grade, worth, _comment(lines, final)))
    return platform.export_name, platform.grade_import(rows, state["assignment"], worth)


def _comment(lines: tuple[Line, ...], final: Final) -> str:
    """Each line's points, then the late penalty (Moodle's feedback comment)."""
    if final.unmarked:
        return f"not yet marked: {final.unmarked} rubric lines"
    said = [
        f"{line.id} {points_text(final.points[line.id] or 0.0)}/{points_text(line.points)}"
        for line in lines
    ]
    late = f"; late penalty {points_text(final.penalty)}" if final.penalty else ""
    return "; ".join(said) + late
