"""The GitHub Classroom export read as the real grading reporter reads it.

:func:`reporter` reimplements, line for line, how classroom-resources/
autograding-grading-reporter reads the steps' results (``src/main.js``: each id of the
``runners`` input, trimmed and upper-cased, then ``_RESULTS``, names the environment variable
holding base64 of the step's JSON; any error is reported as "The runners input must be a
comma-separated list of strings" when the input is not ``/^([a-zA-Z0-9]+,)*[a-zA-Z0-9]+$/``)
and what it records (``src/notify-classroom.js``: every test's ``score`` summed over the
runners whose ``max_score`` is not 0, out of their ``max_score``). The workflow's steps run as
GitHub Actions runs them (``bash --noprofile --norc -eo pipefail``, a ``GITHUB_OUTPUT`` file
per step), then the reporter's step is started with the environment the workflow gives it:
each student gets ``casino grade``'s points, and no environment string is over Linux's limit.
"""

from __future__ import annotations

import base64
import csv
import json
import os
import random
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from casino.grade import classroom
from casino.grade.classroom import MAX_ARG_STRLEN, encoded, fold, step_result
from grade.grade_support import BUILD, RUN, grade, write_course

RUNNERS_PATTERN = re.compile(r"^([a-zA-Z0-9]+,)*[a-zA-Z0-9]+$")
"""``src/main.js``: the ``runners`` input it accepts when it explains an error."""
STEP_RESULT = re.compile(r"\$\{\{steps\.([A-Za-z0-9_-]+)\.outputs\.result\}\}")


class ReporterFailed(Exception):
    """``core.setFailed`` in the reporter's ``catch``."""


def reporter(env: dict[str, str], runners: str) -> tuple[float, float]:
    """The points the reporter notifies Classroom of: ``(totalPoints, maxPoints)``."""
    try:
        results: list[dict[str, Any]] = []
        for runner in runners.split(","):
            encoded_results = env[f"{runner.strip().upper()}_RESULTS"]
            results.append(json.loads(base64.b64decode(encoded_results).decode("utf-8")))
    except (KeyError, ValueError) as error:
        if not RUNNERS_PATTERN.match(runners):
            message = "The runners input must be a comma-separated list of strings."
            raise ReporterFailed(message) from None
        raise ReporterFailed(str(error)) from None
    total = maximum = 0.0
    for result in results:
        if not result["max_score"]:
            continue
        maximum += result["max_score"]
        total += sum(test["score"] for test in result["tests"])
    return total, maximum


def run_workflow(template: Path, submission: Path, into: Path, **swap: str) -> dict[str, str]:
    """Run the workflow's grading steps on ``submission`` in a copy of ``template`` at
    ``into`` as GitHub would (``swap``: text replaced in every script); the environment the
    reporter's step is started with."""
    workflow = yaml.safe_load((template / ".github/workflows/classroom.yml").read_text())
    job = workflow["jobs"]["run-autograding-tests"]
    shutil.copytree(template, into)
    shutil.copytree(submission, into, dirs_exist_ok=True)
    outputs: dict[str, str] = {}
    for step in job["steps"]:
        if "run" not in step or "id" not in step:
            continue
        script = step["run"].replace("python -P ", f"{sys.executable} -P ")
        for old, new in swap.items():
            script = script.replace(old, new)
        output = into / f"output-{step['id']}"
        env = dict(os.environ, **job["env"], GITHUB_OUTPUT=str(output))
        shell = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script]
        ran = subprocess.run(shell, cwd=into, env=env, capture_output=True, timeout=300)
        assert ran.returncode == 0, ran.stderr  # the reporter needs every step's output
        name, _, value = output.read_text().strip().partition("=")
        assert name == "result"
        outputs[step["id"]] = value
    report = job["steps"][-1]
    assert report["uses"].startswith("classroom-resources/autograding-grading-reporter@")
    given = {
        name: STEP_RESULT.sub(lambda m: outputs[m.group(1)], value)
        for name, value in report["env"].items()
    }
    return {**given, "INPUT_RUNNERS": report["with"]["runners"]}


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, float]]:
    """A course, its GitHub Classroom export in ``template/``, and ``casino grade``'s
    points for each student (from its gradebook)."""
    root = tmp_path_factory.mktemp("classroom")
    write_course(root, {"correct": 1, "wrong_space": 1, "flood": 1, "crash": 1})
    graded = grade(root)
    assert graded.status == 0, graded.err
    with open(root / "grades" / "gradebook.csv", newline="") as handle:
        points = {row["student"]: float(row["score"]) for row in csv.DictReader(handle)}
    argv = [sys.executable, "-m", "casino", "grade", "export", "--github-classroom"]
    argv += [str(root / "template"), "--transcripts", str(root / "transcripts")]
    argv += ["--run", RUN, "--build", BUILD]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return root, points


def test_the_workflow_names_each_result_as_the_reporter_reads_it(
    course: tuple[Path, dict[str, float]],
) -> None:
    root, _ = course
    workflow = yaml.safe_load((root / "template/.github/workflows/classroom.yml").read_text())
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    report = steps[-1]
    runners = report["with"]["runners"]
    assert runners == "transcript1,transcript2,transcript3"
    assert RUNNERS_PATTERN.match(runners)
    ids = [step["id"] for step in steps if "id" in step]
    assert ids == runners.split(",")
    assert report["env"] == {
        f"{runner.upper()}_RESULTS": f"${{{{steps.{runner}.outputs.result}}}}" for runner in ids
    }


@pytest.mark.parametrize("student", ["correct-00", "wrong_space-00", "flood-00", "crash-00"])
def test_each_student_gets_casino_grades_points_from_the_reporter(
    course: tuple[Path, dict[str, float]], student: str, tmp_path: Path
) -> None:
    root, points = course
    submission = root / "submissions" / student
    env = run_workflow(root / "template", submission, tmp_path / "repository")
    runners = env.pop("INPUT_RUNNERS")
    assert reporter(env, runners) == (points[student], 4)
    for name, value in env.items():  # Linux starts the reporter with this environment
        assert len(f"{name}={value}".encode()) + 1 <= MAX_ARG_STRLEN
    started = subprocess.run(["true"], env={**env, "PATH": os.environ["PATH"]}, check=False)
    assert started.returncode == 0


def test_a_crash_of_casino_is_reported_as_one_not_as_a_failed_build(
    course: tuple[Path, dict[str, float]], tmp_path: Path
) -> None:
    root, _ = course
    crash = tmp_path / "crash.sh"
    crash.write_text(
        "echo 'casino: internal error (a bug in casino): IndexError: list index out of range'"
        " >&2\nexit 70\n"
    )
    swap = {f"{sys.executable} -P -m casino.grade.sealed replay": f"sh {crash}"}
    env = run_workflow(
        root / "template", root / "submissions" / "correct-00", tmp_path / "repo", **swap
    )
    runners = env.pop("INPUT_RUNNERS")
    assert reporter(env, runners) == (0, 4)
    result = json.loads(base64.b64decode(env["TRANSCRIPT1_RESULTS"]))
    assert result["status"] == "error"
    (test,) = result["tests"]
    assert test["message"] == (
        "casino crashed (a bug in casino, not in the submission): "
        "casino: internal error (a bug in casino): IndexError: list index out of range"
    )


def test_the_old_names_are_not_what_the_reporter_reads() -> None:
    """The name the export used to hand over (``TRANSCRIPT_1_RESULTS`` for the step
    ``transcript-1``) is not the reporter's, and its error then blames the runners input."""
    env = {"TRANSCRIPT_1_RESULTS": encoded(classroom.failed("x", 1, ""))}
    with pytest.raises(ReporterFailed, match="comma-separated list of strings"):
        reporter(env, "transcript-1")


def _flood(size: int) -> str:
    """``size`` characters of lines that never repeat (nothing to count, all to cut)."""
    rng = random.Random(7)
    lines: list[str] = []
    while sum(len(line) + 1 for line in lines) < size:
        lines.append("".join(rng.choices(string.ascii_letters + "+/", k=79)))
    return "\n".join(lines)[:size]


def test_a_flood_report_is_folded_under_the_bound_keeping_its_score() -> None:
    """A real student's step report was a 92 KB flood, 134 KB in base64 (as the replay wrote
    it, indented), over Linux's 131,072 bytes for one environment string; this one is over
    too, and folded it fits every bound and scores the same."""
    message = "FAIL greets [0/1]\n" + _flood(100_000)
    data = {
        "version": 1,
        "status": "fail",
        "max_score": 2,
        "tests": [
            {"name": "run 1 of 2", "status": "pass", "score": 1, "message": "PASS"},
            {"name": "run 2 of 2", "status": "fail", "score": 0.45, "message": message},
        ],
    }
    assert len(encoded(data)) > MAX_ARG_STRLEN
    for bound in (classroom.RESULT_BYTES, classroom.result_bound(40), 2_000):
        folded = fold(data, bound)
        assert len(encoded(folded)) <= bound
        assert [t["score"] for t in folded["tests"]] == [1, 0.45]
        assert folded["max_score"] == 2 and folded["status"] == "fail"
        kept = folded["tests"][1]["message"]
        assert kept.startswith("FAIL greets [0/1]\n") and "more characters left out" in kept
        assert folded["tests"][0]["message"] == "PASS"  # short messages are left whole


def test_repeated_lines_are_counted_before_anything_is_cut() -> None:
    data = classroom.failed("floods", 1, "y\n" * 100_000)
    folded = fold(data, classroom.RESULT_BYTES)
    assert folded["tests"][0]["message"] == "y\n… the line above 99,999 more times\n"


def test_a_report_that_cannot_fit_becomes_one_test_with_the_same_score() -> None:
    tests = [{"name": f"run {n}", "status": "fail", "score": 0.5, "message": ""} for n in range(9)]
    data = {"version": 1, "status": "fail", "max_score": 9, "tests": tests}
    folded = fold(data, 300)
    assert len(encoded(folded)) <= 300
    assert [t["score"] for t in folded["tests"]] == [4.5]


def test_a_failed_build_keeps_its_last_lines(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_text("".join(f"line {n}\n" for n in range(100)))
    result = step_result(tmp_path / "none.json", "greets", 1, "build", log)
    (test,) = result["tests"]
    assert test["message"].splitlines()[:2] == ["not run: the build failed", "line 60"]
    assert result["status"] == "fail" and test["score"] == 0 and result["max_score"] == 1


def test_the_bound_shares_the_environment_between_the_steps() -> None:
    assert classroom.result_bound(3) == classroom.RESULT_BYTES < MAX_ARG_STRLEN
    assert classroom.result_bound(40) * 40 <= classroom.RESULTS_BUDGET
