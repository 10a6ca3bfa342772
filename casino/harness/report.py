"""The text report: one line per transcript, and for a failure exactly where and how it failed.

::

    FAIL adds two numbers (transcripts/demo/add.yaml)
      output differs at step 3 (out), line 2, column 9:
        expected: 2·+·3·=·5⏎
        actual:   2·+·3·=·6⏎
                          ^
      --- expected output
      +++ actual output
      @@ -1,3 +1,3 @@
       casino demo calculator (type help)
      -$ 2 + 3 = 5
      +$ 2 + 3 = 6
       $ bye

In the located difference every space is ``·``, newline ``⏎``, tab ``→``, carriage return
``␍``, and any other control character ``\\xNN``. The unified diff shows the *whole* expected
and actual output (full context: nothing the program printed is ever cut), with tabs, carriage
returns and trailing spaces made visible and a missing final newline marked as diff does.
"""

from __future__ import annotations

from casino.harness.diff import RunVerdict
from casino.harness.matching import TextComparison
from casino.harness.session import Status, TranscriptResult

_VISIBLE = {" ": "·", "\t": "→", "\n": "⏎", "\r": "␍"}
_INDENT = "  "


def visible(text: str) -> str:
    """``text`` with every whitespace and control character made visible."""
    return "".join(_VISIBLE.get(char) or _control(char) for char in text)


def _control(char: str) -> str:
    """A control character (C0, DEL, or C1: U+0080–U+009F, which a terminal may take as
    ESC + a letter, U+009B being CSI) as ``\\xNN``; any other as it is."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x20 or 0x7F <= code <= 0x9F else char


def escaped_controls(text: str, keep: str = "") -> str:
    """``text`` with every control character but those in ``keep`` written ``\\xNN``: what
    casino does to text from a program or a submission before it shows it anywhere."""
    return "".join(char if char in keep else _control(char) for char in text)


def points_text(value: float) -> str:
    """``2``, ``1.5`` or ``0.33``: points rounded to 2 decimal places, without needless zeros.

    Points are kept exact (a third of a point is a third); only what is shown is rounded."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


FEEDBACK_ONLY = "(feedback only: worth no points)"
"""What a scored run worth 0 points shows instead of its marks."""


def marks(earned: float, worth: float) -> str:
    """``[1.5/3]``: points earned of points there were."""
    return f"[{points_text(earned)}/{points_text(worth)}]"


def headline(result: TranscriptResult, *, score: bool = False) -> str:
    """``PASS name (path)``, ``FAIL name (path)``, ``PARTIAL name (path)`` (a run kept its
    behaviour points only), ``SKIP name (path): why`` or
    ``ERROR path: problem``; ``(match: trailing-space)`` at the end when near misses were
    allowed."""
    shown = f" {marks(result.points, result.max_points)}" if score else ""
    if result.status is Status.ERROR:
        return f"ERROR{shown} {result.error}"
    if result.status is Status.SKIP:
        return f"SKIP {result.name} ({result.path}): {result.error}"
    allowed = f" (match: {', '.join(result.allowed)})" if result.allowed else ""
    word = "PARTIAL" if result.kind == "behaviour" and not result.passed else result.status.value
    if score and feedback_only(result):
        word = "PASS"
    return f"{word}{shown} {result.name} ({result.path}){allowed}"


def feedback_only(result: TranscriptResult) -> bool:
    """Whether ``result`` failed only in runs worth no points, though others carry points:
    scored, such a run is feedback only (shown, and its failure explained, but it costs
    nothing), so the transcript is a ``PASS`` with all its points — never a ``PARTIAL [4/4]``.
    (A transcript worth nothing at all keeps its own verdict, shown with ``[0/0]``.)"""
    if result.status is not Status.FAIL or not result.verdicts or not result.max_points:
        return False
    worths = result.run_points
    return len(worths) == len(result.verdicts) and all(
        verdict.passed or worth == 0 for verdict, worth in zip(result.verdicts, worths, strict=True)
    )


def verdict_word(verdict: RunVerdict) -> str:
    """``PASS``, ``PARTIAL`` (behaviour points kept, format lost) or ``FAIL``."""
    if verdict.passed or verdict.credit >= 1:  # a rubric without a format share: all points
        return "PASS"
    return "PARTIAL" if verdict.kind == "behaviour" else "FAIL"


def details(result: TranscriptResult, *, score: bool = False) -> str:
    """Everything about a failure, each line indented (``""`` for a pass or an error). A
    failed chain lists each of its runs, ``run 2 of 5: FAIL [0/1]`` (points with ``score``),
    the failed ones with their details."""
    lines: list[str] = []
    count = len(result.verdicts)
    chain = count > 1 and not result.passed
    for number, verdict in enumerate(result.verdicts, 1):
        prefix = f"run {number} of {count}: " if count > 1 else ""
        if chain:
            worth = result.run_points[number - 1] if result.run_points else 0.0
            points = f" {marks(result.run_earned(number - 1), worth)}" if score else ""
            if score and worth == 0:
                points = f" {FEEDBACK_ONLY}"
            lines.append(f"run {number} of {count}: {verdict_word(verdict)}{points}")
        if not verdict.passed:
            lines += run_details(verdict, prefix, f" (run {number})" if count > 1 else "")
        elif verdict.output.note:
            lines.append(f"{prefix}output {verdict.output.note}")
    return "".join(f"{_INDENT}{line}\n" for line in lines)


def render(result: TranscriptResult, *, score: bool = False) -> str:
    """The headline and, for a failure, its details."""
    return headline(result, score=score) + "\n" + details(result, score=score)


def run_details(verdict: RunVerdict, prefix: str, suffix: str) -> list[str]:
    """The lines describing one failed run (a near miss named in words above its diff)."""
    lines = []
    if verdict.why:
        lines.append(f"{prefix}{verdict.why}")
    if verdict.problem:
        lines.append(f"{prefix}{verdict.problem}")
    if verdict.output.difference is not None:
        if verdict.output.note:
            lines.append(f"{prefix}output {verdict.output.note}")
        lines += located(verdict.output, f"{prefix}output differs")
        lines += unified(verdict.output, f"output{suffix}")
    if verdict.stderr is not None and verdict.stderr.difference is not None:
        lines += located(verdict.stderr, f"{prefix}stderr differs", by_step=False)
        lines += unified(verdict.stderr, f"stderr{suffix}")
    if verdict.exit_differs and verdict.exit_actual is not None:  # else the problem says why
        lines.append(f"{prefix}exit status {verdict.exit_actual}, expected {verdict.exit_expected}")
    if verdict.unpinned_stderr or verdict.stderr_dropped:
        lines += stderr_shown(verdict.unpinned_stderr, verdict.stderr_dropped, prefix)
    return lines


STDERR_SHOWN = 16384
"""Characters of an unpinned stderr a report shows; the rest is counted, never cut silently."""


def stderr_shown(text: str, dropped: int, prefix: str = "") -> list[str]:
    """What the program wrote to stderr (not compared: the transcript does not state it), at
    most :data:`STDERR_SHOWN` characters, then ``… N more bytes`` for whatever is not shown."""
    shown = text[:STDERR_SHOWN]
    more = len(text[STDERR_SHOWN:].encode("utf-8", "surrogateescape")) + dropped
    lines = [f"{prefix}stderr (not compared):"]
    lines += [f"  {_stderr_line(line)}" for line in shown.splitlines()]
    if more:
        lines.append(f"  … {more} more byte{'' if more == 1 else 's'}")
    return lines


def _stderr_line(line: str) -> str:
    """A stderr line as written (tabs kept), other control characters made visible."""
    return "".join(char if char == "\t" else _control(char) for char in line)


def located(comparison: TextComparison, what: str, *, by_step: bool = True) -> list[str]:
    """Where the texts part: the step, line and column, both lines visible, a caret under it."""
    difference = comparison.difference
    assert difference is not None
    place = f"{difference.step or 'the end, after the last step'}, " if by_step else ""
    head = f"{what} at {place}"
    start = comparison.expected.rfind("\n", 0, difference.offset) + 1
    lead = visible(comparison.expected[start : difference.offset])
    return [
        f"{head}line {difference.line}, column {difference.column}:",
        f"  expected: {_line_from(comparison.expected, start)}",
        f"  actual:   {_line_from(comparison.actual, start)}",
        f"            {' ' * len(lead)}^",
    ]


def _line_from(text: str, start: int) -> str:
    """The line of ``text`` starting at ``start``, visible, or a note where the text ends."""
    end = text.find("\n", start)
    if end >= 0:
        return visible(text[start : end + 1])
    shown = visible(text[start:])
    return f"{shown} (end of text)" if shown else "(end of text)"


def unified(comparison: TextComparison, what: str) -> list[str]:
    """A unified diff of the whole expected and actual text (full context, never cut)."""
    expected = comparison.expected.splitlines(keepends=True)
    actual = comparison.actual.splitlines(keepends=True)
    context = max(len(expected), len(actual))
    lines = []
    import difflib  # here: only a run that differs is shown as a diff

    diff = difflib.unified_diff(
        expected, actual, f"expected {what}", f"actual {what}", n=context, lineterm=""
    )
    for line in diff:
        if line.startswith(("---", "+++", "@@")):
            lines.append(line.rstrip("\n"))
            continue
        lines.append(line[0] + _diff_visible(line[1:]))
        if not line.endswith("\n"):
            lines.append("\\ No newline at end of text")
    return lines


def _diff_visible(line: str) -> str:
    """A diff line: tabs, ``\\r`` and control characters visible, trailing spaces as ``·``."""
    body = line.removesuffix("\n")
    stripped = body.rstrip(" ")
    shown = "".join(
        "→" if char == "\t" else "␍" if char == "\r" else _control(char) for char in stripped
    )
    return shown + "·" * (len(body) - len(stripped))


def summary(results: list[TranscriptResult], *, score: bool = False) -> str:
    """``3 passed, 1 failed, 1 error, 2 skipped (7 transcripts)`` (``2 failed (1 partial)``
    when some kept behaviour points only) and, with ``score``, the total (skipped transcripts
    count towards neither side of it)."""
    counts = {status: sum(r.status is status for r in results) for status in Status}
    parts = [f"{counts[Status.PASS]} passed", f"{counts[Status.FAIL]} failed"]
    partial = sum(r.status is Status.FAIL and r.kind == "behaviour" for r in results)
    if partial:  # failed, but kept behaviour points by the rubric
        parts[1] += f" ({partial} partial)"
    if counts[Status.ERROR]:
        errors = counts[Status.ERROR]
        parts.append(f"{errors} error{'' if errors == 1 else 's'}")
    if counts[Status.SKIP]:
        parts.append(f"{counts[Status.SKIP]} skipped")
    line = f"{', '.join(parts)} ({plural(len(results), 'transcript')})"
    if score:
        counted = [r for r in results if r.counted]
        earned = points_text(sum(r.points for r in counted))
        line += f"\nscore: {earned}/{points_text(sum(r.max_points for r in counted))}"
    return line


def plural(count: int, noun: str) -> str:
    """``1 transcript``, ``3 transcripts``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
