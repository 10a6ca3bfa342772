"""``casino grade`` takes submissions where courses keep them — Moodle's and Canvas's bulk
downloads (as folders and as zips), a zip of folders, a list of Git repositories — and writes
the grade imports of Moodle and Canvas. The sample exports are made here, named as those
platforms name them."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from casino.grade import cli
from casino.grade.intake import IntakeError, open_submissions
from grade.grade_support import BUILD, RUN, write_course

GIT = shutil.which("git") is not None


def grade(root: Path, source: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``casino grade SOURCE`` with the course's transcripts, results in ``root/grades``, in
    this process (what is taken in is this file's subject; the other tests of ``casino grade``
    start it as a program), what it did as a finished process's."""
    argv = ["grade", str(source), "--transcripts", str(root / "transcripts")]
    argv += ["--run", RUN, "--build", BUILD, "--out", str(root / "grades"), "--jobs", "1"]
    out, err = io.StringIO(), io.StringIO()
    status = cli.main([*argv, *options], stdout=out, stderr=err)
    return subprocess.CompletedProcess(argv, status, out.getvalue(), err.getvalue())


def book(root: Path) -> list[str]:
    """The gradebook's rows (without its header)."""
    return (root / "grades" / "gradebook.csv").read_text().splitlines()[1:]


def course(root: Path) -> dict[str, Path]:
    """Two students (one correct, one with a wrong space), their folders by kind."""
    write_course(root, {"correct": 1, "wrong_space": 1})
    return {
        "correct": root / "submissions" / "correct-00",
        "wrong": root / "submissions" / "wrong_space-00",
    }


def moodle_download(root: Path, folders: dict[str, Path], *, flat: bool) -> Path:
    """Moodle's "Download all submissions", in folders or as prefixed files."""
    download = root / "moodle"
    people = {"correct": ("Ada Lovelace", 101), "wrong": ("Alan Turing", 102)}
    for kind, folder in folders.items():
        name, number = people[kind]
        prefix = f"{name}_{number}_assignsubmission_file_"
        for file in folder.iterdir():
            target = download / (prefix + file.name) if flat else download / prefix / file.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(file, target)
    return download


def canvas_download(root: Path, folders: dict[str, Path]) -> Path:
    """Canvas's "Download Submissions": flat files, one prefix per student; the wrong one is
    late and its ``main.py`` was submitted twice (Canvas names the new one ``main-1.py``)."""
    download = root / "canvas"
    download.mkdir()
    for file in folders["correct"].iterdir():
        shutil.copy(file, download / f"lovelaceada_201_9001_{file.name}")
    for file in folders["wrong"].iterdir():
        name = "main-1.py" if file.name == "main.py" else file.name
        shutil.copy(file, download / f"turingalan_LATE_202_9002_{name}")
    return download


def zipped(folder: Path, archive: Path, *, inside: str = "") -> Path:
    """``folder``'s files in a zip (under ``inside/`` if given)."""
    with zipfile.ZipFile(archive, "w") as out:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                out.write(path, str(Path(inside, path.relative_to(folder))))
    return archive


MOODLE_CSV = """\
Identifier,Full name,Grade,Maximum Grade,Feedback comments
Participant 101,Ada Lovelace,4,4,every transcript passed
Participant 102,Alan Turing,3,4,1 of 3 transcripts not passed: see the feedback file
"""
MOODLE_BOOK = ["Ada Lovelace_101,4,4,1,1,2", "Alan Turing_102,3,4,1,0,2"]


@pytest.mark.parametrize("flat", [False, True], ids=["folders", "files"])
def test_a_moodle_download_is_graded_to_moodles_worksheet(tmp_path: Path, flat: bool) -> None:
    download = moodle_download(tmp_path, course(tmp_path), flat=flat)
    done = grade(tmp_path, download)
    assert done.returncode == 0, done.stderr
    assert book(tmp_path) == MOODLE_BOOK
    assert (tmp_path / "grades" / "moodle.csv").read_text() == MOODLE_CSV
    assert "moodle.csv for the platform's grade import" in done.stdout
    assert not (tmp_path / "grades" / "canvas.csv").exists()


def test_a_zip_of_a_moodle_download_is_the_same(tmp_path: Path) -> None:
    download = moodle_download(tmp_path, course(tmp_path), flat=False)
    archive = zipped(download, tmp_path / "export.zip", inside="Assignment 1-12345")
    done = grade(tmp_path, archive)
    assert done.returncode == 0, done.stderr
    assert book(tmp_path) == MOODLE_BOOK
    assert (tmp_path / "grades" / "moodle.csv").read_text() == MOODLE_CSV


def test_a_canvas_download_is_graded_to_canvas_import(tmp_path: Path) -> None:
    download = canvas_download(tmp_path, course(tmp_path))
    done = grade(tmp_path, zipped(download, tmp_path / "submissions.zip"), "--assignment", "P1")
    assert done.returncode == 0, done.stderr
    assert book(tmp_path) == ["lovelaceada_201,4,4,1,1,2", "turingalan_202,3,4,1,0,2"]
    assert (tmp_path / "grades" / "canvas.csv").read_text() == (
        "Student,ID,SIS User ID,SIS Login ID,Section,P1\n"
        "Points Possible,,,,,4\n"
        "lovelaceada,201,,,,4\n"
        "turingalan,202,,,,3\n"
    )


def test_a_zip_of_student_folders_is_graded_as_the_folders(tmp_path: Path) -> None:
    course(tmp_path)
    done = grade(tmp_path, zipped(tmp_path / "submissions", tmp_path / "course.zip"))
    assert done.returncode == 0, done.stderr
    assert book(tmp_path) == ["correct-00,4,4,1,1,2", "wrong_space-00,3,4,1,0,2"]
    assert not (tmp_path / "grades" / "moodle.csv").exists()


def _repository(folder: Path, source: Path) -> None:
    """A Git repository in ``folder`` holding ``source``'s files, one commit."""
    shutil.copytree(source, folder)
    env = dict(os.environ, GIT_AUTHOR_NAME="s", GIT_AUTHOR_EMAIL="s@x", GIT_COMMITTER_NAME="s")
    env["GIT_COMMITTER_EMAIL"] = "s@x"
    for command in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "solution"]):
        subprocess.run(["git", *command], cwd=folder, env=env, check=True)


@pytest.mark.skipif(not GIT, reason="git is not installed")
def test_a_list_of_repositories_is_cloned_and_graded(tmp_path: Path) -> None:
    folders = course(tmp_path)
    _repository(tmp_path / "repos" / "p1-ada.git", folders["correct"])
    _repository(tmp_path / "repos" / "p1-alan", folders["wrong"])
    listing = tmp_path / "classroom.txt"
    listing.write_text(
        "# GitHub Classroom: assignment p1\n"
        f"{tmp_path / 'repos' / 'p1-ada.git'}\n"
        "repos/p1-alan\n"  # relative to the list
        "repos/p1-nobody\n"
    )
    done = grade(tmp_path, listing)
    assert done.returncode == 0, done.stderr
    assert book(tmp_path) == ["p1-ada,4,4,1,1,2", "p1-alan,3,4,1,0,2", "p1-nobody,0,4,0,0,0"]
    feedback = (tmp_path / "grades" / "feedback" / "p1-nobody.txt").read_text()
    assert "cannot clone it:" in feedback


def test_a_zip_that_climbs_out_is_refused_in_one_line(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("student/run.sh", "echo hi\n")
        out.writestr("../../escaped.txt", "gotcha\n")
    with pytest.raises(
        IntakeError, match=re.escape("a path outside its folder: '../../escaped.txt'")
    ):
        open_submissions(archive, tmp_path / "scratch")
    assert not (tmp_path / "escaped.txt").exists()


def test_a_link_in_a_zip_is_left_out(tmp_path: Path) -> None:
    archive = tmp_path / "links.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("student/run.sh", "echo hi\n")
        link = zipfile.ZipInfo("student/secret")
        link.external_attr = 0o120777 << 16  # a symbolic link to /etc/shadow
        out.writestr(link, "/etc/shadow")
    intake = open_submissions(archive, tmp_path / "scratch")
    assert [s.name for s in intake.students] == ["student"]
    assert sorted(p.name for p in intake.students[0].folder.iterdir()) == ["run.sh"]
