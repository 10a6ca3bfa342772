"""What a program or a submission's name can put in front of the staff is shown, never obeyed:
C0 and C1 control characters (ESC, U+009B, the terminal's CSI in one character) are written
``\\xNN`` in ``replay``'s terminal output, feedback, the summary page, ``gradebook.csv`` and the
feedback files' names; CSV cells a spreadsheet would take for a formula, tab and carriage
return first included, are quoted. The grader's own environment does not reach a run, and a
hard link to a file others may not read is not copied into one."""

from __future__ import annotations

import io
import os
import resource
import subprocess
from pathlib import Path

import pytest

from casino.__main__ import main as casino_main
from casino.grade import cli
from casino.grade.books import text_cell
from casino.grade.course import copy_submission, file_stem, shown_name, submission_files
from casino.harness.report import escaped_controls, visible
from casino.harness.runners import cgroup
from casino.harness.runners.sandbox import Sandbox, confine
from grade.grade_support import SANDBOXED, UNSANDBOXED

CSI, ESC = "\u009b", "\x1b"
HOSTILE_OUTPUT = f"""\
import sys
sys.stdout.write("{CSI}31mRED{ESC}[0m\\n")
sys.stderr.write("boom {CSI}2J{ESC}]0;title\\x07 {ESC}[31m\\n")
sys.exit(1)
"""
TRANSCRIPT = 'name: says hello\nsteps:\n  - out: "hello\\n"\ntimeout: 5\n'


def test_controls_are_written_as_escapes() -> None:
    assert escaped_controls(f"a{CSI}b{ESC}c\x7f\x85é\n", keep="\n") == "a\\x9bb\\x1bc\\x7f\\x85é\n"
    assert visible(f"{CSI}x\t") == "\\x9bx→"


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+2", "'=1+2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1+2", "'\t=1+2"),
        ("\r=1+2", "'\\x0d=1+2"),
        (f"{ESC}[31mred", "\\x1b[31mred"),
        (f"a{CSI}2Jb", "a\\x9b2Jb"),
        ("two\nlines", "two\nlines"),
        ("Ada Lovelace", "Ada Lovelace"),
    ],
)
def test_a_csv_cell_is_text_and_inert(cell: str, written: str) -> None:
    assert text_cell(cell) == written


def test_a_name_and_its_file_never_hold_a_control() -> None:
    assert shown_name(f"eve{ESC}[2J") == "eve\\x1b[2J"
    assert file_stem(f"mallory{CSI}31m") == "mallory\\x9b31m"


def casino(*argv: str) -> subprocess.CompletedProcess[str]:
    """``casino ARGV…`` as its own ``main`` runs it, in this process (the same code, without a
    Python started and casino imported for it: 0.3 s of CPU)."""
    out, err = io.StringIO(), io.StringIO()
    status = casino_main(list(argv), stdout=out, stderr=err)
    return subprocess.CompletedProcess(["casino", *argv], status, out.getvalue(), err.getvalue())


def test_replay_shows_a_programs_controls_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "prog.py").write_text(HOSTILE_OUTPUT, encoding="utf-8")
    (tmp_path / "t.yaml").write_text(TRANSCRIPT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    done = casino("replay", "--program", "python3 prog.py", "t.yaml")
    assert done.returncode == 1
    assert ESC not in done.stdout and CSI not in done.stdout
    assert "+\\x9b31mRED\\x1b[0m" in done.stdout
    assert "boom \\x9b2J\\x1b]0;title\\x07 \\x1b[31m" in done.stdout


def test_grading_shows_them_escaped_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A student named with an ESC whose program prints C1 and ESC and crashes."""
    name = f"eve{ESC}[2J"
    folder = tmp_path / "submissions" / name
    folder.mkdir(parents=True)
    (folder / "prog.py").write_text(HOSTILE_OUTPUT, encoding="utf-8")
    (tmp_path / "t.yaml").write_text(TRANSCRIPT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    done = casino(
        "grade", "submissions", "--transcripts", "t.yaml", "--run", "python3 prog.py",
        "--jobs", "1", *UNSANDBOXED,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = tmp_path / "grades"
    assert [p.name for p in (out / "feedback").iterdir()] == ["eve\\x1b[2J.txt"]
    for path in [out / "gradebook.csv", out / "summary.html", *(out / "feedback").iterdir()]:
        text = path.read_text(encoding="utf-8")
        assert ESC not in text and CSI not in text, path
    assert "eve\\x1b[2J,0,1,0" in (out / "gradebook.csv").read_text()
    assert "boom \\x9b2J\\x1b]0;title\\x07" in (out / "summary.html").read_text()


def test_a_run_gets_a_fixed_list_of_the_graders_variables(tmp_path: Path) -> None:
    graders = {
        "PYTHONPATH": "/grader/lib",
        "PYTHONSTARTUP": "/grader/evil.py",
        "LC_ALL": "C",
        "LC_CTYPE": "C",
        "LANGUAGE": "fr",
        "SECRET_TOKEN": "x",
        "LANG": "C.UTF-8",
        "TERM": "xterm",
        "CASINO_SEED": "7",
    }
    _, env = confine(["true"], graders, tmp_path, None, Sandbox(isolate=True))
    assert set(env) == {"LANG", "TERM", "CASINO_SEED", "PATH", "HOME", "TMPDIR", "MALLOC_ARENA_MAX"}
    assert (env["LANG"], env["CASINO_SEED"], env["HOME"]) == ("C.UTF-8", "7", str(tmp_path))


@pytest.mark.skipif(not SANDBOXED, reason="no bubblewrap sandbox here")
def test_the_summary_names_the_seal() -> None:
    line = cli.describe(Sandbox(isolate=True, processes=8, paths=("/opt/jdk",)))
    assert line.startswith("bubblewrap (own file system, processes, uid, user namespace, ")
    assert "; also /opt/jdk read-only;" in line
    assert f"; {cgroup.describe()}; " in line


def test_a_hard_link_is_copied_only_if_anyone_may_read_its_target(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret, public = outside / "secret", outside / "public"
    secret.write_text("the grader's key\n")
    public.write_text("anyone's\n")
    secret.chmod(0o600)
    public.chmod(0o644)
    mine = tmp_path / "student"
    mine.mkdir()
    os.link(secret, mine / "secret.txt")
    os.link(public, mine / "public.txt")
    (mine / "own.txt").write_text("mine\n")
    (mine / "own.txt").chmod(0o600)  # the student's own file, one link: theirs to copy
    copy = tmp_path / "copy"
    copy.mkdir()
    copy_submission(mine, copy)
    assert sorted(p.name for p in copy.iterdir()) == ["own.txt", "public.txt"]
    assert [name for name, _ in submission_files(mine)] == ["own.txt", "public.txt"]


@pytest.mark.parametrize(
    ("option", "value", "bounds"),
    [
        ("--disk", "1234567890123", "from 1 to 1048576"),
        ("--memory", "1234567890123", "from 1 to 1048576"),
        ("--file-size", "2000000", "from 1 to 1048576"),
        ("--address-space", "0", "from 1 to 1048576"),
        ("--cpu", "86401", "from 1 to 86400"),
        ("--processes", "99999999", "from 1 to 4194304"),
    ],
)
def test_an_absurd_limit_is_refused_on_the_command_line(
    tmp_path: Path, option: str, value: str, bounds: str
) -> None:
    """(Asked of ``casino grade``'s main in this process: the parser refuses before anything
    runs, so no grader need be started for each.)"""
    (tmp_path / "t.yaml").write_text(TRANSCRIPT, encoding="utf-8")
    argv = ["grade", str(tmp_path), "--transcripts", str(tmp_path / "t.yaml")]
    argv += ["--run", "true", option, value]
    out, err = io.StringIO(), io.StringIO()
    assert (cli.main(argv, stdout=out, stderr=err), out.getvalue()) == (2, "")
    assert err.getvalue() == (
        f"casino grade: argument {option}: not a whole number {bounds}: {value!r} "
        "(see casino grade --help)\n"
    )
    assert not (tmp_path / "grades").exists()


def test_a_limit_above_the_hard_one_is_the_hard_one(tmp_path: Path) -> None:
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    if hard == resource.RLIM_INFINITY:
        pytest.skip("no hard limit on processes here")
    argv, _ = confine(["true"], {}, tmp_path, None, Sandbox(isolate=True, processes=hard + 1))
    assert f"--nproc={hard}" in argv
