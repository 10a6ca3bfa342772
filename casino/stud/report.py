"""The automatic tester's reports: text, and the JSON, JUnit and Gradescope files of
``casino replay`` (same shapes, written by the same writers through
:class:`~casino.harness.formats.Case`; one test per rubric line instead of per transcript).

The text report is each rubric line (its failures once each, with the probe), then what
happened in the sessions that have something to tell (how one ended early, and the player's
stderr), then the score. In the other formats each line's text carries the sessions in which
it lost points, so a failed test shows the stack trace that explains it; when every line
passed, the first one ("connects to the dealer") carries every session's stderr.
"""

from __future__ import annotations

from collections.abc import Callable

from casino.harness.formats import Case, gradescope_report, json_report, junit_report
from casino.harness.report import points_text, stderr_shown
from casino.harness.session import Status
from casino.stud.check import Checked, CheckResult, SessionLog

SUITE = "casino stud check"


def render(result: CheckResult) -> str:
    """``PASS [15/15] connects to the dealer`` and, for a failure, each problem indented."""
    status = "PASS" if result.passed else "FAIL"
    marks = f"[{points_text(result.points)}/{points_text(result.max_points)}]"
    lines = [f"{status} {marks} {result.name}", *(f"  {problem}" for problem in result.problems)]
    return "\n".join(lines) + "\n"


def told(log: SessionLog) -> str:
    """How session ``log`` ended early and what the player wrote to stderr in it (capped as
    the harness caps it); ``""`` when there is nothing to tell."""
    lines = [f"{log.title}: {log.note}"] if log.note else []
    if log.stderr or log.stderr_dropped:
        if not lines:
            lines.append(f"{log.title}:")
        lines.append("  stderr:")
        lines += [f"  {line}" for line in stderr_shown(log.stderr, log.stderr_dropped)[1:]]
    return "".join(f"{line}\n" for line in lines)


def text_report(checked: Checked) -> str:
    """Every line, then the sessions with something to tell, then the total."""
    results = checked.results
    total = sum(r.points for r in results)
    most = sum(r.max_points for r in results)
    body = "".join(render(result) for result in results)
    body += "".join(told(log) for log in checked.sessions)
    return body + f"score: {points_text(total)}/{points_text(most)}\n"


def case_of(result: CheckResult, checked: Checked) -> Case:
    """A rubric line as a report item, with the sessions that explain its lost points."""
    numbers = result.sessions
    if checked.passed and result is checked.results[0]:
        numbers = [log.number for log in checked.sessions]
    extra = "".join(told(log) for log in checked.sessions if log.number in numbers)
    return Case(
        name=result.name,
        path=SUITE,
        status=Status.PASS if result.passed else Status.FAIL,
        points=result.points,
        max_points=result.max_points,
        seconds=result.seconds,
        output=render(result) + extra,
        message=result.problems[0] if result.problems else "",
        classname="stud.check",
    )


def _cases(checked: Checked) -> list[Case]:
    return [case_of(result, checked) for result in checked.results]


def to_json(checked: Checked) -> str:
    """The JSON report, shaped as ``casino replay``'s."""
    return json_report(_cases(checked))


def to_junit(checked: Checked) -> str:
    """The JUnit XML report: one test case per rubric line."""
    return junit_report(_cases(checked), SUITE)


def to_gradescope(checked: Checked) -> str:
    """Gradescope's ``results.json``."""
    return gradescope_report(_cases(checked))


FORMATS: dict[str, tuple[Callable[[Checked], str], str]] = {
    "json": (to_json, "report.json"),
    "junit": (to_junit, "report.xml"),
    "gradescope": (to_gradescope, "results.json"),
}
"""Report format → its writer and its default file (as ``casino replay``'s)."""
