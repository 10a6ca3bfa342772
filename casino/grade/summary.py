"""``summary.html``: one page course staff can act on.

What it shows, top to bottom: the overview (submissions, scores, how many transcripts were
graded and how many skipped as casino-only), each transcript with how many students failed it
out of how many ran it and how (diff, crash, time-out, flood), the failing run of a chained
transcript and its most common first differences; the failure kinds with the students they hit
(a crash with its stderr line); one row per student with each transcript's outcome and a link
to the student's feedback file; the score distribution; the build failures; the skipped
transcripts.

The page is self-contained and inert: inline CSS, no script, no image, nothing fetched from
anywhere (a Content-Security-Policy says so to the browser too), and every text that comes from
a submission or a transcript is HTML-escaped. Lists whose order is not given (the most common
first differences, stderr lines) are ordered by count, then by text, so that the same course
always gives the same page.

A class checked by a tester on rubric lines (``casino stud check``) gets a page of its own
shape here too (:func:`lines_summary_html`): one row per student, a cell per line.
"""

from __future__ import annotations

import html
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from casino.grade.course import Material, file_stem
from casino.grade.late import Lateness
from casino.grade.results import KINDS, Kind, LineResult, Score, StudentResult, runs_text
from casino.harness.diff import VerdictKind
from casino.harness.report import plural, points_text
from casino.page import page_head

LABELS: dict[Kind, str] = {
    Kind.PASS: "pass",
    Kind.DIFF: "diff",
    Kind.CRASH: "crash",
    Kind.TIMEOUT: "time-out",
    Kind.FLOOD: "flood",
    Kind.BUILD: "build failed",
    Kind.ERROR: "error",
}
"""How each :class:`~casino.grade.results.Kind` is written on the page."""

MEANINGS: dict[Kind, str] = {
    Kind.DIFF: "ran to its end and printed something else",
    Kind.CRASH: "killed by a signal, or ended with an unexpected exit status and an error on "
    "stderr",
    Kind.TIMEOUT: "stopped for taking longer than the transcript's timeout",
    Kind.FLOOD: "stopped for printing more than its output cap",
    Kind.BUILD: "not run: the submission's build failed",
    Kind.ERROR: "could not be run at all (the program could not start, or the submission "
    "was not graded)",
}
"""What each failure kind means, in the page's table of them."""

FAILURES: tuple[Kind, ...] = tuple(kind for kind in KINDS if kind != "pass")

COMMON = 3
"""First differences shown per transcript (the most common ones)."""
STDERR_LINES = 5
"""Distinct stderr lines shown for crashes."""
NAMES = 30
"""Students named per failure kind before ``… and N more``."""
BUILD_LINES = 20
"""Lines of a failed build's output the summary shows (the feedback file has all of it)."""

_STYLE = """body{font:14px/1.4 sans-serif;margin:1.5em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}
.wide{overflow-x:auto}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.bar{background:#47a;height:1em}
pre{margin:0;white-space:pre-wrap;word-break:break-all;max-width:60em}
td.pass{background:#e6f4e6}td.diff,td.crash,td.timeout,td.flood,td.build,td.error
{background:#fbe9e7}small{color:#555}"""


def _e(text: object) -> str:
    """``text`` HTML-escaped (quotes too: it may end up in an attribute)."""
    return html.escape(str(text), quote=True)


def summary_html(
    materials: Sequence[Material],
    results: Sequence[StudentResult],
    sandbox: str,
    skipped: Sequence[str] = (),
    sections: Sequence[str] = (),
    late: Mapping[str, Lateness] | None = None,
) -> str:
    """``summary.html``; ``skipped`` are the paths of the casino-only transcripts left out;
    ``sections`` are more sections, already HTML (late work, similarity), put at the end;
    with ``late`` (``--due``), every score shown, counted and plotted is the final one, after
    the late rule, beside its parts (raw score and penalty)."""
    finals = _finals(results, late)
    parts = [
        page_head("casino grade: summary", _STYLE, viewport=True),
        "<h1>Grading summary</h1>",
        f"<p>{_e(_overview(results, finals, late is not None))}</p>",
        f'<p id="transcripts-count">{_e(transcripts_line(len(materials), len(skipped)))}</p>',
        f"<p>Sandbox: {_e(sandbox)}</p>",
        "<h2>Transcripts, most failed first</h2>",
        _transcripts(materials, results),
        "<h2>Points without the exact text</h2>",
        _exactness(materials, results),
        "<h2>Failure kinds</h2>",
        _kinds(results),
        "<h2>Students</h2>",
        _students(materials, results, finals, late),
        "<h2>Score distribution</h2>",
        _distribution(results, finals),
        "<h2>Build failures and submissions not graded</h2>",
        _build_failures(results),
        "<h2>Skipped transcripts (casino-only)</h2>",
        _skipped(skipped),
        *sections,
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def transcripts_line(graded: int, skipped: int) -> str:
    """``Transcripts: 7 graded, 7 skipped as casino-only (reference: casino).``"""
    return f"Transcripts: {graded} graded, {skipped} skipped as casino-only (reference: casino)."


def _finals(
    results: Sequence[StudentResult], late: Mapping[str, Lateness] | None
) -> dict[str, float]:
    """Each student's final score: after the late rule when there is one (a student it does
    not know, not graded, keeps the raw score), else the raw score."""
    known = late or {}
    return {r.student: known[r.student].final if r.student in known else r.points for r in results}


def _overview(results: Sequence[StudentResult], finals: Mapping[str, float], late: bool) -> str:
    if not results:
        return "No submissions."
    fractions = sorted(_fraction(result, finals) for result in results)
    mean = statistics.fmean(fractions)
    low, median, high = quartiles(fractions)
    full = sum(fraction == 1 for fraction in fractions)
    builds = sum(r.build_failed for r in results)
    missing = sum(r.note is not None for r in results)
    which = "final scores (after the late rule)" if late else "scores"
    return (
        f"{plural(len(results), 'submission')}; {which}: mean {mean:.0%}, median {median:.0%}, "
        f"quartiles {low:.0%} and {high:.0%}; {full} with full marks; "
        f"{plural(builds, 'build failure')}; {missing} not graded."
    )


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """The first quartile, the median and the third quartile of ``values``, as statisticians
    compute them: the median of an even count is the mean of the two middle values, and the
    quartiles are ``statistics.quantiles(method='inclusive')``'s (the values' own range
    split at 25 % and 75 %, linearly between neighbours: R's and Excel's ``QUARTILE.INC``);
    one value is all three."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, statistics.median(values), high


def _fraction(result: StudentResult, finals: Mapping[str, float] | None = None) -> float:
    points = result.points if finals is None else finals.get(result.student, result.points)
    return points / result.max_points if result.max_points else 0.0


def _ran(results: Sequence[StudentResult]) -> list[StudentResult]:
    """The submissions whose program ran (built, and graded at all)."""
    return [r for r in results if not r.build_failed and r.note is None]


def ranked(texts: Iterable[str], limit: int) -> list[tuple[str, int]]:
    """The ``limit`` most common texts with their counts, by count then by text (a stable
    order, whatever order the texts came in)."""
    counts = Counter(texts)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:limit]


def _transcripts(materials: Sequence[Material], results: Sequence[StudentResult]) -> str:
    ran = _ran(results)
    rows = []
    for index, material in enumerate(materials):
        failed = [r.scores[index] for r in ran if r.scores[index].kind != "pass"]
        rows.append((len(failed), index, material, failed))
    rows.sort(key=lambda row: (-row[0], row[2].path))
    lines = [
        '<div class="wide"><table><tr><th>#</th><th>transcript</th><th>points</th>'
        "<th>failed by</th><th>how</th><th>failing run</th>"
        "<th>most common first differences</th></tr>"
    ]
    for count, index, material, failed in rows:
        transcript = material.transcript
        runs = len(transcript.runs)
        lines.append(
            f'<tr id="t{index + 1}"><td>{index + 1}</td>'
            f"<td>{_e(transcript.name)}<br><small>{_e(material.path)}</small></td>"
            f"<td>{points_text(transcript.max_points)}</td>"
            f"<td>{count} of {len(ran)}</td><td>{_e(_how(failed))}</td>"
            f"<td>{_e(_failing_runs(failed, runs))}</td><td>{_differences(failed)}</td></tr>"
        )
    return "\n".join([*lines, "</table></div>"])


NOT_EXACT = {"allowed": "with an allowance", "behaviour": "behaviour only"}
"""The verdicts that earn points without the exact text, as the summary names them."""


def _exactness(materials: Sequence[Material], results: Sequence[StudentResult]) -> str:
    """Per transcript: how many students passed it exactly, how many with an allowance
    (``match:``), how many kept only its behaviour points (its rubric), and the most common
    reasons why."""
    ran = _ran(results)
    lines = [
        '<div class="wide"><table id="exactness"><tr><th>#</th><th>transcript</th>'
        "<th>exact</th><th>with an allowance</th><th>behaviour only</th>"
        "<th>most common reasons</th></tr>"
    ]
    for index, material in enumerate(materials):
        scores = [r.scores[index] for r in ran]
        count = Counter(score.verdict for score in scores)
        reasons = ranked((why for s in scores if s.verdict in NOT_EXACT for why in s.why), COMMON)
        shown = "".join(f"<pre>{_e(text)}</pre><small>{n} of them</small>" for text, n in reasons)
        lines.append(
            f'<tr><td><a href="#t{index + 1}">{index + 1}</a></td><td>{_e(material.path)}</td>'
            f"<td>{count[VerdictKind.EXACT]}</td><td>{count[VerdictKind.ALLOWED]}</td>"
            f"<td>{count[VerdictKind.BEHAVIOUR]}</td>"
            f"<td>{shown}</td></tr>"
        )
    return "\n".join([*lines, "</table></div>"])


def _how(failed: Sequence[Score]) -> str:
    """``2 diff, 1 crash``: the failures by kind, in the kinds' order."""
    kinds = Counter(score.kind for score in failed)
    return ", ".join(f"{kinds[kind]} {LABELS[kind]}" for kind in FAILURES if kinds[kind])


def _failing_runs(failed: Sequence[Score], runs: int) -> str:
    """For a chained transcript: how many failed first in each run (``run 2 of 5: 3``)."""
    firsts = Counter(score.failed_runs[0] for score in failed if score.failed_runs)
    return "; ".join(f"{runs_text((run,), runs)}: {firsts[run]}" for run in sorted(firsts))


def _differences(failed: Sequence[Score]) -> str:
    texts = (score.first_difference for score in failed if score.first_difference)
    shown = [
        f"<pre>{_e(text)}</pre><small>{times} of them</small>"
        for text, times in ranked(texts, COMMON)
    ]
    return "".join(shown)


def _kinds(results: Sequence[StudentResult]) -> str:
    lines = [
        '<div class="wide"><table><tr><th>kind</th><th>what it means</th><th>results</th>'
        "<th>students</th><th>who</th><th>detail</th></tr>"
    ]
    for kind in FAILURES:
        hit = [(r, s) for r in results for s in r.scores if s.kind == kind]
        students = sorted({r.student for r, _ in hit})
        lines.append(
            f'<tr id="kind-{kind}"><td>{LABELS[kind]}</td><td>{_e(MEANINGS[kind])}</td>'
            f"<td>{len(hit)}</td><td>{len(students)}</td><td>{_names(students)}</td>"
            f"<td>{_kind_detail(kind, [s for _, s in hit])}</td></tr>"
        )
    return "\n".join([*lines, "</table></div>"])


def _names(students: Sequence[str]) -> str:
    links = [_feedback_link(name) for name in students[:NAMES]]
    more = f" … and {len(students) - NAMES} more" if len(students) > NAMES else ""
    return ", ".join(links) + more


def _kind_detail(kind: Kind, scores: Sequence[Score]) -> str:
    """A crash's most common stderr lines; nothing for the other kinds (each student's
    feedback has the details)."""
    if kind != "crash":
        return ""
    lines = ranked((s.stderr_line for s in scores if s.stderr_line), STDERR_LINES)
    return "".join(f"<pre>{_e(text)}</pre><small>{times} of them</small>" for text, times in lines)


def _feedback_link(student: str, stem: Callable[[str], str] = file_stem) -> str:
    return f'<a href="feedback/{_e(quote(stem(student)))}.txt">{_e(student)}</a>'


def _students(
    materials: Sequence[Material],
    results: Sequence[StudentResult],
    finals: Mapping[str, float],
    late: Mapping[str, Lateness] | None,
) -> str:
    if not results:
        return "<p>No submissions.</p>"
    heads = "".join(
        f'<th><a href="#t{number}" title="{_e(m.transcript.name)} ({_e(m.path)})">{number}</a></th>'
        for number, m in enumerate(materials, 1)
    )
    scores = "<th>score</th>" if late is None else "<th>final</th><th>raw</th><th>penalty</th>"
    said = "" if late is None else " The final score is the raw score less the late penalty."
    lines = [
        "<p>Columns are the transcripts, numbered as in the table above; each student links to "
        f"the feedback file they were given.{said}</p>",
        f'<div class="wide"><table><tr><th>student</th>{scores}{heads}</tr>',
    ]
    for result in results:
        cells = "".join(_cell(score, m) for score, m in zip(result.scores, materials, strict=True))
        worth = points_text(result.max_points)
        shown = f"<td>{points_text(finals[result.student])}/{worth}</td>"
        if late is not None:
            known = late.get(result.student)
            penalty = "" if known is None else points_text(known.penalty)
            shown += f"<td>{points_text(result.points)}/{worth}</td><td>{penalty}</td>"
        lines.append(f"<tr><td>{_feedback_link(result.student)}</td>{shown}{cells}</tr>")
    return "\n".join([*lines, "</table></div>"])


def _cell(score: Score, material: Material) -> str:
    where = runs_text(score.failed_runs, len(material.transcript.runs))
    more = f"<br><small>{_e(where)}</small>" if where else ""
    if score.verdict in NOT_EXACT:
        why = _e("; ".join(score.why))
        more += f'<br><small title="{why}">{NOT_EXACT[score.verdict]}</small>'
    return f'<td class="{score.kind}">{LABELS[score.kind]}{more}</td>'


def _distribution(results: Sequence[StudentResult], finals: Mapping[str, float]) -> str:
    buckets = Counter(min(10, int(_fraction(r, finals) * 10 + 1e-9)) for r in results)
    rows = ["<table><tr><th>score</th><th>students</th><th></th></tr>"]
    for bucket in range(11):
        label = "100%" if bucket == 10 else f"{bucket * 10}–{bucket * 10 + 9}%"
        count = buckets.get(bucket, 0)
        bar = f'<div class="bar" style="width:{count * 400 // max(1, len(results))}px"></div>'
        rows.append(f"<tr><td>{label}</td><td>{count}</td><td>{bar}</td></tr>")
    return "\n".join([*rows, "</table>"])


def _build_failures(results: Sequence[StudentResult]) -> str:
    failed = [result for result in results if result.build_failed or result.note]
    if not failed:
        return "<p>None.</p>"
    lines = ["<table><tr><th>student</th><th>what happened</th></tr>"]
    for result in failed:
        text = result.build_output if result.build_failed else f"not graded: {result.note}"
        shown = "\n".join(text.splitlines()[:BUILD_LINES])
        lines.append(
            f"<tr><td>{_feedback_link(result.student)}</td><td><pre>{_e(shown)}</pre></td></tr>"
        )
    return "\n".join([*lines, "</table>"])


def _skipped(skipped: Sequence[str]) -> str:
    if not skipped:
        return "<p>None.</p>"
    items = "".join(f"<li>{_e(path)}</li>" for path in skipped)
    return (
        "<p>Only casino's own program can pass these (<code>reference: casino</code>): "
        f"they were not run and count for nothing.</p><ul>{items}</ul>"
    )


# ---------------------------------------------------------------- a tester's rubric lines

_LINES_STYLE = (
    "body{font:14px/1.4 sans-serif;margin:1.5em}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}th{background:#f3f3f3}"
    "td.pass{background:#e6f4e6}td.fail{background:#fbe9e7}"
)


@dataclass(frozen=True)
class LinesPage:
    """What a page of a tester's rubric lines says of itself."""

    title: str
    heading: str
    lines: Mapping[str, float]
    """The rubric: each line's name and worth, in order."""
    who: str = "student"
    """What the page calls a row (``player``)."""
    stem: Callable[[str], str] = file_stem
    """A student's feedback file name (without ``.txt``)."""


def lines_summary_html(page: LinesPage, results: Sequence[LineResult], sandbox: str) -> str:
    """``summary.html`` of a class checked on rubric lines: one row per student, a cell per
    line (``pass`` when it earned the line's worth), each student linked to its feedback
    file; self-contained and inert as the course's page."""
    worth = sum(page.lines.values())
    heads = "".join(
        f"<th>{_e(name)} ({points_text(points)})</th>" for name, points in page.lines.items()
    )
    rows = []
    for result in results:
        cells = "".join(
            f'<td class="{"pass" if result.points[line] == most else "fail"}">'
            f"{points_text(result.points[line])}</td>"
            for line, most in page.lines.items()
        )
        link = _feedback_link(result.student, page.stem)
        rows.append(
            f"<tr><td>{link}</td><td>{points_text(result.score)}/{points_text(worth)}</td>"
            f"{cells}<td>{_e(result.note)}</td></tr>"
        )
    full = sum(result.score == worth for result in results)
    parts = [
        page_head(page.title, _LINES_STYLE),
        f"<h1>{_e(page.heading)}</h1>",
        f"<p>{_e(plural(len(results), page.who))}; {full} with full marks.</p>",
        f"<p>Sandbox: {_e(sandbox)}</p>",
        f"<table><tr><th>{_e(page.who)}</th><th>score</th>{heads}<th>note</th></tr>",
        *rows,
        "</table></body></html>",
    ]
    return "\n".join(parts) + "\n"
