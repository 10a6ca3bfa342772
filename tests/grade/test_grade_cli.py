"""``casino grade``'s command line: bad input is one line, never a traceback; the progress bar
is on stderr only; what a submission holds besides regular files never reaches a run."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import casino.grade.course
from casino.grade import cli
from grade.grade_support import TRANSCRIPTS, UNSANDBOXED

PROGRAM = 'import sys\nprint(len(sys.argv) - 1, "args")\n'


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(*argv: str | Path, stderr: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), stderr or io.StringIO()
    status = cli.main(["grade", *map(str, argv)], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """One transcript (args.yaml) and two students, one of them right."""
    (tmp_path / "transcripts").mkdir()
    (tmp_path / "transcripts" / "args.yaml").write_text(TRANSCRIPTS["args.yaml"])
    for name, body in (("ann", PROGRAM), ("bob", "print('3  args')\n")):
        (tmp_path / "subs" / name).mkdir(parents=True)
        (tmp_path / "subs" / name / "main.py").write_text(body)
    return tmp_path


def grade_args(root: Path, *more: str) -> list[str | Path]:
    command = "python3 main.py"  # the system's: a sandboxed run sees only /usr
    argv = [root / "subs", "--transcripts", root / "transcripts", "--run", command]
    return [*argv, *UNSANDBOXED, *more]


def test_a_small_course_in_this_process(course: Path) -> None:
    status, out, err = run(*grade_args(course, "--jobs", "1", "--out", str(course / "g")))
    assert (status, err) == (0, "")
    assert out.startswith("graded 2 submissions: 1 with full marks, 0 build failures\n")
    book = (course / "g" / "gradebook.csv").read_text()
    assert book == "student,score,max,args.yaml\nann,1,1,1\nbob,0,1,0\n"
    # no rubric lines: the gradebooks are the transcripts' alone (docs/rubrics.md)
    data = json.loads((course / "g" / "gradebook.json").read_text())
    assert "rubric" not in data and all("rubric" not in s for s in data["students"])
    assert not (course / "g" / "rubric.json").exists()


def test_the_progress_bar_is_on_a_terminal_only_and_changes_nothing_else(course: Path) -> None:
    terminal = Terminal()
    status, out, _ = run(
        *grade_args(course, "--jobs", "1", "--out", str(course / "g")), stderr=terminal
    )
    assert status == 0
    assert terminal.getvalue().endswith("\rgrading [##############################] 2/2\n")
    again, plain, err = run(*grade_args(course, "--jobs", "1", "--out", str(course / "g")))
    assert (again, plain, err) == (0, out, "")


HINT = " (see casino grade --help)\n"
"""How a usage error ends (the program-entry contract)."""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--jobs", "0"], "casino grade: argument --jobs: not a whole number of at least 1: '0'"),
        (["--run", "'unclosed"], "casino grade: --run: No closing quotation"),
        (["--run", ""], "casino grade: --run needs a command"),
        (
            ["--build-timeout", "nan"],
            "casino grade: expected seconds above 0 (at most a day), got 'nan'",
        ),
    ],
)
def test_a_bad_command_line_is_one_line(course: Path, change: list[str], message: str) -> None:
    assert run(*grade_args(course), *change) == (2, "", message + HINT)


def test_missing_submissions_is_one_line(tmp_path: Path) -> None:
    status, out, err = run(tmp_path / "nope", "--transcripts", tmp_path, "--run", "x")
    assert (status, out, err) == (
        2,
        "",
        f"casino grade: no such folder or file: {tmp_path / 'nope'}{HINT}",
    )


def test_a_malformed_transcript_stops_before_any_grading(course: Path) -> None:
    (course / "transcripts" / "bad.yaml").write_text("name: x\nsteps: 3\n")
    status, out, err = run(*grade_args(course, "--out", str(course / "g")))
    assert status == 1 and out == ""
    assert err.startswith(f"casino grade: {course / 'transcripts' / 'bad.yaml'}: ")
    assert err.count("\n") == 1
    assert not (course / "g").exists()


def test_reference_transcripts_alone_cannot_grade(course: Path) -> None:
    (course / "transcripts" / "args.yaml").write_text(TRANSCRIPTS["reference.yaml"])
    status, _, err = run(*grade_args(course))
    assert (status, err) == (
        2,
        "casino grade: no transcripts to grade with (reference: casino ones cannot be used)" + HINT,
    )


def test_ray_not_installed_is_a_usage_error(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    status, _, err = run(*grade_args(course, "--ray", "local"))
    assert (status, err) == (
        2,
        "casino grade: --ray needs Ray: pip install -e '.[ray]' in casino's folder" + HINT,
    )


def test_a_submission_too_large_is_not_graded(
    course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(casino.grade.course, "MAX_SUBMISSION_BYTES", 60)
    (course / "subs" / "bob" / "main.py").write_text("#" * 61)
    status, _, _ = run(*grade_args(course, "--jobs", "1", "--out", str(course / "g")))
    assert status == 0
    text = (course / "g" / "feedback" / "bob.txt").read_text()
    assert text.startswith("bob: 0/1\nnot graded: the submission is over ")
    assert (course / "g" / "gradebook.csv").read_text().endswith("ann,1,1,1\nbob,0,1,0\n")


def test_only_regular_files_reach_the_copy(course: Path) -> None:
    folder = course / "subs" / "ann"
    (folder / "secret.txt").symlink_to("/etc/hostname")
    (folder / "main.py").write_text(
        "import pathlib, sys\n"
        "here = pathlib.Path(sys.argv[0]).parent\n"
        "print(sorted(p.name for p in here.iterdir()))\n"
    )
    run(*grade_args(course, "--jobs", "1", "--out", str(course / "g")))
    text = (course / "g" / "feedback" / "ann.txt").read_text()
    assert "    actual:   ['main.py']⏎\n" in text


def test_results_kept_among_the_submissions_are_not_a_student(course: Path) -> None:
    (course / "subs" / "transcripts").mkdir()
    (course / "subs" / "transcripts" / "args.yaml").write_text(TRANSCRIPTS["args.yaml"])
    command = "python3 main.py"  # the system's: a sandboxed run sees only /usr
    argv: list[str | Path] = [course / "subs", "--transcripts", course / "subs" / "transcripts"]
    argv += ["--run", command, *UNSANDBOXED]
    status, out, _ = run(*argv, "--jobs", "1", "--out", str(course / "subs" / "grades"))
    assert (status, out.splitlines()[0]) == (
        0,
        "graded 2 submissions: 1 with full marks, 0 build failures",
    )
    status, out, _ = run(*argv, "--jobs", "1", "--out", str(course / "subs" / "grades"))
    assert out.splitlines()[0] == "graded 2 submissions: 1 with full marks, 0 build failures"
