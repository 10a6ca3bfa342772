"""The GitHub Classroom workflow runs the student's program sealed as ``casino grade`` does.

Each step of the exported workflow is run as Actions runs it (:func:`run_workflow`, from
``test_classroom_reporter``), as root (the runner's ``sudo``), in casino's sandbox and, where
there is none, as the unprivileged ``student`` (or ``nobody``). A program that implements
nothing and replays the transcripts it reads from its run (``.casino/transcripts`` beside
it, ``../transcripts``, ``../.casino``, or the checkout's absolute path, which it is told)
scores 0 either way; an honest one every point. Unsealed (``casino replay`` run in the
checkout, what each step used to run), the same cheater scores every point: the test can
fail.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from casino.grade.sealed import NOT_SEALED
from casino.harness.runners.sandbox import isolation_works
from grade.as_nobody import nobody_pythonpath
from grade.grade_support import ROOT, RUN, write_course
from grade.student_python import SYSTEM_PYTHON
from grade.test_classroom_reporter import reporter, run_workflow

CHEATER = """\
import glob, os, sys
here = os.path.dirname(os.path.abspath(__file__))
places = [os.path.join(here, ".casino"), os.path.join(here, "..", ".casino"),
          os.path.join(os.getcwd(), "..", ".casino"), os.path.join(os.getcwd(), ".."),
          CHECKOUT + "/.casino", os.environ.get("GITHUB_WORKSPACE", "/nowhere") + "/.casino",
          os.path.join(here, "stolen")]
found, said = [], []
for place in places:
    try:
        names = glob.glob(os.path.join(place, "transcripts", "**", "*.yaml"), recursive=True)
        os.listdir(os.path.join(place, "transcripts"))
        sys.path.insert(0, place)
        from casino.harness.load import load_transcript
        from casino.harness.model import In, Out
        found += [load_transcript(name) for name in names]
    except Exception as error:
        said.append(f"{type(error).__name__}")
print("no transcripts to read:", ", ".join(said), file=sys.stderr)
for transcript in found:
    for run in transcript.runs:
        if tuple(run.args or ()) == tuple(sys.argv[1:]):
            for step in run.steps:
                if isinstance(step, Out):
                    sys.stdout.write(step.text)
                    sys.stdout.flush()
                elif isinstance(step, In):
                    sys.stdin.readline()
            raise SystemExit(0)
print("nothing implemented")
"""
"""Implements nothing: looks for the transcripts wherever a Classroom checkout has them."""
RUN_SH = 'exec python3 "$(dirname "$0")/main.py" "$@"\n'

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="the step seals as root (sudo)")


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course of three transcripts (4 points) and its Classroom export in ``template/``."""
    root = tmp_path_factory.mktemp("classroom-sealed")
    write_course(root, {"correct": 1})
    argv = [sys.executable, "-m", "casino", "grade", "export", "--github-classroom"]
    argv += [str(root / "template"), "--transcripts", str(root / "transcripts"), "--run", RUN]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return root


def _cheater(folder: Path, checkout: Path) -> Path:
    folder.mkdir()
    (folder / "main.py").write_text(CHEATER.replace("CHECKOUT", repr(str(checkout))))
    (folder / "run.sh").write_text(RUN_SH)
    return folder


def _open_to_all(folder: Path) -> None:
    """Every folder above ``folder`` searchable by anyone (as a runner's home is): so that
    only the sealing keeps the ``student`` account out of the checkout's ``.casino``."""
    for above in [folder, *folder.parents]:
        if above == Path("/tmp"):
            break
        above.chmod(0o755)


def test_unsealed_the_cheater_reads_every_transcript(course: Path, tmp_path: Path) -> None:
    """What each step ran before: ``casino replay`` in the checkout, as the runner's user."""
    checkout = tmp_path / "repository"
    subprocess.run(["cp", "-r", str(course / "template"), str(checkout)], check=True)
    cheater = _cheater(tmp_path / "cheater", checkout)
    subprocess.run(["cp", "-r", f"{cheater}/.", str(checkout)], check=True)
    argv = [sys.executable, "-m", "casino", "replay", "--runner", "pipe", "--score"]
    argv += ["--program", RUN, ".casino/transcripts"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(argv, cwd=checkout, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4/4" in done.stdout.replace(" ", "")


@root_only
@pytest.mark.parametrize("mode", ["bwrap", "user"])
@pytest.mark.parametrize("who", ["cheater", "correct-00"])
def test_sealed_the_cheater_scores_nothing_and_an_honest_one_everything(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, who: str
) -> None:
    if mode == "bwrap" and not isolation_works():
        pytest.skip("no bubblewrap sandbox here")
    monkeypatch.setenv("CASINO_AUTOGRADER_SANDBOX", mode)
    checkout = tmp_path / "work" / "repository"
    checkout.parent.mkdir()
    _open_to_all(checkout.parent)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(checkout))
    if who == "cheater":
        submission = _cheater(tmp_path / "cheater", checkout)
    else:
        submission = course / "submissions" / who
    env = run_workflow(course / "template", submission, checkout)
    runners = env.pop("INPUT_RUNNERS")
    assert reporter(env, runners) == ((0, 4) if who == "cheater" else (4, 4))
    assert NOT_SEALED[1:-1] not in (checkout / ".casino" / "transcript1.log").read_text()
    if who == "cheater":  # it looked, and found nothing it could read
        said = base64.b64decode(env["TRANSCRIPT1_RESULTS"]).decode()
        assert "no transcripts to read:" in said
        assert ("PermissionError" if mode == "user" else "FileNotFoundError") in said
    assert (checkout / ".casino").stat().st_mode & 0o777 == 0o755  # given back after


STEALING_BUILD = "cp -r CHECKOUT/.casino stolen || cp -r ../.casino stolen || true"


@root_only
@pytest.mark.parametrize("mode", ["bwrap", "user"])
def test_a_build_that_copies_the_transcripts_finds_none(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """The build is the student's too (a ``Makefile``): it runs sealed like every run, so a
    build that copies ``.casino`` beside the program (``stolen/``) copies nothing."""
    if mode == "bwrap" and not isolation_works():
        pytest.skip("no bubblewrap sandbox here")
    monkeypatch.setenv("CASINO_AUTOGRADER_SANDBOX", mode)
    checkout = tmp_path / "work" / "repository"
    checkout.parent.mkdir()
    _open_to_all(checkout.parent)
    argv = [sys.executable, "-m", "casino", "grade", "export", "--github-classroom"]
    argv += [str(tmp_path / "template"), "--transcripts", str(course / "transcripts")]
    argv += ["--run", RUN, "--build", STEALING_BUILD.replace("CHECKOUT", str(checkout))]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    env = run_workflow(tmp_path / "template", _cheater(tmp_path / "cheater", checkout), checkout)
    runners = env.pop("INPUT_RUNNERS")
    assert reporter(env, runners) == (0, 4)
    said = base64.b64decode(env["TRANSCRIPT1_RESULTS"]).decode()
    assert "no transcripts to read:" in said and "FileNotFoundError" in said


def test_not_as_root_and_without_a_sandbox_the_step_says_it_was_not_sealed(
    course: Path, tmp_path: Path
) -> None:
    """Through the step's own command, as a user who is not root with nothing to drop to."""
    checkout = tmp_path / "repository"
    subprocess.run(["cp", "-r", str(course / "template"), str(checkout)], check=True)
    subprocess.run(["cp", "-r", f"{course / 'submissions' / 'correct-00'}/.", str(checkout)])
    (tmp_path / "sub").mkdir()
    argv = [sys.executable, "-m", "casino.grade.sealed", "replay", "--submission"]
    argv += [str(tmp_path / "sub"), "--", "--runner", "pipe", "--program", RUN, ".casino"]
    env = dict(os.environ, PYTHONPATH=".casino", CASINO_AUTOGRADER_SANDBOX="user")
    if os.geteuid() == 0:  # as nobody, with the system's Python and a copy of what casino needs
        packages = nobody_pythonpath(tmp_path / "nobody")  # tox's site-packages is 0700
        env["PYTHONPATH"] = f".casino{os.pathsep}{packages}"
        argv = [SYSTEM_PYTHON, *argv[1:]]
        argv = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", *argv]
        _open_to_all(tmp_path)
        subprocess.run(["chown", "-R", "65534:65534", str(checkout), str(tmp_path / "sub")])
    done = subprocess.run(argv, cwd=checkout, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"the student's program is {NOT_SEALED[1:-1]}" in done.stderr
    own = sorted(p.name for p in (course / "submissions" / "correct-00").iterdir())
    assert sorted(p.name for p in (tmp_path / "sub").iterdir()) == own  # no .casino, .github


FAKE_ID = '[ "$*" = "-u" ] && { echo 1001; exit 0; }\nexec /usr/bin/id "$@"\n'
FAKE_SUDO = 'echo "$*" >> "$(dirname "$0")/sudo.log"\n[ "$1" = -n ] && shift\nexec "$@"\n'


@root_only
def test_a_runner_that_is_not_root_seals_through_its_sudo(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub's runner is uid 1001 with a passwordless ``sudo``: the step runs casino through
    it (here a ``sudo`` that only records its words, and an ``id`` that says 1001), with only
    ``PATH`` and ``PYTHONPATH`` handed over, and the cheater still scores 0."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for name, text in {"id": FAKE_ID, "sudo": FAKE_SUDO}.items():
        (tools / name).write_text(text)
        (tools / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    checkout = tmp_path / "work" / "repository"
    checkout.parent.mkdir()
    _open_to_all(checkout.parent)
    env = run_workflow(course / "template", _cheater(tmp_path / "cheater", checkout), checkout)
    runners = env.pop("INPUT_RUNNERS")
    assert reporter(env, runners) == (0, 4)
    said = (tools / "sudo.log").read_text().splitlines()
    assert said[0] == "-n true"
    assert said[1].startswith(f"-n env PATH={tools}:")
    assert f" PYTHONPATH=.casino {sys.executable} -P -m casino.grade.sealed replay " in said[1]
    copy = said[1].split(" --submission ", 1)[1].split()[0]  # the step's copy, removed after
    assert said[2].startswith("-n env ") and said[2].endswith(f" rm -rf {copy}")
    assert not Path(copy).exists() and len(said) == 3 * 3


def test_the_workflow_seals_the_runner_before_the_tests(course: Path) -> None:
    workflow = yaml.safe_load((course / "template/.github/workflows/classroom.yml").read_text())
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    names = [step["name"] for step in steps]
    seal = names.index("Seal the student's program")
    assert seal < min(names.index(step["name"]) for step in steps if "id" in step)
    script = steps[seal]["run"]
    assert "sudo apt-get install -y -qq bubblewrap" in script
    assert "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true" in script
    assert "sudo useradd --system --no-create-home --shell /usr/sbin/nologin student" in script
    for step in steps:
        if "run" in step:
            checked = subprocess.run(["bash", "-n"], input=step["run"], text=True)
            assert checked.returncode == 0, step["name"]
