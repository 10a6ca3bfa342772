"""The automatic tester's reports: text, and the JSON, JUnit and Gradescope files of
``casino replay`` (same shapes; one test per rubric line instead of per transcript)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable

from casino.harness.formats import xml_safe
from casino.harness.report import points_text
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


def to_json(results: list[CheckResult]) -> str:
    """The JSON report, shaped as ``casino replay``'s."""
    data = {
        "passed": sum(r.passed for r in results),
        "failed": sum(not r.passed for r in results),
        "errors": 0,
        "score": sum(r.points for r in results),
        "max_score": sum(r.max_points for r in results),
        "transcripts": [
            {
                "path": SUITE,
                "name": r.name,
                "status": "pass" if r.passed else "fail",
                "score": r.points,
                "max_score": r.max_points,
                "seconds": round(r.seconds, 6),
                "output": render(r),
            }
            for r in results
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def to_junit(results: list[CheckResult]) -> str:
    """The JUnit XML report: one test case per rubric line."""
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        name=SUITE,
        tests=str(len(results)),
        failures=str(sum(not r.passed for r in results)),
        errors="0",
        time=f"{sum(r.seconds for r in results):.3f}",
    )
    for result in results:
        case = ET.SubElement(
            suite, "testcase", classname="stud.check", name=xml_safe(result.name), time="0.000"
        )
        if not result.passed:
            problem = ET.SubElement(case, "failure", message=xml_safe(result.problems[0]))
            problem.text = xml_safe(render(result))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def to_gradescope(results: list[CheckResult]) -> str:
    """Gradescope's ``results.json``."""
    data = {
        "score": sum(r.points for r in results),
        "tests": [
            {
                "name": r.name,
                "score": r.points,
                "max_score": r.max_points,
                "output": render(r),
                "status": "passed" if r.passed else "failed",
            }
            for r in results
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


FORMATS: dict[str, tuple[Callable[[list[CheckResult]], str], str]] = {
    "json": (to_json, "report.json"),
    "junit": (to_junit, "report.xml"),
    "gradescope": (to_gradescope, "results.json"),
}
"""Report format → its writer and its default file (as ``casino replay``'s)."""
