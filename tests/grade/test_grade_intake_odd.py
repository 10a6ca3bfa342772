"""An odd entry in a learning platform's download costs that student alone, with a row saying
why: a file Moodle or Canvas named ``..``, a ``\\`` in a Moodle name (which a zip turns into a
folder), an entry not named as the platform names them; and one participant spelt in NFC and
NFD (``José`` composed and decomposed) is one student."""

from __future__ import annotations

import csv
import unicodedata
import zipfile
from pathlib import Path

from casino.grade.intake import LINKED, ODD_FILE, ODD_NAME, open_submissions
from grade.grade_support import write_course
from grade.test_grade_intake import grade

JOSE_NFC = unicodedata.normalize("NFC", "José")
JOSE_NFD = unicodedata.normalize("NFD", "José")


def moodle_zip(root: Path) -> Path:
    """Moodle's download as a zip: Ada and Alan as usual; Eve's name holds a ``\\``; Bob's
    only file is named ``..``; José's files come under both spellings of his name."""
    write_course(root, {"correct": 1, "wrong_space": 1})
    right, wrong = root / "submissions" / "correct-00", root / "submissions" / "wrong_space-00"
    archive = root / "moodle.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for folder, name in [(right, "Ada Lovelace_101"), (wrong, "Alan Turing_102")]:
            for file in sorted(folder.iterdir()):
                out.write(file, f"{name}_assignsubmission_file_/{file.name}")
        for file in sorted(right.iterdir()):
            out.write(file, f"Eve\\Smith_103_assignsubmission_file_/{file.name}")
        out.writestr("Bob_104_assignsubmission_file_..", "print('hello')\n")
        out.write(right / "main.py", f"{JOSE_NFC}_105_assignsubmission_file_/main.py")
        out.write(right / "run.sh", f"{JOSE_NFD}_105_assignsubmission_file_/run.sh")
    return archive


def test_odd_entries_are_their_students_problems(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    intake = open_submissions(moodle_zip(tmp_path), scratch)
    assert intake.layout == "moodle"
    names = [student.name for student in intake.students]
    assert names == ["Ada Lovelace_101", "Alan Turing_102", f"{JOSE_NFC}_105"]
    jose = intake.students[2].folder
    assert sorted(p.name for p in jose.iterdir()) == ["main.py", "run.sh"]
    assert intake.problems == {
        "Eve": ODD_NAME.format(name="Eve", platform="Moodle"),
        "Bob_104": ODD_FILE.format(name="..", platform="Moodle"),
    }
    assert intake.problems["Bob_104"] == (
        "its file '..' in Moodle's download cannot be a file's name; not graded"
    )


def test_a_canvas_file_named_dot_dot_costs_its_student_alone(tmp_path: Path) -> None:
    download = tmp_path / "canvas"
    download.mkdir()
    (download / "lovelaceada_201_9001_main.py").write_text("print('hi')\n")
    (download / "turingalan_202_9002_..-1").write_text("print('hi')\n")  # '..' re-submitted
    (download / f"{JOSE_NFD.lower()}_203_9003_main.py").write_text("print('hi')\n")
    (download / f"{JOSE_NFC.lower()}_203_9004_run.sh").write_text("sh main.py\n")
    intake = open_submissions(download, tmp_path / "scratch")
    assert intake.layout == "canvas"
    assert [s.name for s in intake.students] == ["jos\u00e9_203", "lovelaceada_201"]
    assert intake.problems == {"turingalan_202": ODD_FILE.format(name="..", platform="Canvas")}


def test_the_course_goes_on_with_a_row_for_each_odd_student(tmp_path: Path) -> None:
    done = grade(tmp_path, moodle_zip(tmp_path))  # in this process, as test_grade_intake's
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "grades" / "gradebook.csv", newline="", encoding="utf-8") as handle:
        rows = {row[0]: row[1] for row in csv.reader(handle)}
    assert rows == {
        "student": "score",
        "Ada Lovelace_101": "4",
        "Alan Turing_102": "3",
        "Bob_104": "0",
        "Eve": "0",
        f"{JOSE_NFC}_105": "4",
    }
    feedback = (tmp_path / "grades" / "feedback" / "Eve.txt").read_text()
    assert ODD_NAME.format(name="Eve", platform="Moodle") in feedback
    worksheet = (tmp_path / "grades" / "moodle.csv").read_text()
    assert "Participant 101,Ada Lovelace,4" in worksheet
    assert f"Participant 105,{JOSE_NFC},4" in worksheet


def test_a_participant_with_an_odd_entry_has_a_row_in_the_platforms_import(
    tmp_path: Path,
) -> None:
    """Issue 39: Bob, whose only file Moodle named ``..``, had a gradebook row but none in
    the worksheet the course imports into Moodle: he now has one, no grade, saying why."""
    done = grade(tmp_path, moodle_zip(tmp_path))
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "grades" / "moodle.csv", newline="", encoding="utf-8") as handle:
        rows = {row[0]: row for row in csv.reader(handle)}
    bob = rows["Participant 104"]
    assert bob[1:4] == ["Bob", "", "4"]
    assert ODD_FILE.format(name="..", platform="Moodle") in bob[4]
    assert "Eve" not in str(rows)  # (not named as Moodle names one: no participant number)


def test_a_student_folder_that_is_a_symbolic_link_has_a_row_saying_why(tmp_path: Path) -> None:
    """Issue 39: a student's folder that is a symbolic link was left out without a row."""
    write_course(tmp_path, {"correct": 2})
    submissions = tmp_path / "submissions"
    elsewhere = tmp_path / "elsewhere"
    (submissions / "correct-01").rename(elsewhere)
    (submissions / "linked").symlink_to(elsewhere, target_is_directory=True)
    (submissions / "dangling").symlink_to(tmp_path / "nowhere")
    intake = open_submissions(submissions, tmp_path / "scratch")
    assert [student.name for student in intake.students] == ["correct-00"]
    assert intake.problems == {"linked": LINKED}
    done = grade(tmp_path, submissions)
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "grades" / "gradebook.csv", newline="", encoding="utf-8") as handle:
        rows = {row[0]: row[1] for row in csv.reader(handle)}
    assert rows == {"student": "score", "correct-00": "4", "linked": "0"}
    feedback = (tmp_path / "grades" / "feedback" / "linked.txt").read_text()
    assert LINKED in feedback
