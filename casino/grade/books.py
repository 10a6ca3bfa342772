"""What a course keeps from a grading, under ``--out``.

- ``gradebook.csv``: ``student,score,max`` then one column of points per transcript (its path);
- ``gradebook.json``: the same, with each transcript's name and worth;
- ``feedback/STUDENT.txt``: what the student sees (:func:`casino.grade.results.feedback`);
- ``summary.html``: one page for staff: the score distribution, the transcripts most students
  fail with their most common first differing line, the build failures.

Students are in name order and nothing depends on timing, so the files are the same whatever
the engine or ``--jobs``.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections import Counter
from collections.abc import Sequence

from casino.grade.course import Material
from casino.grade.results import StudentResult
from casino.harness.report import points_text

_FORMULA_START = ("=", "+", "-", "@")


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text (a leading ``=``, ``+``, ``-``, ``@`` quoted)."""
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def gradebook_csv(materials: Sequence[Material], results: Sequence[StudentResult]) -> str:
    """``gradebook.csv``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "score", "max", *(_cell(m.path) for m in materials)])
    for result in results:
        writer.writerow(
            [
                _cell(result.student),
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
            }
            for result in results
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


_STYLE = """body{font:14px sans-serif;margin:2em;max-width:70em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;
vertical-align:top}.bar{background:#47a;height:1em}pre{margin:0;white-space:pre-wrap}"""


def summary_html(
    materials: Sequence[Material], results: Sequence[StudentResult], sandbox: str
) -> str:
    """``summary.html``: one page for course staff."""
    parts = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8"><title>casino grade: summary</title>',
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Grading summary</h1>",
        f"<p>{_overview(results)}</p>",
        f"<p>Sandbox: {html.escape(sandbox)}</p>",
        "<h2>Score distribution</h2>",
        _distribution(results),
        "<h2>Transcripts most students fail</h2>",
        _failing(materials, results),
        "<h2>Build failures</h2>",
        _build_failures(results),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _overview(results: Sequence[StudentResult]) -> str:
    if not results:
        return "No submissions."
    fractions = sorted(_fraction(result) for result in results)
    mean = sum(fractions) / len(fractions)
    median = fractions[len(fractions) // 2]
    full = sum(fraction == 1 for fraction in fractions)
    return (
        f"{len(results)} submissions; mean {mean:.0%}, median {median:.0%}; "
        f"{full} with full marks; {sum(r.build_failed for r in results)} build failures."
    )


def _fraction(result: StudentResult) -> float:
    return result.points / result.max_points if result.max_points else 0.0


def _distribution(results: Sequence[StudentResult]) -> str:
    buckets = Counter(min(10, int(_fraction(result) * 10 + 1e-9)) for result in results)
    rows = ["<table><tr><th>score</th><th>students</th><th></th></tr>"]
    for bucket in range(11):
        label = "100%" if bucket == 10 else f"{bucket * 10}–{bucket * 10 + 9}%"
        count = buckets.get(bucket, 0)
        bar = f'<div class="bar" style="width:{count * 400 // max(1, len(results))}px"></div>'
        rows.append(f"<tr><td>{label}</td><td>{count}</td><td>{bar}</td></tr>")
    return "\n".join([*rows, "</table>"])


def _failing(materials: Sequence[Material], results: Sequence[StudentResult]) -> str:
    rows = []
    for index, material in enumerate(materials):
        failures = [
            result.scores[index]
            for result in results
            if result.scores[index].status != "pass" and not result.build_failed
        ]
        if failures:
            common = Counter(score.first_difference or "" for score in failures).most_common(1)
            rows.append((len(failures), material, common[0]))
    if not rows:
        return "<p>None: every built submission passed every transcript.</p>"
    rows.sort(key=lambda row: (-row[0], row[1].path))
    lines = [
        "<table><tr><th>transcript</th><th>failed by</th>"
        "<th>most common first difference</th><th>of them</th></tr>"
    ]
    for count, material, (difference, times) in rows:
        name = html.escape(f"{material.transcript.name} ({material.path})")
        lines.append(
            f"<tr><td>{name}</td><td>{count}</td>"
            f"<td><pre>{html.escape(difference)}</pre></td><td>{times}</td></tr>"
        )
    return "\n".join([*lines, "</table>"])


_BUILD_LINES = 20
"""Lines of a failed build's output the summary shows (the feedback file has all of it)."""


def _build_failures(results: Sequence[StudentResult]) -> str:
    failed = [result for result in results if result.build_failed or result.note]
    if not failed:
        return "<p>None.</p>"
    lines = ["<table><tr><th>student</th><th>what happened</th></tr>"]
    for result in failed:
        text = result.build_output if result.build_failed else f"not graded: {result.note}"
        shown = "\n".join(text.splitlines()[:_BUILD_LINES])
        lines.append(
            f"<tr><td>{html.escape(result.student)}</td>"
            f"<td><pre>{html.escape(shown)}</pre></td></tr>"
        )
    return "\n".join([*lines, "</table>"])
