"""Machine-readable reports: JSON, JUnit XML, and Gradescope's ``results.json``.

Each carries, per transcript, the same failure text as the console report. The writers take
:class:`Case` records, so that other graders (``casino stud check``) write the same formats.

- ``json``: ``{"passed", "failed", "errors", "skipped", "score", "max_score", "transcripts":
  [{"path", "name", "status": "pass|fail|error|skip", "score", "max_score", "seconds",
  "output"}]}``; ``score``/``max_score`` leave skipped transcripts out. A chain (``runs:``)
  also has ``"runs": [{"run": 1, "of": 5, "status": "pass|fail", "score", "max_score"}]``, and
  a transcript allowed near misses ``"match": ["trailing-space", …]``; one that earned points
  without its exact text ``"verdict": "allowed|behaviour"`` and ``"why": [...]``.
- ``junit``: ``<testsuites><testsuite name="casino replay" …><testcase classname name file
  time>`` with a ``<failure>``, ``<error>`` or ``<skipped>`` holding the report text (a failed
  chain's text lists each run, ``run N of M: PASS|FAIL``).
- ``gradescope``: ``{"score", "tests": [{"name", "score", "max_score", "output", "status"}]}``
  with ``status`` ``passed`` or ``failed`` — what Gradescope's autograder reads. A chain is one
  test per run, named ``… run 2 of 5`` with that run's points (and, failed, its details).
  Skipped (``reference: casino``) transcripts are not graded, so they are not listed.
- ``classroom``: what GitHub Classroom's grading reporter reads from a step's ``result``
  output (base64 of it): ``{"version": 1, "status": "pass|fail", "max_score", "tests":
  [{"name", "status": "pass|fail", "score", "message"}]}``, tests as Gradescope's (one per
  run of a chain); the reporter adds up each test's ``score``, so a run earns its partial
  points (its rubric's behaviour share) there too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from casino.harness.report import marks, render, run_details
from casino.harness.session import Status, TranscriptResult

Formatter = Callable[[list[TranscriptResult]], str]


@dataclass(frozen=True)
class Case:
    """One graded item of a report, whatever graded it: a transcript of ``casino replay``, or
    a rubric line of ``casino stud check``. Every format is written from these."""

    name: str
    path: str
    status: Status
    points: float
    max_points: float
    seconds: float
    output: str
    """The item's text report (what a student reads)."""
    message: str = ""
    """The first line of what went wrong (or why it was skipped)."""
    classname: str = ""
    """JUnit's class name (default: the path, dotted)."""
    title: str = ""
    """Gradescope's test name (default: the name)."""
    runs: tuple[RunCase, ...] = ()
    """A chain's runs, each scored on its own (empty for a single run)."""
    match: tuple[str, ...] = ()
    """The near misses it allowed (``match``)."""
    verdict: str = ""
    """How it was judged when it earned points without its exact text (``allowed``,
    ``behaviour``; :attr:`TranscriptResult.kind`), else empty."""
    why: tuple[str, ...] = ()
    """Why, run by run (:attr:`TranscriptResult.why`)."""

    @property
    def counted(self) -> bool:
        """Whether the item counts towards the score (it was not skipped)."""
        return self.status is not Status.SKIP


@dataclass(frozen=True)
class RunCase:
    """One run of a chain: its number, how it went, its points and its own report lines."""

    number: int
    of: int
    passed: bool
    points: float
    max_points: float
    output: str


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot hold written as ``\\xNN``."""
    return _NOT_XML.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


def _test_name(result: TranscriptResult) -> str:
    return result.name or PurePath(result.path).stem


def case_of(result: TranscriptResult) -> Case:
    """A transcript's result as a report item."""
    name = _test_name(result)
    first = ""
    if result.status is Status.SKIP:
        first = result.error or "skipped"
    elif result.status is not Status.PASS:
        failed = [v for v in result.verdicts if not v.passed]
        lines = run_details(failed[0], "", "") if failed else []
        first = (lines or [result.error or "failed"])[0]
    return Case(
        name=name,
        path=result.path,
        status=result.status,
        points=result.points,
        max_points=result.max_points,
        seconds=result.seconds,
        output=render(result),
        message=first,
        title=f"{name} ({result.path})",
        runs=_run_cases(result),
        match=result.allowed,
        verdict=result.kind if result.kind in ("allowed", "behaviour") else "",
        why=result.why,
    )


def _run_cases(result: TranscriptResult) -> tuple[RunCase, ...]:
    count = len(result.verdicts)
    if count < 2:
        return ()
    cases = []
    for number, verdict in enumerate(result.verdicts, 1):
        prefix = f"run {number} of {count}: "
        lines = [] if verdict.passed else run_details(verdict, prefix, f" (run {number})")
        worth = result.run_points[number - 1] if result.run_points else 0.0
        earned = result.run_earned(number - 1)
        head = f"{prefix}{'PASS' if verdict.passed else 'FAIL'} {marks(earned, worth)}"
        output = "".join(f"{line}\n" for line in [head, *lines])
        cases.append(RunCase(number, count, verdict.passed, earned, worth, output))
    return tuple(cases)


def json_report(cases: list[Case]) -> str:
    """The JSON report of ``cases``."""
    data = {
        "passed": sum(c.status is Status.PASS for c in cases),
        "failed": sum(c.status is Status.FAIL for c in cases),
        "errors": sum(c.status is Status.ERROR for c in cases),
        "skipped": sum(c.status is Status.SKIP for c in cases),
        "score": sum(c.points for c in cases if c.counted),
        "max_score": sum(c.max_points for c in cases if c.counted),
        "transcripts": [
            {
                "path": c.path,
                "name": c.name,
                "status": c.status.value.lower(),
                "score": c.points,
                "max_score": c.max_points,
                "seconds": round(c.seconds, 6),
                "output": c.output,
                **_json_extras(c),
            }
            for c in cases
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _json_extras(case: Case) -> dict[str, object]:
    extras: dict[str, object] = {}
    if case.runs:
        extras["runs"] = [
            {
                "run": run.number,
                "of": run.of,
                "status": "pass" if run.passed else "fail",
                "score": run.points,
                "max_score": run.max_points,
            }
            for run in case.runs
        ]
    if case.match:
        extras["match"] = list(case.match)
    if case.verdict:
        extras["verdict"] = case.verdict
        extras["why"] = list(case.why)
    return extras


def junit_report(cases: list[Case], suite_name: str) -> str:
    """The JUnit XML report of ``cases`` (one test case each) as the suite ``suite_name``."""
    import xml.etree.ElementTree as ET  # only for a JUnit report

    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        name=suite_name,
        tests=str(len(cases)),
        failures=str(sum(c.status is Status.FAIL for c in cases)),
        errors=str(sum(c.status is Status.ERROR for c in cases)),
        skipped=str(sum(c.status is Status.SKIP for c in cases)),
        time=f"{sum(c.seconds for c in cases):.3f}",
    )
    for c in cases:
        dotted = PurePath(c.path).with_suffix("").as_posix().strip("/").replace("/", ".")
        case = ET.SubElement(
            suite,
            "testcase",
            classname=c.classname or dotted,
            name=xml_safe(c.name),
            file=xml_safe(c.path),
            time=f"{c.seconds:.3f}",
        )
        if c.status is Status.SKIP:
            ET.SubElement(case, "skipped", message=xml_safe(c.message))
        elif c.status is not Status.PASS:
            tag = "error" if c.status is Status.ERROR else "failure"
            problem = ET.SubElement(case, tag, message=xml_safe(c.message))
            problem.text = xml_safe(c.output)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def gradescope_report(cases: list[Case]) -> str:
    """Gradescope's ``results.json`` of ``cases`` (skipped ones are not graded, so not listed)."""
    tests: list[dict[str, object]] = []
    for c in cases:
        if not c.counted:
            continue
        if not c.runs or c.status is Status.ERROR:
            tests.append(
                _gradescope_test(
                    c.title or c.name, c.points, c.max_points, c.output, c.status is Status.PASS
                )
            )
            continue
        for run in c.runs:
            title = f"{c.title or c.name} run {run.number} of {run.of}"
            tests.append(
                _gradescope_test(title, run.points, run.max_points, run.output, run.passed)
            )
    data = {"score": sum(c.points for c in cases if c.counted), "tests": tests}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _gradescope_test(
    name: str, points: float, max_points: float, output: str, passed: bool
) -> dict[str, object]:
    return {
        "name": name,
        "score": points,
        "max_score": max_points,
        "output": output,
        "status": "passed" if passed else "failed",
    }


def classroom_report(cases: list[Case]) -> str:
    """GitHub Classroom's result payload of ``cases``: Gradescope's tests, in its words."""
    graded = json.loads(gradescope_report(cases))["tests"]
    tests = [
        {
            "name": test["name"],
            "status": "pass" if test["status"] == "passed" else "fail",
            "score": test["score"],
            "message": test["output"],
        }
        for test in graded
    ]
    data = {
        "version": 1,
        "status": "pass" if all(test["status"] == "pass" for test in tests) else "fail",
        "max_score": sum(c.max_points for c in cases if c.counted),
        "tests": tests,
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def to_classroom(results: list[TranscriptResult]) -> str:
    """GitHub Classroom's result payload."""
    return classroom_report([case_of(r) for r in results])


def to_json(results: list[TranscriptResult]) -> str:
    """The JSON report."""
    return json_report([case_of(r) for r in results])


def to_junit(results: list[TranscriptResult]) -> str:
    """The JUnit XML report (one test case per transcript)."""
    return junit_report([case_of(r) for r in results], "casino replay")


def to_gradescope(results: list[TranscriptResult]) -> str:
    """Gradescope's ``results.json``."""
    return gradescope_report([case_of(r) for r in results])


FORMATS: dict[str, tuple[Formatter, str]] = {
    "json": (to_json, "report.json"),
    "junit": (to_junit, "report.xml"),
    "gradescope": (to_gradescope, "results.json"),
    "classroom": (to_classroom, "result.json"),
}
"""Report format → its writer and its default file."""
