"""``casino grade --due``: a Canvas download with three late submissions and one extension, a
Moodle download and a Git list each get the seed's penalties, shown per student in the
gradebook, the feedback, the summary and the platform's grade import."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.grade import cli
from casino.grade.late import parse_when, read_extensions
from grade.grade_support import BUILD, RUN, UNSANDBOXED, write_course

GIT = shutil.which("git") is not None
DUE = "2019-05-31T15:00+10:00"


def grade(root: Path, source: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``casino grade SOURCE`` with the course's transcripts, results in ``root/grades`` (as
    ``test_grade_intake.grade``), run by its ``main`` in this process: the same code, without
    a Python started and casino imported for each grading (0.3 s of CPU each)."""
    argv = ["grade", str(source), "--transcripts", str(root / "transcripts"), "--run", RUN]
    argv += ["--build", BUILD, "--out", str(root / "grades"), "--jobs", "1", *options]
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(argv, stdout=out, stderr=err)
    return subprocess.CompletedProcess(argv, status, out.getvalue(), err.getvalue())


CANVAS = {
    # student: (user id, late marker)
    "adalovelace": (201, False),
    "alanturing": (202, True),
    "gracehopper": (203, True),
    "linustorvalds": (204, True),
    "barbaraliskov": (205, True),
}
CANVAS_TIMES = """\
student,submitted
201,2019-05-31T14:59+10:00
202,2019-06-01T10:00+10:00
203,2019-06-02T16:00+10:00
204,2019-06-05T15:00+10:00
205,2019-06-02T12:00+10:00
"""
"""Canvas's own times (its Submissions API's ``submitted_at``), by user id: Alan 1 day late,
Grace 3 days (started), Linus 5 days (past Nimsys's last day), Barbara 2 days but extended."""


def canvas(root: Path) -> Path:
    """A Canvas download of five correct programs (4 points each), four marked late."""
    write_course(root, {"correct": len(CANVAS)})
    download = root / "canvas"
    download.mkdir()
    for number, (login, (user, late)) in enumerate(CANVAS.items()):
        marker = "_LATE" if late else ""
        for file in (root / "submissions" / f"correct-{number:02d}").iterdir():
            shutil.copy(file, download / f"{login}{marker}_{user}_{9000 + user}_{file.name}")
    shutil.rmtree(root / "submissions")
    (root / "extensions.csv").write_text("student,new due\n205,2019-06-03T15:00+10:00\n")
    return download


@pytest.fixture(scope="module")
def canvas_course(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One Canvas download (and its course) for every Canvas test: the first grading fills
    the cache in ``grades/cache``, so a later one with other late options grades no one again
    (the scores are the same; only the penalties differ)."""
    root = tmp_path_factory.mktemp("canvas")
    return root, canvas(root)


def run(root: Path, source: Path, *options: str) -> subprocess.CompletedProcess[str]:
    done = grade(root, source, "--due", DUE, *UNSANDBOXED, *options)
    assert done.returncode == 0, done.stderr
    return done


def book(root: Path) -> list[str]:
    return (root / "grades" / "gradebook.csv").read_text().splitlines()


def feedback(root: Path, student: str) -> str:
    return (root / "grades" / "feedback" / f"{student}.txt").read_text()


def test_a_canvas_download_with_three_late_and_one_extension(
    canvas_course: tuple[Path, Path],
) -> None:
    tmp_path, download = canvas_course
    (tmp_path / "times.csv").write_text(CANVAS_TIMES)
    options = ["--late", "nimsys", "--extensions", str(tmp_path / "extensions.csv")]
    run(tmp_path, download, *options, "--submitted", str(tmp_path / "times.csv"))
    assert book(tmp_path) == [
        "student,score,max,days_late,penalty,final,args.yaml,greet.yaml,state/chain.yaml",
        "adalovelace_201,4,4,0,0,4,1,1,2",
        "alanturing_202,4,4,1,0.8,3.2,1,1,2",
        "barbaraliskov_205,4,4,0,0,4,1,1,2",
        "gracehopper_203,4,4,3,2.4,1.6,1,1,2",
        "linustorvalds_204,4,4,5,4,0,1,1,2",
    ]
    assert (tmp_path / "grades" / "canvas.csv").read_text().splitlines()[2:] == [
        "adalovelace,201,,,,4",
        "alanturing,202,,,,3.2",
        "barbaraliskov,205,,,,4",
        "gracehopper,203,,,,1.6",
        "linustorvalds,204,,,,0",
    ]
    assert feedback(tmp_path, "gracehopper_203").splitlines()[:3] == [
        "gracehopper_203: 1.6/4 final (raw 4/4, late penalty 2.4)",  # the final first
        "submitted 2019-06-02 16:00 +1000 (--submitted); due 2019-05-31 15:00 +1000",
        "3 days late (20% of the score per day late; no mark after 4 days late): raw 4, "
        "penalty 2.4, final 1.6/4",
    ]
    assert feedback(tmp_path, "barbaraliskov_205").splitlines()[1:3] == [
        "submitted 2019-06-02 12:00 +1000 (--submitted); due 2019-06-03 15:00 +1000 (extended)",
        "on time: no penalty",
    ]
    assert feedback(tmp_path, "adalovelace_201").splitlines()[0] == "adalovelace_201: 4/4"
    page = (tmp_path / "grades" / "summary.html").read_text()
    assert "<h2>Late work</h2>" in page
    grace = page[page.index('<a href="feedback/gracehopper_203.txt">') :].split("</tr>")[0]
    assert "</a></td><td>1.6/4</td><td>4/4</td><td>2.4</td>" in grace  # final, raw, penalty
    assert "<td>linustorvalds_204</td>" in page and "<td>adalovelace_201</td>" not in page
    late = json.loads((tmp_path / "grades" / "gradebook.json").read_text())["students"][1]["late"]
    assert (late["days"], late["final"], late["source"]) == (1, pytest.approx(3.2), "--submitted")


def test_canvas_late_markers_alone_count_as_one_day_and_say_so(
    canvas_course: tuple[Path, Path],
) -> None:
    tmp_path, download = canvas_course
    run(tmp_path, download, "--late", "videopoker")
    assert [row.split(",")[3:6] for row in book(tmp_path)[1:]] == [
        ["0", "0", "4"],
        *[["1", "0.2", "3.8"]] * 4,  # 2^0 points of a grade out of 20, of a score out of 4
    ]
    assert "Canvas marked it _LATE_; its time is unknown" in feedback(tmp_path, "alanturing_202")


def test_a_moodle_download_takes_the_zip_times_as_a_last_resort(tmp_path: Path) -> None:
    write_course(tmp_path, {"correct": 2})
    times = {"Ada Lovelace_101": (2019, 5, 31, 14, 0, 0), "Alan Turing_102": (2019, 6, 1, 15, 2, 0)}
    archive = tmp_path / "moodle.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for number, (student, when) in enumerate(times.items()):
            folder = tmp_path / "submissions" / f"correct-{number:02d}"
            for file in sorted(folder.iterdir()):
                entry = zipfile.ZipInfo(f"{student}_assignsubmission_file_/{file.name}", when)
                out.writestr(entry, file.read_bytes())
    shutil.rmtree(tmp_path / "submissions")
    run(tmp_path, archive, "--due", "2019-05-31T15:00", "--late", "nimsys")
    assert [row.split(",")[:6] for row in book(tmp_path)[1:]] == [
        ["Ada Lovelace_101", "4", "4", "0", "0", "4"],
        ["Alan Turing_102", "4", "4", "2", "1.6", "2.4"],
    ]
    assert "the newest file's time in the download: the last resort" in feedback(
        tmp_path, "Alan Turing_102"
    )
    assert (tmp_path / "grades" / "moodle.csv").read_text().splitlines()[2].split(",")[2] == "2.4"

    # Moodle's own worksheet wins over the zip's times; an extension by participant number.
    (tmp_path / "worksheet.csv").write_text(
        "Identifier,Full name,Status,Last modified (submission),Grade\n"
        'Participant 102,Alan Turing,Submitted,"Monday, 3 June 2019, 3:30 PM",\n'
        "Participant 103,Grace Hopper,No submission,-,\n"  # every participant is listed
        'Participant 104,Edsger Dijkstra,Submitted,"Monday, 3 June 2019, 1:00 PM",\n'
    )
    (tmp_path / "extensions.csv").write_text("Participant 102,2019-06-01T15:00\n")
    more = ["--submitted", str(tmp_path / "worksheet.csv")]
    more += ["--extensions", str(tmp_path / "extensions.csv")]
    run(tmp_path, archive, "--due", "2019-05-31T15:00", "--late", "nimsys", *more)
    assert book(tmp_path)[2].split(",")[:6] == ["Alan Turing_102", "4", "4", "3", "2.4", "1.6"]
    assert "(--submitted); due 2019-06-01 15:00" in feedback(tmp_path, "Alan Turing_102")
    assert "(extended)" in feedback(tmp_path, "Alan Turing_102")


def _commit(folder: Path, when: str, message: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="s", GIT_AUTHOR_EMAIL="s@x", GIT_COMMITTER_NAME="s")
    env.update(GIT_COMMITTER_EMAIL="s@x", GIT_COMMITTER_DATE=when, GIT_AUTHOR_DATE=when)
    for command in (["add", "-A"], ["commit", "-q", "--allow-empty", "-m", message]):
        subprocess.run(["git", *command], cwd=folder, env=env, check=True)


@pytest.mark.skipif(not GIT, reason="git is not installed")
def test_a_git_list_grades_the_commit_at_the_due_and_late_commits_are_late(
    tmp_path: Path,
) -> None:
    write_course(tmp_path, {"correct": 2})
    early, late = (tmp_path / "repos" / name for name in ("early", "late"))
    shutil.copytree(tmp_path / "submissions" / "correct-00", early)
    subprocess.run(["git", "init", "-q"], cwd=early, check=True)
    _commit(early, "2019-05-31T14:00:00+10:00", "done in time")
    (early / "main.py").write_text("print('broken after the due')\n")
    _commit(early, "2019-06-01T09:00:00+10:00", "broke it")
    shutil.copytree(tmp_path / "submissions" / "correct-01", late)
    subprocess.run(["git", "init", "-q"], cwd=late, check=True)
    _commit(late, "2019-06-02T10:00:00+10:00", "two days late")
    (tmp_path / "repos.txt").write_text("repos/early\nrepos/late\n")
    run(tmp_path, tmp_path / "repos.txt", "--late", "videopoker")
    assert [row.split(",")[:6] for row in book(tmp_path)[1:]] == [
        ["early", "4", "4", "0", "0", "4"],  # graded as it was at the due
        ["late", "4", "4", "2", "0.4", "3.6"],  # 2^1 points of 20, of 4
    ]
    assert "the last at the due; 1 later commit not graded" in feedback(tmp_path, "early")


def test_a_list_naming_nobody_or_a_rule_without_due_is_one_line(
    canvas_course: tuple[Path, Path],
) -> None:
    tmp_path, download = canvas_course
    (tmp_path / "typo.csv").write_text("206,2019-06-03T15:00+10:00\n")
    done = grade(tmp_path, download, "--due", DUE, "--extensions", str(tmp_path / "typo.csv"))
    assert (done.returncode, done.stderr) == (
        1,
        "casino grade: --extensions: '206' is none of the students\n",
    )
    done = grade(tmp_path, download, "--late", "nimsys")
    assert (done.returncode, done.stderr) == (
        2,
        "casino grade: --late needs --due (see casino grade --help)\n",
    )


def _moodle_zip(root: Path) -> Path:
    """A Moodle download of two correct programs (Ada Lovelace_101, Alan Turing_102)."""
    write_course(root, {"correct": 2})
    archive = root / "moodle.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for number, student in enumerate(("Ada Lovelace_101", "Alan Turing_102")):
            folder = root / "submissions" / f"correct-{number:02d}"
            for file in sorted(folder.iterdir()):
                name = f"{student}_assignsubmission_file_/{file.name}"
                out.writestr(zipfile.ZipInfo(name, (2019, 5, 31, 12, 0, 0)), file.read_bytes())
    shutil.rmtree(root / "submissions")
    return archive


@pytest.fixture
def on_a_utc_machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The grader's machine in UTC (its zone restored after)."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("on_a_utc_machine")
def test_a_lisbon_worksheet_on_a_utc_machine_is_warned_of_and_read_with_timezone(
    tmp_path: Path,
) -> None:
    """Ada handed in at 2:30 PM Lisbon time, half an hour before the due: read on a UTC
    machine without --timezone she is a day late, and the grader is told why; with
    ``--timezone Europe/Lisbon`` she is on time and nothing is said."""
    archive = _moodle_zip(tmp_path)
    (tmp_path / "worksheet.csv").write_text(
        "Identifier,Full name,Status,Last modified (submission),Grade\n"
        'Participant 101,Ada Lovelace,Submitted,"Friday, 31 May 2019, 2:30 PM",\n'
        'Participant 102,Alan Turing,Submitted,"Friday, 31 May 2019, 4:30 PM",\n'
    )
    options = ["--due", "2019-05-31T15:00+01:00", "--late", "nimsys"]
    options += ["--submitted", str(tmp_path / "worksheet.csv")]
    guessed = run(tmp_path, archive, *options)
    warning = [line for line in guessed.stderr.splitlines() if "warning" in line]
    assert warning == [
        f"casino grade: warning: 2 times state no time zone (the first: "
        f"{tmp_path / 'worksheet.csv'}: line 2); read in this machine's, UTC: give --timezone "
        "ZONE (e.g. Europe/Lisbon) to say which"
    ]
    assert [row.split(",")[3] for row in book(tmp_path)[1:]] == ["1", "1"]
    told = run(tmp_path, archive, *options, "--timezone", "Europe/Lisbon")
    assert "warning" not in told.stderr
    assert [row.split(",")[3] for row in book(tmp_path)[1:]] == ["0", "1"]
    assert feedback(tmp_path, "Ada Lovelace_101").splitlines()[1] == (
        "submitted 2019-05-31 14:30 +0100 (--submitted); due 2019-05-31 15:00 +0100"
    )


def test_a_first_extension_row_with_a_bad_date_is_refused_not_taken_for_a_header(
    canvas_course: tuple[Path, Path],
) -> None:
    """Issue 39: ``205,2019-06-31T15:00`` first in the list was skipped as a header, and
    student 205 silently kept the course's due; a first row without a digit in its second
    cell (``student,new due``) is still a header."""
    tmp_path, download = canvas_course
    (tmp_path / "bad.csv").write_text("205,2019-06-31T15:00+10:00\n")
    done = grade(tmp_path, download, "--due", DUE, "--extensions", str(tmp_path / "bad.csv"))
    assert (done.returncode, done.stderr) == (
        2,
        f"casino grade: {tmp_path / 'bad.csv'}: line 1: expected a date and time such as "
        "2019-05-31T15:00 or 2019-05-31T15:00+10:00, got '2019-06-31T15:00+10:00' "
        "(see casino grade --help)\n",
    )
    assert read_extensions("Student , Nueva fecha\n205,2019-06-03T15:00+10:00\n", "x") == {
        "205": parse_when("2019-06-03T15:00+10:00")
    }
