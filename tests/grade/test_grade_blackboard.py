"""``casino grade`` takes Blackboard Learn's "Assignment File Download" — flat files named
``ASSIGNMENT_USERNAME_attempt_YYYY-MM-DD-HH-MM-SS_FILE`` and one receipt
``…_attempt_….txt`` per attempt (:mod:`casino.grade.platforms.blackboard` cites the layout's
sources) — grades each username's newest attempt at the time its names state, the late rule
applied, and writes ``blackboard.csv`` for the Grade Centre's upload. The download is made
here, named as Blackboard names it."""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from casino.grade import cli
from casino.grade.course import Student
from casino.grade.intake import ODD_NAME, Intake, open_submissions
from casino.grade.late import Zone
from casino.grade.lms import import_csv
from casino.grade.platforms import PLATFORMS, GradeRow, Identity, find_platform
from casino.grade.platforms.blackboard import ATTEMPT_TIME, BLACKBOARD
from casino.grade.results import Score, ScoreStatus, StudentResult
from casino.grade.submitted import NO_TIME, download_times
from grade.grade_support import BUILD, RUN, UNSANDBOXED, write_course

ASSIGNMENT = "Project_C"
"""The assignment's name as Blackboard prefixes it (an underscore in it too)."""
RECEIPT = "Name: {user}\nAssignment: Project_C\nDate Submitted: {when}\n\nComments:\n"
ATTEMPTS = [
    # username, kind of program, attempt time, extra file
    ("ada", "correct", "2019-05-31-14-59-00", None),
    ("alan", "wrong_space", "2019-05-31-10-00-00", "notes.md"),  # an earlier attempt …
    ("alan", "correct", "2019-06-01-16-00-00", None),  # … and the one graded, 25 h late
    ("grace", "correct", "2019-06-03-14-00-00", None),  # 71 h late
]


def grade(root: Path, source: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``casino grade SOURCE`` with the course's transcripts (as ``test_grade_intake.grade``)."""
    argv = ["grade", str(source), "--transcripts", str(root / "transcripts"), "--run", RUN]
    argv += ["--build", BUILD, "--out", str(root / "grades"), "--jobs", "1", *UNSANDBOXED]
    out, err = io.StringIO(), io.StringIO()
    status = cli.main([*argv, *options], stdout=out, stderr=err)
    return subprocess.CompletedProcess(argv, status, out.getvalue(), err.getvalue())


def blackboard_zip(root: Path, *, odd: str | None = None) -> Path:
    """The zip of Blackboard's download: every attempt's files and its receipt, flat."""
    write_course(root, {"correct": 3, "wrong_space": 1})
    archive = root / "gradebook_COMP90041_Project_C_2019-06-04-09-00-00.zip"
    counts = {"correct": 0, "wrong_space": 0}
    with zipfile.ZipFile(archive, "w") as out:
        for user, kind, when, extra in ATTEMPTS:
            folder = root / "submissions" / f"{kind}-{counts[kind]:02d}"
            counts[kind] += 1
            prefix = f"{ASSIGNMENT}_{user}_attempt_{when}"
            out.writestr(f"{prefix}.txt", RECEIPT.format(user=user, when=when))
            for file in sorted(folder.iterdir()):
                out.writestr(f"{prefix}_{file.name}", file.read_bytes())
            if extra is not None:
                out.writestr(f"{prefix}_{extra}", "an earlier attempt's file\n")
        if odd is not None:
            out.writestr(odd, "not named by Blackboard\n")
    shutil.rmtree(root / "submissions")
    return archive


def test_a_blackboard_download_is_graded_at_its_attempt_times_to_blackboards_upload(
    tmp_path: Path,
) -> None:
    archive = blackboard_zip(tmp_path)
    options = ["--due", "2019-05-31T15:00+10:00", "--timezone", "+10:00", "--late", "nimsys"]
    done = grade(tmp_path, archive, *options, "--assignment", "Project C")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "grades" / "gradebook.csv").read_text().splitlines() == [
        "student,score,max,days_late,penalty,final,args.yaml,greet.yaml,state/chain.yaml",
        "ada,4,4,0,0,4,1,1,2",
        "alan,4,4,2,1.6,2.4,1,1,2",
        "grace,4,4,3,2.4,1.6,1,1,2",
    ]
    assert (tmp_path / "grades" / "blackboard.csv").read_text() == (
        "Username,Project C [Total Pts: 4]\nada,4\nalan,2.4\ngrace,1.6\n"
    )
    assert "blackboard.csv for the platform's grade import" in done.stdout
    feedback = (tmp_path / "grades" / "feedback" / "alan.txt").read_text()
    assert ATTEMPT_TIME in feedback
    assert not (tmp_path / "grades" / "moodle.csv").exists()
    assert not (tmp_path / "grades" / "canvas.csv").exists()


def test_only_the_newest_attempt_s_files_are_taken_and_the_receipt_is_not(tmp_path: Path) -> None:
    archive = blackboard_zip(tmp_path, odd="readme.txt")
    intake = open_submissions(archive, tmp_path / "scratch")
    assert (intake.layout, intake.platform) == ("blackboard", BLACKBOARD)
    assert [student.name for student in intake.students] == ["ada", "alan", "grace"]
    for student in intake.students:
        assert sorted(p.name for p in student.folder.iterdir()) == ["main.py", "run.sh"]
    alan = next(student for student in intake.students if student.name == "alan")
    assert '"hello  "' not in (alan.folder / "main.py").read_text()  # not the earlier attempt's
    assert intake.identities["alan"] == Identity("blackboard", "alan", "alan")
    why = ODD_NAME.format(name="readme.txt", platform="Blackboard")
    assert intake.problems == {"readme.txt": why}


def test_a_name_with_a_date_blackboard_cannot_write_is_not_blackboards() -> None:
    assert BLACKBOARD.file("P_ada_attempt_2019-13-45-10-00-00_main.py") is None
    assert BLACKBOARD.file("P_ada_attempt_2019-05-31_main.py") is None
    entry = BLACKBOARD.file("Project C_ada.b_attempt_2019-05-31-10-00-00_Main Class.java")
    assert entry is not None
    assert (entry.student, entry.file, entry.receipt) == ("ada.b", "Main Class.java", False)
    receipt = BLACKBOARD.file("Project C_ada.b_attempt_2019-05-31-10-00-00.txt")
    assert receipt is not None and receipt.receipt


def test_a_student_not_graded_gets_an_empty_grade_in_blackboards_upload() -> None:
    scores = (Score("a.yaml", ScoreStatus.PASS, 3.0, 4.0, ""),)
    results = [StudentResult("ada", scores), StudentResult("bob", scores, note="no clone")]
    who = {name: Identity("blackboard", name, name) for name in ("ada", "bob")}
    who["eve"] = Identity("canvas", "7", "eve")  # another platform's: not in this file
    text = import_csv(BLACKBOARD, results, who, "=P1")
    assert text == "Username,'=P1 [Total Pts: 4]\nada,3\nbob,\n"


def test_the_registry_finds_each_platform_by_its_one_name() -> None:
    names = [platform.name for platform in PLATFORMS]
    assert names == ["moodle", "canvas", "blackboard"]
    assert all(
        find_platform(name) is platform for name, platform in zip(names, PLATFORMS, strict=True)
    )
    assert find_platform("folders") is None and find_platform("git") is None
    assert [platform.export_name for platform in PLATFORMS] == [f"{n}.csv" for n in names]
    row = GradeRow(Identity("moodle", "101", "Ada"), "4", 4.0, "every transcript passed")
    assert PLATFORMS[0].grade_import([row], "ignored", 4.0).splitlines()[1] == (
        "Participant 101,Ada,4,4,every transcript passed"
    )


def test_the_attempt_times_state_no_zone_so_they_are_read_in_the_zone_given_or_warned_of(
    tmp_path: Path,
) -> None:
    for name in ("P_ada_attempt_2019-05-31-14-59-00.txt", "P_ada_attempt_2019-05-31-14-59-00_a.py"):
        (tmp_path / name).write_text("x\n")
    intake = Intake("blackboard", [Student("ada", tmp_path / "ada")])
    melbourne = timezone(timedelta(hours=10))
    given = Zone(melbourne)
    when = datetime(2019, 5, 31, 14, 59, tzinfo=melbourne)
    assert download_times(tmp_path, intake, given) == {"ada": (when, ATTEMPT_TIME, False)}
    machine = Zone()
    found = download_times(tmp_path, intake, machine)["ada"][0]
    assert found is not None and found.replace(tzinfo=None) == datetime(2019, 5, 31, 14, 59)
    assert machine.unzoned == ["ada's attempt time"]
    nobody = Intake("blackboard", [Student("bob", tmp_path / "bob")])
    assert download_times(tmp_path, nobody, given) == {"bob": (None, NO_TIME, False)}
