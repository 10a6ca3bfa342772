"""The automatic tester's reports: text, and the JSON, JUnit and Gradescope files of
``casino replay`` (same shapes; one test per rubric line instead of per transcript)."""

from __future__ import annotations

from collections.abc import Callable

from casino.harness.formats import Case, gradescope_report, json_report, junit_report
from casino.harness.report import points_text
from casino.harness.session import Status
from casino.stud.check import CheckResult

SUITE = "casino stud check"


def render(result: CheckResult) -> str:
    """``PASS [15/15] connects to the dealer`` and, for a failure, each problem indented."""
    status = "PASS" if result.passed else "FAIL"
    marks = f"[{points_text(result.points)}/{points_text(result.max_points)}]"
    lines = [f"{status} {marks} {result.name}", *(f"  {problem}" for problem in result.problems)]
    return "\n".join(lines) + "\n"


def text_report(results: list[CheckResult]) -> str:
    """Every line, then the total."""
    total = sum(r.points for r in results)
    most = sum(r.max_points for r in results)
    body = "".join(render(result) for result in results)
    return body + f"score: {points_text(total)}/{points_text(most)}\n"


def case_of(result: CheckResult) -> Case:
    """A rubric line as a report item."""
    return Case(
        name=result.name,
        path=SUITE,
        status=Status.PASS if result.passed else Status.FAIL,
        points=result.points,
        max_points=result.max_points,
        seconds=result.seconds,
        output=render(result),
        message=result.problems[0] if result.problems else "",
        classname="stud.check",
    )


def to_json(results: list[CheckResult]) -> str:
    """The JSON report, shaped as ``casino replay``'s."""
    return json_report([case_of(r) for r in results])


def to_junit(results: list[CheckResult]) -> str:
    """The JUnit XML report: one test case per rubric line."""
    return junit_report([case_of(r) for r in results], SUITE)


def to_gradescope(results: list[CheckResult]) -> str:
    """Gradescope's ``results.json``."""
    return gradescope_report([case_of(r) for r in results])


FORMATS: dict[str, tuple[Callable[[list[CheckResult]], str], str]] = {
    "json": (to_json, "report.json"),
    "junit": (to_junit, "report.xml"),
    "gradescope": (to_gradescope, "results.json"),
}
"""Report format → its writer and its default file (as ``casino replay``'s)."""
