"""A runtime outside /usr: the dry run refuses a course whose programs the sandbox cannot show,
before anyone is graded, with the line that says how to expose them; with ``--sandbox-path``
everyone is graded.

The runtime is a virtualenv made in a folder of its own (as a TA's ``/tmp/venv`` or
``/opt/py``): its ``bin/python`` is outside ``/usr``.
"""

from __future__ import annotations

import io
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from grade_support import BUILD, PYTHON_RUN, RUN, SANDBOXED, Graded, write_course

from casino.grade import cli
from casino.grade.dryrun import exposure, refusal
from casino.harness.runners.folders import remove_tree

pytestmark = pytest.mark.skipif(not SANDBOXED, reason="no bubblewrap sandbox here")


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A virtualenv of the system's Python, without pip (made in about a second)."""
    folder = tmp_path_factory.mktemp("runtime") / "venv"
    made = subprocess.run(
        ["/usr/bin/python3", "-m", "venv", "--without-pip", str(folder)],
        capture_output=True,
        check=False,
    )
    if made.returncode:
        pytest.skip(f"no venv here: {made.stderr.decode(errors='replace')[-200:]}")
    for path in [folder, *folder.parents]:  # a run's own uid must reach it (graded as root)
        if path == Path("/tmp"):
            break
        os.chmod(path, 0o755)
    yield folder
    remove_tree(folder)


def course(root: Path, run_sh: str | None = None) -> None:
    write_course(root, {"correct": 2})
    if run_sh is not None:
        for folder in (root / "submissions").iterdir():
            (folder / "run.sh").write_text(run_sh, encoding="utf-8")


def usage(root: Path, *options: str) -> tuple[int, str, str]:
    """``casino grade`` on the course in ``root`` with :func:`grade_support.grade`'s command
    line, run by its ``main`` in this process (the same code, without a Python started and
    casino imported for each: 0.3 s of CPU), ``--jobs 1`` (no pool forked from the test's
    process; the grades do not depend on it): its status, stdout and stderr."""
    argv = ["grade", str(root / "submissions"), "--transcripts", str(root / "transcripts")]
    argv += ["--run", RUN, "--build", BUILD, "--out", str(root / "grades"), "--memory", "512"]
    argv += ["--jobs", "1"]
    out, err = io.StringIO(), io.StringIO()
    status = cli.main([*argv, *options], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def grade(root: Path, *options: str) -> Graded:
    """:func:`usage` as a :class:`grade_support.Graded` (its memory not measured)."""
    return Graded(*usage(root, *options), max_rss_kib=0)


def rows(root: Path) -> list[str]:
    return (root / "grades" / "gradebook.csv").read_text().splitlines()[1:]


def test_the_exposure_is_the_folder_above_bin() -> None:
    assert exposure("/opt/jdk-21/bin/javac") == "/opt/jdk-21"
    assert exposure("/opt/tools/run-it") == "/opt/tools"


def test_a_run_command_outside_usr_is_refused_before_anyone_is_graded(
    tmp_path: Path, venv: Path
) -> None:
    course(tmp_path)
    python = str(venv / "bin" / "python")
    graded = grade(tmp_path, "--run", f"{python} main.py", "--build", "true")
    assert (graded.status, graded.out) == (1, "")
    assert graded.err == refusal("--run", python) + "\n"
    assert f"--sandbox-path {venv} (repeatable)" in graded.err
    assert not (tmp_path / "grades" / "gradebook.csv").exists()


def test_with_the_sandbox_path_everyone_is_graded(tmp_path: Path, venv: Path) -> None:
    course(tmp_path)
    python = str(venv / "bin" / "python")
    graded = grade(
        tmp_path, "--run", f"{python} main.py", "--build", "true", "--sandbox-path", str(venv)
    )
    assert graded.status == 0, graded.err
    assert rows(tmp_path) == ["correct-00,4,4,1,1,2", "correct-01,4,4,1,1,2"]
    assert f"also {venv} read-only" in graded.out


def test_a_run_script_that_dies_with_127_stops_at_the_first_submission(
    tmp_path: Path, venv: Path
) -> None:
    """``sh run.sh`` is in /usr; the script's ``exec VENV/bin/python`` is found missing only
    when the first submission runs."""
    course(tmp_path, PYTHON_RUN.replace("python3", str(venv / "bin" / "python")))
    graded = grade(tmp_path, "--build", "true")
    assert (graded.status, graded.out) == (1, "")
    assert graded.err == refusal("--run", str(venv / "bin" / "python")) + "\n"
    assert not (tmp_path / "grades" / "gradebook.csv").exists()
    assert not list((tmp_path / "grades" / "cache").glob("*.json"))
    fixed = grade(tmp_path, "--build", "true", "--sandbox-path", str(venv))
    assert fixed.status == 0, fixed.err
    assert rows(tmp_path) == ["correct-00,4,4,1,1,2", "correct-01,4,4,1,1,2"]


def test_a_first_student_who_breaks_their_own_script_stops_nothing(tmp_path: Path) -> None:
    """A path that does not exist on the grader's machine either is the student's mistake."""
    course(tmp_path)
    first = tmp_path / "submissions" / "correct-00" / "run.sh"
    first.write_text("exec /nowhere/python3 main.py\n", encoding="utf-8")
    graded = grade(tmp_path, "--build", "true")
    assert graded.status == 0, graded.err
    assert rows(tmp_path) == ["correct-00,0,4,0,0,0", "correct-01,4,4,1,1,2"]


@pytest.mark.parametrize("given", ["/", "no-such-folder"])
def test_an_odd_sandbox_path_is_a_usage_error(tmp_path: Path, given: str) -> None:
    course(tmp_path)
    status, _, err = usage(tmp_path, "--sandbox-path", given)
    assert status == 2
    assert f"--sandbox-path: expected a folder other than /, got {given!r}" in err


def test_the_help_says_how_a_run_script_finds_its_files(tmp_path: Path) -> None:
    status, out, _ = usage(tmp_path, "--help")
    assert status == 0
    assert '"$(dirname "$0")"' in out
    assert "--sandbox-path DIR" in out


@pytest.mark.parametrize("shown", ["", "transcripts", "submissions/correct-00"])
def test_a_sandbox_path_that_would_show_the_course_is_a_usage_error(
    tmp_path: Path, shown: str
) -> None:
    course(tmp_path)
    status, out, err = usage(tmp_path, "--sandbox-path", str(tmp_path / shown))
    assert (status, out) == (2, "")
    assert f"--sandbox-path {tmp_path / shown} would show the programs " in err
