"""``casino grade export``: the course's transcripts inside Gradescope and GitHub Classroom.

The Gradescope zip is unpacked into an ``/autograder``-shaped folder and its own
``run_autograder`` grades a good and a bad submission there; ``results.json`` is checked against
Gradescope's documented schema. The GitHub Classroom workflow's steps are run as GitHub
Actions runs them (bash, ``GITHUB_OUTPUT``), in a copy of the template repository holding a
submission, and the payloads they hand the grading reporter are read back.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from casino.grade import cli
from grade.grade_support import BUILD, JAVAC, ROOT, RUN, write_course

VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


def export(root: Path, *where: str) -> subprocess.CompletedProcess[str]:
    """``casino grade export`` of the course in ``root`` (``state/`` transcripts hidden)."""
    transcripts = root / "transcripts"
    hidden = root / "hidden"
    if not hidden.exists():
        shutil.move(transcripts / "state", hidden)
    argv = [sys.executable, "-m", "casino", "grade", "export", *where]
    argv += ["--transcripts", str(transcripts), "--hidden", str(hidden)]
    argv += ["--run", RUN, "--build", BUILD]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)


def check_results_schema(data: Any) -> None:
    """Gradescope's ``results.json``: the fields it documents, with their types."""
    assert isinstance(data, dict)
    top = {"score", "execution_time", "output", "output_format", "visibility"}
    assert set(data) <= top | {"stdout_visibility", "extra_data", "tests", "leaderboard"}
    assert isinstance(data["score"], int | float)
    assert isinstance(data.get("output", ""), str)
    for test in data["tests"]:
        fields = {"score", "max_score", "status", "name", "name_format", "number", "output"}
        assert set(test) <= fields | {"output_format", "tags", "visibility", "extra_data"}
        assert isinstance(test["score"], int | float)
        assert isinstance(test["max_score"], int | float)
        assert test["status"] in ("passed", "failed")
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert test["visibility"] in VISIBILITIES


def autograder(tmp_path: Path, archive: Path, submission: Path) -> dict[str, Any]:
    """Unpack the autograder into a fresh ``autograder/``, put the submission in, run
    ``run_autograder`` (with this Python instead of setup.sh's) and read its results."""
    root = tmp_path / "autograder"
    shutil.rmtree(root, ignore_errors=True)
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(root / "source")
        for info in opened.infolist():  # extractall drops the modes: restore them
            (root / "source" / info.filename).chmod(info.external_attr >> 16 & 0o777)
    shutil.copytree(submission, root / "submission")
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), CASINO_PYTHON=sys.executable)
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((root / "results" / "results.json").read_text())
    check_results_schema(data)
    return dict(data)


def scores(data: dict[str, Any]) -> list[tuple[str, float, float, str, str]]:
    """Each test's name, score, worth, status and visibility."""
    return [
        (t["name"], t["score"], t["max_score"], t["status"], t["visibility"]) for t in data["tests"]
    ]


Exported = tuple[Path, subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Exported:
    """A course and its Gradescope export in ``out/``, made once for the tests that read it."""
    root = tmp_path_factory.mktemp("exported")
    write_course(root, {"correct": 1, "wrong_space": 1, **({"compile_fail": 1} if JAVAC else {})})
    return root, export(root, "--gradescope", str(root / "out"))


def test_a_gradescope_autograder_grades_inside_an_autograder_folder(
    exported: Exported, tmp_path: Path
) -> None:
    course, done = exported
    assert done.returncode == 0, done.stderr
    archive = course / "out" / "autograder.zip"
    assert done.stdout == f"wrote {archive} (3 transcripts)\n"
    with zipfile.ZipFile(archive) as opened:
        names = set(opened.namelist())
        modes = {i.filename: i.external_attr >> 16 & 0o777 for i in opened.infolist()}
    assert {"setup.sh", "run_autograder", "settings.json", "casino/__init__.py"} <= names
    assert {"transcripts/visible/greet.yaml", "transcripts/hidden/chain.yaml"} <= names
    assert "transcripts/visible/reference.yaml" not in names  # casino's own wording: left out
    assert modes["setup.sh"] == modes["run_autograder"] == 0o755
    good = autograder(tmp_path, archive, course / "submissions" / "correct-00")
    assert scores(good) == [
        ("counts (visible/args.yaml)", 1, 1, "passed", "visible"),
        ("greets (visible/greet.yaml)", 1, 1, "passed", "visible"),
        ("remembers (hidden/chain.yaml) run 1 of 2", 1, 1, "passed", "after_published"),
        ("remembers (hidden/chain.yaml) run 2 of 2", 1, 1, "passed", "after_published"),
    ]
    assert good["score"] == 4
    bad = autograder(tmp_path, archive, course / "submissions" / "wrong_space-00")
    assert scores(bad)[1] == ("greets (visible/greet.yaml)", 0, 1, "failed", "visible")
    assert bad["score"] == 3
    assert "hello··Ada" in bad["tests"][1]["output"]  # the student's feedback, spaces shown
    if JAVAC:
        broken = autograder(tmp_path, archive, course / "submissions" / "compile_fail-00")
        assert scores(broken) == [("build", 0, 4, "failed", "visible")]
        assert "Main.java" in broken["tests"][0]["output"]


def test_the_same_course_gives_the_same_zip(exported: Exported, tmp_path: Path) -> None:
    course, done = exported
    assert done.returncode == 0, done.stderr
    assert export(course, "--gradescope", str(tmp_path / "two")).returncode == 0
    one = (course / "out" / "autograder.zip").read_bytes()
    assert one == (tmp_path / "two" / "autograder.zip").read_bytes()


def test_setup_sh_is_a_valid_bash_script(exported: Exported) -> None:
    course, done = exported
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(course / "out" / "autograder.zip") as opened:
        setup = opened.read("setup.sh").decode()
    assert "python3.11" in setup and "pip install -q 'pyyaml>=6' 'pexpect>=4.8'" in setup
    checked = subprocess.run(["bash", "-n"], input=setup, text=True, capture_output=True)
    assert checked.returncode == 0, checked.stderr


def test_github_classroom_runs_each_transcript_as_a_step_reporting_its_points(
    tmp_path: Path,
) -> None:
    write_course(tmp_path, {"correct": 1, "wrong_space": 1})
    template = tmp_path / "template"
    done = export(tmp_path, "--github-classroom", str(template))
    assert done.returncode == 0, done.stderr
    workflow = yaml.safe_load((template / ".github/workflows/classroom.yml").read_text())
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    graders = [s for s in steps if s.get("id", "").startswith("transcript")]
    assert [s["name"] for s in graders] == ["counts", "greets", "remembers"]
    reporter = steps[-1]
    assert reporter["with"]["runners"] == "transcript1,transcript2,transcript3"
    # the reporter's own rule: the id upper-cased, then _RESULTS (test_classroom_reporter.py)
    assert reporter["env"]["TRANSCRIPT2_RESULTS"] == "${{steps.transcript2.outputs.result}}"
    legacy = json.loads((template / ".github/classroom/autograding.json").read_text())
    assert [t["points"] for t in legacy["tests"]] == [1, 1, 2]
    for student, expected in (("correct-00", [1, 1, 1, 1]), ("wrong_space-00", [1, 0, 1, 1])):
        repository = tmp_path / "repo" / student
        shutil.copytree(template, repository)
        shutil.copytree(tmp_path / "submissions" / student, repository, dirs_exist_ok=True)
        output = repository / "github-output"
        env = dict(os.environ, PYTHONPATH=".casino", GITHUB_OUTPUT=str(output))
        for step in graders:
            script = step["run"].replace("python -P ", f"{sys.executable} -P ")
            shell = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script]
            ran = subprocess.run(shell, cwd=repository, env=env, timeout=120)
            assert ran.returncode == 0  # the reporter needs every step's output
        payloads = [
            json.loads(base64.b64decode(line.split("=", 1)[1]))
            for line in output.read_text().splitlines()
        ]
        assert [p["max_score"] for p in payloads] == [1, 1, 2]
        assert [t["score"] for p in payloads for t in p["tests"]] == expected, student
        statuses = [t["status"] for p in payloads for t in p["tests"]]
        assert statuses == ["pass" if score else "fail" for score in expected]


@pytest.mark.parametrize("argv", [["--run", "x"], ["--gradescope", "a", "--github-classroom", "b"]])
def test_export_needs_one_place_and_transcripts(argv: list[str]) -> None:
    # in this process (the other tests start `python -m casino grade export`)
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["grade", "export", *argv], stdout=out, stderr=err) == 2
    assert out.getvalue() == ""
    assert len(err.getvalue().splitlines()) == 1 and "Traceback" not in err.getvalue()
