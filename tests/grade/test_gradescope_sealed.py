"""The Gradescope autograder is as sealed as ``casino grade``: run in Gradescope's layout (a
temporary ``autograder/`` holding ``source/``, ``submission/`` and ``results/``), as root as
Gradescope runs it, a student's program that reads ``source/transcripts/`` and replays what
it finds scores 0, hidden tests included, in casino's sandbox and, where there is none, as the
unprivileged ``student`` (or ``nobody``). Unsealed (``casino replay`` run as root beside the
transcripts, what ``run_autograder`` used to do), the same program scores every point.

Also: ``setup.sh`` installs a JDK for a Java course (and bubblewrap, and the account), and the
``apt-packages.txt`` hook stays.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from casino.grade.autograder import NOT_SEALED
from casino.grade.export import JDK_PACKAGES, Settings, apt_packages, needs_java
from casino.harness.runners.sandbox import isolation_works
from grade.grade_support import ROOT, write_course
from grade.test_grade_export import Exported, autograder, export, scores

CHEATER = """\
import os, sys
source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "source")
found = []
try:
    os.listdir(os.path.join(source, "transcripts"))
    sys.path.insert(0, source)
    from casino.harness.load import load_transcript
    from casino.harness.model import In, Out
    for folder, _, names in os.walk(os.path.join(source, "transcripts")):
        for name in names:
            if name.endswith(".yaml"):
                found.append(load_transcript(os.path.join(folder, name)))
except Exception as error:
    print("no transcripts to read:", error, file=sys.stderr)
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
"""Implements nothing: finds its transcript beside the submission and prints what it expects."""

RUN_SH = 'exec python3 "$(dirname "$0")/main.py" "$@"\n'
ALL_ZERO = [
    ("counts (visible/args.yaml)", 0, 1, "failed", "visible"),
    ("greets (visible/greet.yaml)", 0, 1, "failed", "visible"),
    ("remembers (hidden/chain.yaml) run 1 of 2", 0, 1, "failed", "after_published"),
    ("remembers (hidden/chain.yaml) run 2 of 2", 0, 1, "failed", "after_published"),
]

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="Gradescope runs it as root")


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Exported:
    """The course, its export, and the cheater's submission (``submissions/cheater``)."""
    root = tmp_path_factory.mktemp("sealed")
    write_course(root, {"correct": 1})
    cheater = root / "submissions" / "cheater"
    cheater.mkdir()
    (cheater / "main.py").write_text(CHEATER, encoding="utf-8")
    (cheater / "run.sh").write_text(RUN_SH, encoding="utf-8")
    done = export(root, "--gradescope", str(root / "out"))
    assert done.returncode == 0, done.stderr
    return root, done


def test_unsealed_the_cheater_reads_every_transcript(course: Exported, tmp_path: Path) -> None:
    """What ``run_autograder`` did before: ``casino replay`` as root beside the transcripts."""
    root, _ = course
    layout = tmp_path / "autograder"
    with zipfile.ZipFile(root / "out" / "autograder.zip") as opened:
        opened.extractall(layout / "source")
    shutil.copytree(root / "submissions" / "cheater", layout / "submission")
    argv = [sys.executable, "-m", "casino", "replay", "--runner", "pipe", "--score"]
    argv += ["--program", "sh run.sh", "--program-dir", str(layout / "submission")]
    argv += [str(layout / "source" / "transcripts")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4/4" in done.stdout.replace(" ", "")


@root_only
@pytest.mark.skipif(not isolation_works(), reason="no bubblewrap sandbox here")
def test_in_the_sandbox_the_cheater_scores_nothing(
    course: Exported, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = course
    monkeypatch.setenv("CASINO_AUTOGRADER_SANDBOX", "bwrap")
    graded = autograder(tmp_path, root / "out" / "autograder.zip", root / "submissions" / "cheater")
    assert scores(graded) == ALL_ZERO
    outputs = [test["output"] for test in graded["tests"]]  # shown when one lacks it
    assert all("no transcripts to read: [Errno 2]" in output for output in outputs), outputs
    assert graded["score"] == 0 and NOT_SEALED not in graded["output"]


@root_only
@pytest.mark.parametrize("who", ["cheater", "correct-00"])
def test_as_the_student_user_the_cheater_scores_nothing_and_an_honest_one_everything(
    course: Exported, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, who: str
) -> None:
    """Where no sandbox can be made (Gradescope's container): the program runs as the
    ``student`` account (``nobody`` here), who cannot read ``source/``."""
    root, _ = course
    monkeypatch.setenv("CASINO_AUTOGRADER_SANDBOX", "user")
    for folder in [tmp_path, *tmp_path.parents]:  # as Gradescope's /: open to all
        if folder == Path("/tmp"):
            break
        folder.chmod(0o755)
    graded = autograder(tmp_path, root / "out" / "autograder.zip", root / "submissions" / who)
    if who == "cheater":
        assert scores(graded) == ALL_ZERO
        refused = "no transcripts to read: [Errno 13] Permission denied"
        outputs = [test["output"] for test in graded["tests"]]  # shown when one lacks it
        assert all(refused in output for output in outputs), outputs
        assert graded["score"] == 0
    else:
        assert [score for _, score, *_ in scores(graded)] == [1, 1, 1, 1]
    assert (tmp_path / "autograder" / "source").stat().st_mode & 0o077 == 0


def test_setup_sh_installs_a_jdk_for_a_java_course(course: Exported) -> None:
    root, _ = course
    with zipfile.ZipFile(root / "out" / "autograder.zip") as opened:
        setup = opened.read("setup.sh").decode()
    assert f"apt-get install -y -qq bubblewrap {' '.join(JDK_PACKAGES)}\n" in setup
    assert "useradd --system --no-create-home --shell /usr/sbin/nologin student" in setup
    assert "xargs -a /autograder/source/apt-packages.txt apt-get install -y -qq" in setup
    checked = subprocess.run(["bash", "-n"], input=setup, text=True, capture_output=True)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    ("run", "build", "java"),
    [
        ("java -cp . Main", None, True),
        ("sh run.sh", "javac -d . *.java", True),
        ("/usr/lib/jvm/java-17/bin/java Main", None, True),
        ("python3 main.py", None, False),
        ("sh run.sh", "make", False),
    ],
)
def test_a_java_course_is_told_by_its_commands(run: str, build: str | None, java: bool) -> None:
    settings = Settings(run, build, "pipe", 120.0)
    assert needs_java(settings) is java
    assert (JDK_PACKAGES[0] in apt_packages(settings)) is java
