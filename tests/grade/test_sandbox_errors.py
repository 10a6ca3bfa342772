"""One submission never costs another anything: whatever fails grading it is its own ERROR
row and the course goes on; a full disk is one line; the cache's key is private."""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path

import pytest

import casino.grade.cli
import casino.grade.course
import casino.grade.work
import casino.harness.runners.sandbox
from grade.grade_support import TRANSCRIPTS

PROGRAM = 'import sys\nprint(len(sys.argv) - 1, "args")\n'


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One transcript (args.yaml), two right students; the grader's cache folder in it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "grader-cache"))
    (tmp_path / "transcripts").mkdir()
    (tmp_path / "transcripts" / "args.yaml").write_text(TRANSCRIPTS["args.yaml"])
    for name in ("ann", "bob"):
        (tmp_path / "subs" / name).mkdir(parents=True)
        (tmp_path / "subs" / name / "main.py").write_text(PROGRAM)
    return tmp_path


def grade(root: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv = ["grade", str(root / "subs"), "--transcripts", str(root / "transcripts")]
    argv += ["--run", "python3 -S main.py", "--jobs", "1", "--out", str(root / "g")]
    status = casino.grade.cli.main([*argv, "--trust-submissions"], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_a_submission_that_breaks_the_grader_is_its_own_error_row(
    course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = casino.grade.course.copy_submission

    def breaks_on_bob(source: Path, folder: Path) -> None:
        if source.name == "bob":
            raise RuntimeError("something no one foresaw")
        copy(source, folder)

    monkeypatch.setattr(casino.grade.work, "copy_submission", breaks_on_bob)
    status, out, err = grade(course)
    assert out.startswith("graded 2 submissions: 1 with full marks")
    assert (status, err) == (0, "")
    assert (course / "g" / "gradebook.csv").read_text().splitlines()[1:] == [
        "ann,1,1,1",
        "bob,0,1,0",
    ]
    feedback = (course / "g" / "feedback" / "bob.txt").read_text()
    assert feedback == (
        "bob: 0/1\nnot graded: grading it failed: RuntimeError('something no one foresaw')\n\n"
    )
    assert '"args.yaml": "error"' in (course / "g" / "gradebook.json").read_text()


def test_a_full_disk_is_one_line(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(path: object, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(casino.grade.cli, "write_atomic", full)
    status, out, err = grade(course)
    assert (status, out) == (1, "")
    assert (
        err
        == f"casino grade: cannot write the results to {course / 'g'}: No space left on device\n"
    )


def test_the_cache_key_is_the_graders_alone(course: Path) -> None:
    assert grade(course)[0] == 0
    key = course / "grader-cache" / "casino" / "grade.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert len(key.read_bytes()) == 32
    assert not list((course / "g" / "cache").glob(".key"))  # kept outside --out


def test_without_a_sandbox_it_refuses_in_one_line(
    course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # casino grade imports the sandbox's check once its command line is read
    monkeypatch.setattr(casino.harness.runners.sandbox, "isolation_works", lambda: False)
    out, err = io.StringIO(), io.StringIO()
    argv = ["grade", str(course / "subs"), "--transcripts", str(course / "transcripts")]
    argv += ["--run", "python3 -S main.py", "--jobs", "1", "--out", str(course / "g")]
    assert casino.grade.cli.main(argv, stdout=out, stderr=err) == 1
    assert (out.getvalue(), err.getvalue()) == ("", casino.grade.cli.NO_SANDBOX + "\n")
    assert not (course / "g").exists()  # nothing ran, nothing written
    status, graded, _ = grade(course)  # --trust-submissions: graded without one
    assert status == 0
    assert "sandbox: none of its own (--trust-submissions)" in graded


def test_names_of_any_bytes_are_graded_and_told_apart(course: Path) -> None:
    subs = os.fsencode(course / "subs")
    for raw in (b"Jos\xe9", b"Jos\\xe9", b"\xe9" * 250):
        os.mkdir(subs + b"/" + raw)
        with open(subs + b"/" + raw + b"/main.py", "w") as handle:
            handle.write(PROGRAM)
    status, out, err = grade(course)
    assert (status, err) == (0, "")
    long_name = "\\xe9" * 250
    names = [row.split(",")[0] for row in (course / "g" / "gradebook.csv").read_text().splitlines()]
    assert names == ["student", "Jos\\xe9", "Jos\\xe9 (2)", long_name, "ann", "bob"]
    feedback = sorted(path.name for path in (course / "g" / "feedback").iterdir())
    assert len(feedback) == 5
    assert all(len(os.fsencode(name)) <= 255 for name in feedback)
    long_file = next(name for name in feedback if name.startswith("\\xe9"))
    assert (course / "g" / "feedback" / long_file).read_text().startswith(f"{long_name}: 1/1\n")
    assert grade(course)[1] == out  # and a re-run finds each one's cache
