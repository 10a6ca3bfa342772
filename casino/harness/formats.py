"""Machine-readable reports: JSON, JUnit XML, and Gradescope's ``results.json``.

Each carries, per transcript, the same failure text as the console report.

- ``json``: ``{"passed", "failed", "errors", "skipped", "score", "max_score", "transcripts":
  [{"path", "name", "status": "pass|fail|error|skip", "score", "max_score", "seconds",
  "output"}]}``; ``score``/``max_score`` leave skipped transcripts out.
- ``junit``: ``<testsuites><testsuite name="casino replay" …><testcase classname name file
  time>`` with a ``<failure>``, ``<error>`` or ``<skipped>`` holding the report text.
- ``gradescope``: ``{"score", "tests": [{"name", "score", "max_score", "output", "status"}]}``
  with ``status`` ``passed`` or ``failed`` — what Gradescope's autograder reads. Skipped
  (``reference: casino``) transcripts are not graded, so they are not listed.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import PurePath

from casino.harness.report import details, render
from casino.harness.session import Status, TranscriptResult

Formatter = Callable[[list[TranscriptResult]], str]


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot hold written as ``\\xNN``."""
    return _NOT_XML.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


def _test_name(result: TranscriptResult) -> str:
    return result.name or PurePath(result.path).stem


def to_json(results: list[TranscriptResult]) -> str:
    """The JSON report."""
    data = {
        "passed": sum(r.status is Status.PASS for r in results),
        "failed": sum(r.status is Status.FAIL for r in results),
        "errors": sum(r.status is Status.ERROR for r in results),
        "skipped": sum(r.status is Status.SKIP for r in results),
        "score": sum(r.points for r in results if r.counted),
        "max_score": sum(r.max_points for r in results if r.counted),
        "transcripts": [
            {
                "path": r.path,
                "name": r.name,
                "status": r.status.value.lower(),
                "score": r.points,
                "max_score": r.max_points,
                "seconds": round(r.seconds, 6),
                "output": render(r),
            }
            for r in results
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def to_junit(results: list[TranscriptResult]) -> str:
    """The JUnit XML report (one test case per transcript)."""
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        name="casino replay",
        tests=str(len(results)),
        failures=str(sum(r.status is Status.FAIL for r in results)),
        errors=str(sum(r.status is Status.ERROR for r in results)),
        skipped=str(sum(r.status is Status.SKIP for r in results)),
        time=f"{sum(r.seconds for r in results):.3f}",
    )
    for result in results:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=PurePath(result.path).with_suffix("").as_posix().strip("/").replace("/", "."),
            name=xml_safe(_test_name(result)),
            file=xml_safe(result.path),
            time=f"{result.seconds:.3f}",
        )
        if result.status is Status.SKIP:
            ET.SubElement(case, "skipped", message=xml_safe(result.error or "skipped"))
        elif result.status is not Status.PASS:
            tag = "error" if result.status is Status.ERROR else "failure"
            first = (details(result).strip().splitlines() or [result.error or "failed"])[0]
            problem = ET.SubElement(case, tag, message=xml_safe(first))
            problem.text = xml_safe(render(result))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def to_gradescope(results: list[TranscriptResult]) -> str:
    """Gradescope's ``results.json``."""
    data = {
        "score": sum(r.points for r in results if r.counted),
        "tests": [
            {
                "name": f"{_test_name(r)} ({r.path})",
                "score": r.points,
                "max_score": r.max_points,
                "output": render(r),
                "status": "passed" if r.passed else "failed",
            }
            for r in results
            if r.counted
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


FORMATS: dict[str, tuple[Formatter, str]] = {
    "json": (to_json, "report.json"),
    "junit": (to_junit, "report.xml"),
    "gradescope": (to_gradescope, "results.json"),
}
"""Report format → its writer and its default file."""
