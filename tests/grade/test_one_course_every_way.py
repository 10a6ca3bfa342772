"""One course, one grade: ``casino grade`` through a pipe and a terminal, ``casino replay
--score``, the Gradescope autograder and the GitHub Classroom workflow give every student the
same points for every run.

The course has :mod:`grade_support`'s transcripts (three, one a chain of two runs) under a
rubric (``format: 1, behaviour: 3``), so partial points are in play, and three shell programs:
a correct one (4/4), one that prints a space too many (its greeting keeps the behaviour share:
3.75/4) and one that fails in the chain's second run (3/4). (Shell, not Python: a Python
``input("name? ")`` in a terminal writes its prompt to stderr, so through the pty runner it
would lose the greeting however the course is graded.)
"""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from casino.__main__ import main as casino_main
from grade.grade_support import RUN, TRANSCRIPTS, UNSANDBOXED
from grade.test_grade_export import autograder

PROGRAM = """\
case "$1" in
save) echo "$2" > state.txt; echo "saved $2" ;;
load) LOAD ;;
"") printf 'name? '; read -r name; echo "GREET" ;;
*) echo "$# args" ;;
esac
"""
LOAD = 'printf "loaded %s\\n" "$(cat state.txt)"'
PROGRAMS = {
    "correct-00": PROGRAM.replace("LOAD", LOAD).replace("GREET", "hello $name"),
    "wrong_space-00": PROGRAM.replace("LOAD", LOAD).replace("GREET", "hello  $name"),
    "crash-00": PROGRAM.replace("LOAD", "exit 3").replace("GREET", "hello $name"),
}
STUDENTS = {"correct-00": 4, "wrong_space-00": 3.75, "crash-00": 3}
RUBRIC = "rubric: {format: 1, behaviour: 3}\n"
Runs = dict[str, dict[str, float]]
"""Student → ``path`` (or ``path N`` for run N of a chain) → points."""
FULL = {"args.yaml": 1.0, "greet.yaml": 1.0, "state/chain.yaml 1": 1.0, "state/chain.yaml 2": 1.0}
RUNS: Runs = {  # each run's points, the chain's runs apart
    "correct-00": FULL,
    "wrong_space-00": {**FULL, "greet.yaml": 0.75},
    "crash-00": {**FULL, "state/chain.yaml 2": 0.0},
}


def casino(*argv: str) -> subprocess.CompletedProcess[str]:
    """``casino ARGV…`` as its own ``main`` runs it, in this process: the same code as the
    command, without a Python started and casino imported again for each (0.3 s of CPU)."""
    out, err = io.StringIO(), io.StringIO()
    status = casino_main(list(argv), stdout=out, stderr=err)
    return subprocess.CompletedProcess(["casino", *argv], status, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("course")
    for name, text in TRANSCRIPTS.items():
        path = root / "transcripts" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "transcripts" / "casino.yaml").write_text(RUBRIC)
    for student, program in PROGRAMS.items():
        (root / "submissions" / student).mkdir(parents=True)
        (root / "submissions" / student / "run.sh").write_text(program)
    return root


def _per_transcript(runs: Runs) -> Runs:
    """Each chain's runs added up."""
    totals: Runs = {}
    for student, points in runs.items():
        for key, value in points.items():
            path = key.split(" ")[0]
            mine = totals.setdefault(student, {})
            mine[path] = mine.get(path, 0) + value
    return totals


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_casino_grade(course: Path, runner: str) -> None:
    out = course / f"grades-{runner}"
    done = casino(
        "grade", str(course / "submissions"), "--transcripts", str(course / "transcripts"),
        "--run", RUN, "--out", str(out), "--runner", runner, "--jobs", "1", *UNSANDBOXED,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    book = json.loads((out / "gradebook.json").read_text())
    got = {row["student"]: row["points"] for row in book["students"]}
    assert got == _per_transcript(RUNS)
    assert {row["student"]: row["score"] for row in book["students"]} == STUDENTS
    verdicts = {row["student"]: row["verdict"]["greet.yaml"] for row in book["students"]}
    assert verdicts == {"correct-00": "exact", "wrong_space-00": "behaviour", "crash-00": "exact"}
    why = "behaviour only: it differs in wording; every fact is right"
    feedback = (out / "feedback" / "wrong_space-00.txt").read_text().splitlines()
    start = feedback.index("PARTIAL [0.75/1] greets (greet.yaml)")
    assert feedback[start + 1] == f"  {why}"
    summary = (out / "summary.html").read_text()
    row = summary[summary.index('<table id="exactness">') :].split("</tr>")[2]
    assert "greet.yaml</td><td>2</td><td>0</td><td>1</td>" in row and why in row


def test_casino_replay_score(course: Path) -> None:
    got: Runs = {}
    for student in STUDENTS:
        report = course / f"{student}.json"
        casino(
            "replay", "--score", "--runner", "pipe", "--program", RUN, "--program-dir",
            str(course / "submissions" / student), "--report", "json", "--report-file",
            str(report), str(course / "transcripts"),
        )  # fmt: skip
        for case in json.loads(report.read_text())["transcripts"]:
            if case["status"] == "skip":  # reference: casino
                continue
            path = Path(case["path"]).relative_to(course / "transcripts").as_posix()
            for run in case.get("runs", []):
                got.setdefault(student, {})[f"{path} {run['run']}"] = run["score"]
            if "runs" not in case:
                got.setdefault(student, {})[path] = case["score"]
    assert got == RUNS


def _exported(course: Path, where: str) -> Path:
    folder = course / f"export-{where}"
    done = casino(
        "grade", "export", f"--{where}", str(folder), "--transcripts",
        str(course / "transcripts"), "--run", RUN,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return folder


def _test_key(name: str) -> str:
    """``remembers (visible/state/chain.yaml) run 2 of 2`` → ``state/chain.yaml 2``."""
    path = name.split("(visible/", 1)[1].split(")", 1)[0]
    run = name.rsplit(" run ", 1)[1].split(" of ")[0] if " run " in name else ""
    return f"{path} {run}".strip()


def _classroom_key(name: str) -> str:
    """``remembers (.casino/transcripts/state/chain.yaml) run 2 of 2`` → ``state/chain.yaml 2``."""
    return _test_key(name.replace("(.casino/transcripts/", "(visible/", 1))


def test_gradescope(course: Path, tmp_path: Path) -> None:
    archive = _exported(course, "gradescope") / "autograder.zip"
    got: Runs = {}
    for student in STUDENTS:
        data = autograder(tmp_path, archive, course / "submissions" / student)
        got[student] = {_test_key(test["name"]): test["score"] for test in data["tests"]}
        assert data["score"] == STUDENTS[student]
    assert got == RUNS


def test_github_classroom(course: Path, tmp_path: Path) -> None:
    template = _exported(course, "github-classroom")
    workflow = yaml.safe_load((template / ".github/workflows/classroom.yml").read_text())
    steps = [s for s in workflow["jobs"]["run-autograding-tests"]["steps"] if "id" in s]
    got: Runs = {}
    for student in STUDENTS:
        repository = tmp_path / student
        subprocess.run(["cp", "-r", str(template), str(repository)], check=True)
        subprocess.run(
            ["cp", "-r", f"{course / 'submissions' / student}/.", str(repository)], check=True
        )
        output = repository / "github-output"
        env = dict(os.environ, PYTHONPATH=".casino", GITHUB_OUTPUT=str(output))
        for step in steps:
            script = step["run"].replace("python -P ", f"{sys.executable} -P ")
            shell = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script]
            done = subprocess.run(shell, cwd=repository, env=env, timeout=120)
            assert done.returncode == 0
        payloads = [
            json.loads(base64.b64decode(line.split("=", 1)[1]))
            for line in output.read_text().splitlines()
        ]
        assert len(payloads) == len(steps)
        tests = [test for payload in payloads for test in payload["tests"]]
        got[student] = {_classroom_key(test["name"]): test["score"] for test in tests}
        assert sum(p["max_score"] for p in payloads) == 4
        assert sum(test["score"] for test in tests) == STUDENTS[student]
    assert got == RUNS
