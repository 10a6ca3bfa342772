"""``casino stud check SUBMISSIONS --due 1=WHEN --due 2=WHEN``: the seed's two deadlines. A
part turned in after its due earns none of its points; which points are which part's, and
when a part was turned in, are :mod:`casino.grade.studdues`'s."""

from __future__ import annotations

import csv
import functools
import io
import os
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from casino.cmdline import UsageError
from casino.grade.course import Student
from casino.grade.intake import Intake
from casino.grade.studcli import main
from casino.grade.studdues import (
    Dues,
    PartPicker,
    after_dues,
    late_parts,
    parse_dues,
    part_points,
    share,
)
from casino.programs import run_captured
from casino.stud import check as checking
from casino.stud.rubric import CONNECTS, LEGAL, POINTS, THREE, UP_CARDS

HERE = Path(__file__).parent
POKER = (HERE / "classbots" / "poker.py").read_text(encoding="utf-8")
PART_1 = datetime(2024, 3, 27, 23, 59, tzinfo=UTC)
PART_2 = datetime(2024, 4, 5, 23, 59, tzinfo=UTC)
DUES = Dues({"1": PART_1, "2": PART_2})


def test_the_parts_are_the_seed_s_rows() -> None:
    # Part 1: connects 15 + correct replies 35; Part 2: correct play 70 + 40 + 20.
    assert part_points("1") == pytest.approx(50) and part_points("2") == pytest.approx(130)
    assert share(CONNECTS, "1") == 1 and share(UP_CARDS, "2") == 1
    assert share(LEGAL, "1") * POINTS[LEGAL] + share(LEGAL, "2") * POINTS[LEGAL] == POINTS[LEGAL]


def test_a_late_part_takes_out_its_share_of_every_line() -> None:
    full = dict(POINTS)
    assert sum(after_dues(full, ["1"]).values()) == pytest.approx(130)
    assert sum(after_dues(full, ["2"]).values()) == pytest.approx(50)
    assert sum(after_dues(full, ["1", "2"]).values()) == pytest.approx(0)
    assert after_dues(full, ["2"])[CONNECTS] == 15


def test_dues_are_read_by_part() -> None:
    read = parse_dues(["2=2024-04-05T23:59Z", "1=2024-03-27T23:59+00:00"])
    assert read == DUES and list(read.when) == ["1", "2"] and read.last == PART_2
    assert parse_dues([]) is None


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (["2024-03-27T23:59"], "--due: expected 1=WHEN or 2=WHEN (the seed's parts), got"),
        (["3=2024-03-27T23:59"], "--due: expected 1=WHEN or 2=WHEN"),
        (["1=2024-03-27T23:59", "1=2024-03-28T23:59"], "--due: part 1 is given twice"),
        (["1=2024-04-27T23:59Z", "2=2024-03-27T23:59Z"], "--due: part 2 is due before part 1"),
        (["1=March 27"], "--due 1: expected a date and time such as"),
    ],
)
def test_a_bad_due_is_one_line(given: list[str], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_dues(given)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_a_git_repository_s_part_1_is_its_first_commit_and_part_2_the_graded_one() -> None:
    intake = Intake("git", [Student(name, Path(name)) for name in ("ann", "bob", "cy", "dee")])
    picker = PartPicker(DUES)
    march, april, may = (datetime(2024, month, 1, tzinfo=UTC) for month in (3, 4, 5))
    for name, first, graded in [
        ("ann", march, april),  # both on time
        ("bob", april, april),  # nothing pushed before part 1's due
        ("cy", march, may),  # every commit of part 2 after its due
        ("dee", may, may),
    ]:
        picker.first[name] = first
        picker.times[name] = (graded, f"commit {name}", False)
    late = late_parts(DUES, Path("list.txt"), intake, picker)
    assert {name: sorted(parts) for name, parts in late.items()} == {
        "bob": ["1"],
        "cy": ["2"],
        "dee": ["1", "2"],
    }
    assert late["bob"]["1"] == (
        "part 1 turned in after its due, 2024-03-27 23:59 +0000: 2024-04-01 00:00 +0000 (its "
        "first commit); its 50 points not earned"
    )
    assert late["cy"]["2"] == (
        "part 2 turned in after its due, 2024-04-05 23:59 +0000: 2024-05-01 00:00 +0000 "
        "(commit cy); its 130 points not earned"
    )


def test_a_command_line_without_submissions_refuses_due() -> None:
    done = run_captured(main, ["check", "--bot", "ours", "--due", "1=2024-03-27T23:59"])
    assert done.status == 2 and "--due goes with SUBMISSIONS" in done.err


def test_a_folder_submitted_between_the_dues_loses_part_1(tmp_path: Path) -> None:
    """A folder's time is its newest file's: after Part 1's due and before Part 2's, the
    player (160 when tested: it misses the up cards' 20, see test_class) keeps its Part 2
    points, 160 - 50."""
    folder = tmp_path / "subs" / "ann"
    folder.mkdir(parents=True)
    (folder / "poker.py").write_text(POKER, encoding="utf-8")
    handed = datetime(2024, 4, 1, 12, tzinfo=UTC).timestamp()
    os.utime(folder / "poker.py", (handed, handed))
    out = tmp_path / "grades"
    argv = [
        "check", str(tmp_path / "subs"), "--run", "python3 poker.py {host} {port}",
        "--trust-submissions", "--out", str(out), "--due", "1=2024-03-27T23:59Z",
        "--due", "2=2024-04-05T23:59Z",
    ]  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:  # patient: scores must not depend on load
        patch.setattr(
            checking, "Limits", functools.partial(checking.Limits, reply=30.0, patience=30.0)
        )
        done = run_captured(main, argv)
    assert done.status == 0, done.err
    assert done.out.startswith("ann: 110/180\n")
    rows = list(csv.DictReader(io.StringIO((out / "gradebook.csv").read_text(encoding="utf-8"))))
    assert (rows[0]["score"], rows[0][CONNECTS], rows[0][THREE]) == ("110", "0", "15")
    feedback = (out / "feedback" / "ann.txt").read_text(encoding="utf-8")
    assert feedback.startswith(
        "ann: 110/180\npart 1 turned in after its due, 2024-03-27 23:59 +0000: 2024-04-01 "
    )
    assert "its 50 points not earned\n" in feedback


@pytest.mark.skipif(shutil.which("git") is None, reason="no git")
def test_the_picker_keeps_a_repository_s_first_commit_and_grades_it_at_the_last_due(
    tmp_path: Path,
) -> None:
    """A real repository: pushed in March (before Part 1's due), again in April (before Part
    2's) and in May (after it): graded as it was in April, Part 1 on time by its first commit."""
    repo = tmp_path / "ann"
    repo.mkdir()

    def git(*argv: str, when: str = "") -> None:
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        subprocess.run(["git", "-C", str(repo), *argv], check=True, env=env, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "ann@example.org")
    git("config", "user.name", "Ann")
    for month, text in (("03", "one"), ("04", "two"), ("05", "three")):
        (repo / "poker.py").write_text(text, encoding="utf-8")
        git("add", "poker.py")
        git("commit", "-q", "-m", text, when=f"2024-{month}-01T12:00:00+00:00")
    picker = PartPicker(DUES)
    picker("ann", repo)
    assert picker.first["ann"] == datetime(2024, 3, 1, 12, tzinfo=UTC)
    when, said, marked = picker.times["ann"]
    assert (when, marked) == (datetime(2024, 4, 1, 12, tzinfo=UTC), False)
    assert said.endswith("the last at the due; 1 later commit not graded")
    assert (repo / "poker.py").read_text(encoding="utf-8") == "two"
    intake = Intake("git", [Student("ann", repo)])
    assert late_parts(DUES, Path("list.txt"), intake, picker) == {}
