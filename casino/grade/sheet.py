"""The marker's sheet: the rubric's manual lines beside the evidence, and the final grade.

With rubric lines (:mod:`casino.grade.lines`), ``casino grade`` writes under ``--out``:

- ``marking/STUDENT.html``: one page per student: every automatic line with what casino
  found, then each manual line with its scale and its evidence (the code with its size and
  pycodestyle figures, the commit list, the files found, the safety sessions);
- ``marking/sheet.csv``: ``student,line,points,scale,score,comment,flag``, one row per student
  and manual line, for the marker to fill in (``score`` one of the scale's values, or any
  number from 0 to ``points`` without a scale). A regrade keeps every score and comment
  already in it; a line whose scale changed since is flagged (``flag``);
- ``rubric.json``: what ``casino grade marks`` needs (the lines, each student's automatic
  points, the late rule and days, the platform identities);
- ``rubric.csv``: the rubric's gradebook: each line's points, the total, the late penalty
  (applied last, to the rubric's total) and the final score and percentage;
- ``gradebook.csv`` / ``gradebook.json`` get the same: a column (field) per line, then the
  penalty, final, percentage and lines not marked (:data:`casino.grade.books.RUBRIC_COLUMNS`;
  in the JSON each student's ``rubric`` and the course's ``rubric``);
- with a platform's intake, its grade import (``moodle.csv``, ``canvas.csv``,
  ``blackboard.csv``) holds the rubric's final grade (empty, with a comment, while a
  student's manual lines are not all marked).

The rubric's gradebook and the platform's file are written by :mod:`casino.grade.rubricbook`.

``casino grade marks SHEET.csv --out DIR`` reads a filled sheet, checks every score, keeps it
as ``DIR/marking/sheet.csv`` and writes ``rubric.csv``, the gradebooks' rubric columns and
the platform's file again.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import html
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from casino.files import write_atomic
from casino.grade.books import text_cell
from casino.grade.cache import signing_key
from casino.grade.course import Course, Student, file_stem, submission_files
from casino.grade.late import Lateness
from casino.grade.lines import (
    History,
    Judged,
    Known,
    Line,
    Verdict,
    judge,
    python_files,
    source_files,
)
from casino.grade.platforms import Identity
from casino.grade.results import StudentResult
from casino.grade.rubricbook import MarksError, Row, scale_text, state_lines, write_books
from casino.harness.report import escaped_controls, points_text
from casino.page import page_head

SHEET_COLUMNS = ("student", "line", "points", "scale", "score", "comment", "flag")
MAX_SHOWN_LINES = 400
"""Lines of each source file a marker's page shows."""


@dataclass
class Marking:
    """The rubric's lines and, per student, the automatic points and the marker's page."""

    lines: tuple[Line, ...]
    auto: dict[str, dict[str, float]]
    pages: dict[str, str]
    ran: dict[str, Known] = field(default_factory=dict)
    """The run lines' verdicts, by student, for the next grading to reuse."""


def gather(
    lines: tuple[Line, ...],
    course: Course,
    students: Sequence[Student],
    results: Sequence[StudentResult],
    histories: Mapping[str, History] | None = None,
    earlier: Mapping[str, Known] | None = None,
) -> Marking:
    """Judge every automatic line for every graded student, and write each one's page
    (``histories``: the Git intake's, by student; ``earlier``: the run lines' verdicts of
    the grading before, :func:`earlier_runs`)."""
    by_name = {result.student: result for result in results}
    auto: dict[str, dict[str, float]] = {}
    pages: dict[str, str] = {}
    ran: dict[str, Known] = {}
    for student in students:
        result = by_name.get(student.name)
        if result is None or result.note is not None:
            continue
        try:
            history = (histories or {}).get(student.name)
            known = (earlier or {}).get(student.name)
            judged = judge(lines, course, student, result, history, known)
        except Exception as error:  # this submission's alone (an unreadable file, …)
            why = f"could not be judged: {error!r}"
            judged = Judged(
                {line.id: Verdict(0.0, why) for line in lines if line.automatic}, [], []
            )
        auto[student.name] = {key: verdict.points for key, verdict in judged.verdicts.items()}
        ran[student.name] = judged.ran
        pages[student.name] = page(student, lines, judged, result.explored)
    return Marking(lines, auto, pages, ran)


def _escape(text: str) -> str:
    """Text from a submission as HTML: control characters written ``\\xNN``, then escaped."""
    return html.escape(escaped_controls(text, keep="\n\t"))


# --- the page -------------------------------------------------------------------------------


def page(student: Student, lines: tuple[Line, ...], judged: Judged, explored: str = "") -> str:
    """A student's marking page: inert HTML (no script), every text escaped (``explored``:
    what ``--explore`` found, for the ``explore`` evidence)."""
    e = _escape
    parts = [f"<h1>{e(student.name)}: the rubric</h1>", "<h2>Checked by casino</h2>", "<ul>"]
    for line in lines:
        if line.automatic:
            verdict = judged.verdicts[line.id]
            parts.append(
                f"<li><b>{e(line.text)}</b> ({e(line.kind)}): "
                f"{points_text(verdict.points)}/{points_text(line.points)}"
                f"<pre>{e(verdict.why)}</pre></li>"
            )
    parts += ["</ul>", "<h2>For the marker</h2>"]
    for line in lines:
        if not line.automatic:
            parts.append(
                f"<h3>{e(line.text)}</h3>"
                f"<p>{points_text(line.points)} points; scale {e(scale_text(line))}</p>"
            )
            parts += [
                _evidence(kind, student.folder, lines, judged, explored)
                for kind in line.options.get("evidence", ())
            ]
    body = "\n".join(parts)
    return (
        page_head(student.name, "pre{background:#f4f4f4;padding:4px}", compact=True)
        + f"\n{body}\n</body></html>\n"
    )


def _evidence(
    kind: str, folder: Path, lines: tuple[Line, ...], judged: Judged, explored: str
) -> str:
    e = _escape
    if kind == "explore":
        return f"<h4>casino explore</h4><pre>{e(explored or 'not explored (--explore)')}</pre>"
    if kind == "commits":
        rows = [
            f"<tr><td>{e(c.hash)}</td><td>{e(c.when.isoformat())}</td>"
            f"<td>{c.changed}</td><td>{e(c.subject)}</td></tr>"
            for c in judged.commits
        ]
        head = "<tr><th>commit</th><th>when</th><th>lines changed</th><th>message</th></tr>"
        return f"<h4>{len(judged.commits)} commits</h4><table>{head}{''.join(rows)}</table>"
    if kind == "lint":
        shown = e("\n".join(judged.lint[:200]))
        return f"<h4>pycodestyle: {len(judged.lint)} problems</h4><pre>{shown}</pre>"
    if kind == "safety":
        said = [judged.verdicts[line.id].why for line in lines if line.kind == "safety"]
        return f"<h4>Safety sessions</h4><pre>{e(chr(10).join(said) or 'no safety line')}</pre>"
    if kind == "code":
        return _code(folder, judged)
    return _files(folder, kind.removeprefix("files:"))


def code_figures(text: str) -> tuple[int, int, int]:
    """A file's lines, comment lines (``#`` or ``//`` first, docstring or ``/* */`` lines
    not told apart) and definitions (``def``, ``class``)."""
    rows = text.splitlines()
    comments = sum(row.strip().startswith(("#", "//", "/*", "*")) for row in rows)
    definitions = sum(row.strip().startswith(("def ", "class ", "async def ")) for row in rows)
    return len(rows), comments, definitions


def _code(folder: Path, judged: Judged) -> str:
    e = _escape
    files = python_files(folder) or source_files(folder, ".java")
    parts = [
        "<h4>The code</h4><table><tr><th>file</th><th>lines</th><th>comment lines</th>"
        "<th>definitions</th><th>pycodestyle</th></tr>"
    ]
    shown = []
    for path in files:
        name = path.relative_to(folder).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        size, comments, definitions = code_figures(text)
        lint = sum(problem.startswith(f"{name}:") for problem in judged.lint)
        parts.append(
            f"<tr><td>{e(name)}</td><td>{size}</td><td>{comments}</td>"
            f"<td>{definitions}</td><td>{lint}</td></tr>"
        )
        kept = "\n".join(text.splitlines()[:MAX_SHOWN_LINES])
        shown.append(f"<h5>{e(name)}</h5><pre>{e(kept)}</pre>")
    return "".join(parts) + "</table>" + "".join(shown)


def _files(folder: Path, where: str) -> str:
    """The submission's regular files in folder ``where``, or matching the glob ``where``."""
    e = _escape
    inside = where.rstrip("/") + "/"
    found = submission_files(folder)
    names = [name for name, _ in found if name.startswith(inside) or fnmatch(name, where)]
    listing = "".join(f"<li>{e(name)}</li>" for name in names) or "<li>none found</li>"
    return f"<h4>Files in {e(where)}</h4><ul>{listing}</ul>"


# --- the sheet ------------------------------------------------------------------------------


def read_sheet(path: Path) -> dict[tuple[str, str], Row]:
    """A sheet's rows by (student, line); ``{}`` when there is none yet."""
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8", newline="") as stream:
        rows = [
            {key: _unquoted(value or "") for key, value in row.items() if key}
            for row in csv.DictReader(stream)
        ]
    return {(row.get("student", ""), row.get("line", "")): row for row in rows}


def _unquoted(cell: str) -> str:
    """A cell as it was before :func:`~casino.grade.books.text_cell` quoted it (``'=x`` is
    ``=x``), so a student named ``-x`` keeps its marks from one grading to the next."""
    quoted = cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@", "\t", "\r")
    return cell[1:] if quoted else cell


def sheet_rows(
    lines: tuple[Line, ...], students: Sequence[str], kept: Mapping[tuple[str, str], Row]
) -> list[Row]:
    """The sheet's rows: every student × manual line, with the scores and comments ``kept``
    from the sheet before, flagged where the line's scale changed since."""
    rows = []
    for student in students:
        for line in lines:
            if line.automatic:
                continue
            old = kept.get((student, line.id), {})
            scale = scale_text(line)
            flag = old.get("flag", "")
            if old and old.get("scale", scale) != scale:
                flag = f"scale changed (was {old['scale']}): check the score"
            values = [
                student,
                line.id,
                points_text(line.points),
                scale,
                old.get("score", ""),
                old.get("comment", ""),
                flag,
            ]
            rows.append(dict(zip(SHEET_COLUMNS, values, strict=True)))
    return rows


def sheet_csv(rows: Sequence[Row]) -> str:
    """The sheet as CSV (cells a spreadsheet would obey written as text)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(SHEET_COLUMNS)
    for row in rows:
        writer.writerow(
            [
                text_cell(row[column]) if column in ("student", "comment") else row[column]
                for column in SHEET_COLUMNS
            ]
        )
    return buffer.getvalue()


def write_marking(
    out: Path,
    marking: Marking,
    late: Mapping[str, Lateness] | None,
    rule: str | None,
    identities: Mapping[str, Identity],
    platform: tuple[str, str],
) -> None:
    """Everything of the module's docstring, keeping the sheet's marks (``platform``: the
    intake's layout and ``--assignment``)."""
    (out / "marking").mkdir(parents=True, exist_ok=True)
    for student, text in marking.pages.items():
        write_atomic(out / "marking" / f"{file_stem(student)}.html", text)
    sheet = out / "marking" / "sheet.csv"
    rows = sheet_rows(marking.lines, sorted(marking.auto), read_sheet(sheet))
    write_atomic(sheet, sheet_csv(rows))
    state = {
        "lines": [line.data() for line in marking.lines],
        "auto": marking.auto,
        "rule": rule,
        "days": {name: known.days for name, known in (late or {}).items()},
        "identities": {name: [i.platform, i.id, i.name] for name, i in identities.items()},
        "layout": platform[0],
        "assignment": platform[1],
        **_signed_runs(out, marking.ran),
    }
    write_atomic(out / "rubric.json", json.dumps(state, indent=1, sort_keys=True) + "\n")
    write_books(out, state, rows, strict=False)


def _runs_mac(out: Path, runs: Any) -> str:
    text = json.dumps(runs, sort_keys=True).encode("utf-8")
    return hmac.new(signing_key(out / "cache" / ".key"), text, hashlib.sha256).hexdigest()


def _signed_runs(out: Path, ran: Mapping[str, Known]) -> dict[str, Any]:
    """The run lines' verdicts as ``rubric.json`` keeps them, signed as the cache is."""
    runs = {
        student: {line: [key, verdict.points, verdict.why] for line, (key, verdict) in kept.items()}
        for student, kept in ran.items()
    }
    return {"runs": runs, "runs_mac": _runs_mac(out, runs)}


def earlier_runs(out: Path) -> dict[str, Known]:
    """The run lines' verdicts the last grading into ``out`` kept (``{}``: none, or not
    signed with this grader's key: judged again)."""
    try:
        state = json.loads((out / "rubric.json").read_text(encoding="utf-8"))
        runs, mac = state["runs"], state["runs_mac"]
        if not hmac.compare_digest(str(mac), _runs_mac(out, runs)):
            return {}
        return {
            student: {
                line: (key, Verdict(float(points), why))
                for line, (key, points, why) in kept.items()
            }
            for student, kept in runs.items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def merge_marks(sheet: Path, out: Path) -> str:
    """``casino grade marks``: the filled ``sheet`` merged into ``out``; what was written."""
    state_file = out / "rubric.json"
    if not state_file.is_file():
        raise MarksError(f"no {state_file}: grade the course with rubric lines first")
    state = json.loads(state_file.read_text(encoding="utf-8"))
    lines = state_lines(state)
    filled = read_sheet(sheet)
    rows = sheet_rows(lines, sorted(state["auto"]), filled)
    unknown = sorted(set(filled) - {(row["student"], row["line"]) for row in rows})
    if unknown:
        raise MarksError(
            f"{sheet}: no student {unknown[0][0]!r} with a manual line {unknown[0][1]!r}"
        )
    (out / "marking").mkdir(parents=True, exist_ok=True)
    write_atomic(out / "marking" / "sheet.csv", sheet_csv(rows))
    return write_books(out, state, rows)
