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
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.grade import cli
from casino.grade.dryrun import exposure, missing, refusal, unreachable
from casino.harness.runners.folders import remove_tree
from grade.as_nobody import nobody_pythonpath
from grade.grade_support import BUILD, PYTHON_RUN, RUN, SANDBOXED, Graded, write_course

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


def test_a_student_script_that_needs_a_hidden_program_is_that_students_grade(
    tmp_path: Path, venv: Path
) -> None:
    """``sh run.sh`` runs the submission's own script: what it execs is the student's, so a
    hidden program there is a 0 for that student, never a stop (nor advice)."""
    course(tmp_path, PYTHON_RUN.replace("python3", str(venv / "bin" / "python")))
    graded = grade(tmp_path, "--build", "true")
    assert graded.status == 0, graded.err
    assert rows(tmp_path) == ["correct-00,0,4,0,0,0", "correct-01,0,4,0,0,0"]
    assert "--sandbox-path" not in graded.err + graded.out.replace("--sandbox-path DIR", "")


@pytest.mark.parametrize(
    "said", ["sh: 1: exec: /proc/self/exe: not found", "sh: 1: exec: /etc/init.d/procps: not found"]
)
def test_a_first_student_who_prints_not_found_stops_nothing(tmp_path: Path, said: str) -> None:
    """The first submission (name order) printing what a hidden staff tool would print is
    graded 0 and the course goes on: no student chooses the staff's advice."""
    course(tmp_path)
    first = tmp_path / "submissions" / "correct-00" / "run.sh"
    first.write_text(f"echo '{said}' >&2\nexit 127\n", encoding="utf-8")
    graded = grade(tmp_path, "--build", "true")
    assert graded.status == 0, graded.err
    assert rows(tmp_path) == ["correct-00,0,4,0,0,0", "correct-01,4,4,1,1,2"]
    assert "--sandbox-path /" not in graded.err + graded.out


def test_a_staff_script_that_needs_a_hidden_program_stops_before_anyone_is_graded(
    tmp_path: Path, venv: Path
) -> None:
    """A shell given the staff's own script by its path: the programs it names are read."""
    course(tmp_path)
    staff = tmp_path / "staff"
    staff.mkdir()
    script = staff / "run.sh"
    python = str(venv / "bin" / "python")
    script.write_text(f'exec {python} "$PWD/main.py" "$@"\n', encoding="utf-8")
    graded = grade(tmp_path, "--run", f"sh {script}", "--build", "true")
    assert (graded.status, graded.out) == (1, "")
    assert graded.err == refusal("--run", str(script)) + "\n"
    staff.chmod(0o755)
    graded = grade(
        tmp_path, "--run", f"sh {script}", "--build", "true", "--sandbox-path", str(staff)
    )
    assert graded.err == refusal("--run", python, str(script)) + "\n"
    assert not (tmp_path / "grades" / "gradebook.csv").exists()


def test_a_venv_whose_base_is_outside_the_shown_folder_is_named(tmp_path: Path) -> None:
    """The issue's case: ``--run "<venv>/bin/python …" --sandbox-path <venv>`` where the
    venv's ``python`` links to a base interpreter outside the venv: named before anyone is
    graded (it used to pass, then every student scored 0 with ``No such file``)."""
    course(tmp_path)
    base = tmp_path / "base"
    (base / "bin").mkdir(parents=True)
    (base / "bin" / "python3").symlink_to("/usr/bin/python3")
    venv = tmp_path / "venv"
    made = subprocess.run(
        [str(base / "bin" / "python3"), "-m", "venv", "--without-pip", str(venv)],
        capture_output=True,
        check=False,
    )
    if made.returncode:
        pytest.skip("no venv here")
    tmp_path.chmod(0o755)
    python = venv / "bin" / "python"
    graded = grade(tmp_path, "--run", f"{python} main.py", "--sandbox-path", str(venv))
    assert (graded.status, graded.out) == (1, "")
    assert f"needs {base / 'bin' / 'python3'} (through {python})" in graded.err
    assert f"--sandbox-path {base} (repeatable)" in graded.err
    assert not (tmp_path / "grades" / "gradebook.csv").exists()
    both = ("--sandbox-path", str(venv), "--sandbox-path", str(base))
    graded = grade(tmp_path, "--run", f"{python} main.py", "--build", "true", *both)
    assert graded.status == 0, graded.err
    assert rows(tmp_path) == ["correct-00,4,4,1,1,2", "correct-01,4,4,1,1,2"]


def test_a_pyenv_python_is_named_with_its_whole_version_folder(tmp_path: Path) -> None:
    """A pyenv's ``versions/X/bin/python3`` needs ``versions/X/lib`` (its standard library):
    showing its ``bin`` alone is named, with the version's folder to show."""
    course(tmp_path)
    version = tmp_path / "pyenv" / "versions" / "3.11.7"
    (version / "bin").mkdir(parents=True)
    (version / "lib" / "python3.11").mkdir(parents=True)
    (version / "bin" / "python3").symlink_to("/usr/bin/python3")
    python = version / "bin" / "python3"
    graded = grade(tmp_path, "--run", f"{python} main.py", "--sandbox-path", str(version / "bin"))
    assert (graded.status, graded.out) == (1, "")
    assert graded.err == refusal("--run", str(version / "lib"), str(python)) + "\n"
    assert f"--sandbox-path {version} (repeatable)" in graded.err


def test_a_pyenv_shim_is_read_for_the_programs_it_starts(tmp_path: Path) -> None:
    """A pyenv shim is a script that execs pyenv's own program: shown, the shim's folder is
    not enough, and what it execs is named."""
    course(tmp_path)
    pyenv = tmp_path / "pyenv"
    (pyenv / "shims").mkdir(parents=True)
    (pyenv / "libexec").mkdir()
    real = pyenv / "libexec" / "pyenv"
    real.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    real.chmod(0o755)
    shim = pyenv / "shims" / "python3"
    shim.write_text(f'#!/usr/bin/env bash\nexec "{real}" exec python3 "$@"\n', "utf-8")
    shim.chmod(0o755)
    for folder in (tmp_path, pyenv, pyenv / "shims", pyenv / "libexec"):
        folder.chmod(0o755)
    graded = grade(tmp_path, "--run", f"{shim} main.py", "--sandbox-path", str(pyenv / "shims"))
    assert (graded.status, graded.out) == (1, "")
    assert graded.err == refusal("--run", str(real), str(shim)) + "\n"


def test_a_jdk_in_opt_is_named_and_then_probed(tmp_path: Path) -> None:
    """A JDK outside /usr (``/opt/jdk``, here a folder of the test's): refused naming the
    JDK's folder; shown, its ``java -version`` runs in the sandbox before anyone is graded."""
    course(tmp_path)
    jdk = tmp_path / "opt" / "jdk"
    (jdk / "bin").mkdir(parents=True)
    (jdk / "lib").mkdir()
    java = jdk / "bin" / "java"
    java.write_text("#!/bin/sh\necho 'Error: no JVM here' >&2\nexit 1\n", encoding="utf-8")
    java.chmod(0o755)
    for folder in (tmp_path, tmp_path / "opt", jdk, jdk / "bin", jdk / "lib"):
        folder.chmod(0o755)
    graded = grade(tmp_path, "--run", f"{java} -cp . Main")
    assert (graded.status, graded.out) == (1, "")
    assert graded.err == refusal("--run", str(java)) + "\n"
    assert f"--sandbox-path {jdk} (repeatable)" in graded.err
    graded = grade(tmp_path, "--run", f"{java} -cp . Main", "--sandbox-path", str(jdk))
    assert (graded.status, graded.out) == (1, "")
    assert f"casino grade: --run needs {java}, which fails inside the sandbox (" in graded.err
    assert "Error: no JVM here" in graded.err
    assert not (tmp_path / "grades" / "gradebook.csv").exists()


def test_a_run_program_nowhere_is_named(tmp_path: Path) -> None:
    course(tmp_path)
    graded = grade(tmp_path, "--run", "/nowhere/python3 main.py")
    assert (graded.status, graded.out) == (1, "")
    assert graded.err == missing("--run", "/nowhere/python3") + "\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="graded as root, each run is a uid of its own")
def test_a_shown_folder_a_run_cannot_read_is_named_by_the_probe(tmp_path: Path) -> None:
    """As root, a ``--sandbox-path`` folder others cannot enter is shown but not readable by
    the run's uid: the probe in the sandbox names it (the folders above a shown one are the
    sandbox's own, open to all)."""
    course(tmp_path)
    private = tmp_path / "private"
    made = subprocess.run(
        ["/usr/bin/python3", "-m", "venv", "--without-pip", str(private / "venv")],
        capture_output=True,
        check=False,
    )
    if made.returncode:
        pytest.skip("no venv here")
    (private / "venv").chmod(0o700)
    python = private / "venv" / "bin" / "python"
    graded = grade(tmp_path, "--run", f"{python} main.py", "--sandbox-path", str(private / "venv"))
    assert (graded.status, graded.out) == (1, "")
    assert graded.err == unreachable("--run", str(python), "not readable") + "\n"


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


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")
def test_graded_by_an_ordinary_user_the_dry_run_is_the_same(tmp_path: Path) -> None:
    """As nobody: a first student printing ``not found`` stops nothing; a venv whose base
    is outside the shown folder is named before anyone is graded."""
    root = Path(tempfile.mkdtemp(prefix="casino-dry-nobody-"))
    python = Path(tempfile.mkdtemp(prefix="casino-nobody-"))
    try:
        pythonpath = nobody_pythonpath(python)
        course(root)
        first = root / "submissions" / "correct-00" / "run.sh"
        first.write_text("echo 'sh: 1: exec: /proc/self/exe: not found' >&2\nexit 127\n")
        base = root / "base"
        (base / "bin").mkdir(parents=True)
        (base / "bin" / "python3").symlink_to("/usr/bin/python3")
        venv = root / "venv"
        made = subprocess.run(
            [str(base / "bin" / "python3"), "-m", "venv", "--without-pip", str(venv)],
            capture_output=True,
            check=False,
        )
        if made.returncode:
            pytest.skip("no venv here")
        subprocess.run(["chown", "-R", "65534:65534", str(root)], check=True)
        os.chmod(root, 0o755)
        status, out, err = as_nobody(root, pythonpath, "--build", "true")
        assert (status, err) == (0, ""), err
        assert rows(root) == ["correct-00,0,4,0,0,0", "correct-01,4,4,1,1,2"]
        python_run = f"{venv / 'bin' / 'python'} main.py"
        status, out, err = as_nobody(
            root, pythonpath, "--run", python_run, "--sandbox-path", str(venv)
        )
        assert (status, out) == (1, "")
        assert f"needs {base / 'bin' / 'python3'} (through {venv / 'bin' / 'python'})" in err
    finally:
        remove_tree(root)
        remove_tree(python)


def as_nobody(root: Path, pythonpath: str, *options: str) -> tuple[int, str, str]:
    """``casino grade`` on the course in ``root`` run by nobody with the system's Python."""
    argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3"]
    argv += ["-m", "casino", "grade", str(root / "submissions"), "--jobs", "1"]
    argv += ["--transcripts", str(root / "transcripts"), "--run", RUN, "--build", BUILD]
    argv += ["--out", str(root / "grades"), "--memory", "512", *options]
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": pythonpath, "HOME": str(root)}
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    return done.returncode, done.stdout, done.stderr
