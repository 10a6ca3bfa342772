"""The gradebook never depends on ``--jobs``; ``--force`` regrades everything."""

from __future__ import annotations

from pathlib import Path

import pytest

from grade.grade_support import grade, witnessed, write_course
from grade.student_python import quick_runs

SMALL = {"correct": 2, "wrong_space": 1, "crash": 1, "memory": 1, "compile_fail": 1}
FORCED = {"correct": 1, "wrong_space": 1}
RESULTS = ["gradebook.csv", "gradebook.json", "summary.html"]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small course (no endless loop), graded with ``--jobs 1`` into ``one/``."""
    root = tmp_path_factory.mktemp("small")
    write_course(root, SMALL)
    quick_runs(root)  # the system's python3, whatever the grader's PATH holds
    assert grade(root, "--jobs", "1", out="one").status == 0
    return root


def same_results(root: Path, first: str, second: str) -> None:
    """The two gradings wrote the same bytes (gradebook, summary, feedback)."""
    for name in RESULTS:
        assert (root / first / name).read_bytes() == (root / second / name).read_bytes(), name
    for student in (root / "submissions").iterdir():
        feedback = Path("feedback", f"{student.name}.txt")
        assert (root / first / feedback).read_bytes() == (root / second / feedback).read_bytes()


def test_two_jobs_grade_as_one(small: Path) -> None:
    assert grade(small, "--jobs", "2", out="two").status == 0
    same_results(small, "one", "two")
    assert b"wrong_space-00,3,4,1,0,2\n" in (small / "two" / "gradebook.csv").read_bytes()


def test_force_regrades_every_submission(tmp_path: Path) -> None:
    # A course of its own, small, trusted, so that the runs can note themselves in a file
    # outside their sandbox (that a trusted grade is the sandbox's for every kind of
    # submission: test_grade_course.py's test_a_rerun_grades_only_what_changed).
    write_course(tmp_path, FORCED)
    quick_runs(tmp_path)
    assert grade(tmp_path, "--jobs", "2", "--trust-submissions").status == 0
    witnessed(tmp_path)
    assert grade(tmp_path, "--jobs", "2", "--trust-submissions").status == 0
    assert witnessed(tmp_path) == []
    assert grade(tmp_path, "--jobs", "2", "--trust-submissions", "--force").status == 0
    runs = witnessed(tmp_path)
    assert len(runs) == 4 * sum(FORCED.values())  # four runs per submission: none skipped
