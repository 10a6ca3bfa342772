"""``casino stud check SUBMISSIONS --due 1=WHEN --due 2=WHEN``: the seed's two deadlines.

The seed: "Part 1 must be turned in before 11:59pm Weds March 27; Part 2 must be turned in
before 11:59pm Fri April 5", and Part 1's first rubric row is "pushed to GitHub before Part 1
deadline". It names no late rule, so a part turned in after its due earns none of its points
(what "must be turned in before" says); a part on time keeps what the tester gives it.

**Which points are which part's** (:data:`PART_1_SHARE`): "connects to the dealer" (15) is
Part 1's; the four reply lines (login, legality, time, closing: 105) are Part 1's "correct reply
messages" (35) and Part 2's "correct play" (70), so a third of each is Part 1's; the
"intelligent play" lines (40 + 20) are Part 2's.

**When a part was turned in** (what :mod:`casino.grade.submitted` finds, as ``casino grade
--due`` reads it):

- a list of Git repositories: each is graded as it was at the last part's due (the last commit
  at or before it, later ones not graded; a repository with every commit after it, at its last
  commit). Part 2 was turned in at the graded commit's time; Part 1 at the repository's first
  commit (something was pushed before Part 1's due exactly when that commit is before it);
- a folder, a zip or a platform's download: the submission's one time (the newest file's,
  Blackboard's attempt time, or Canvas's ``_LATE_`` marker, which counts against every part),
  compared with each part's due.
  A submission with no time found counts as on time, as in ``casino grade``.

A committer time is what the student's clock said, as ``casino grade`` says of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from casino.cmdline import UsageError
from casino.grade.intake import Intake
from casino.grade.late import LateError, parse_when, stamp
from casino.grade.submitted import CommitPicker, When, _commits, download_times
from casino.harness.report import points_text
from casino.stud.rubric import CLOSES, CONNECTS, LEGAL, LOGIN, POINTS, TIMELY

PARTS = ("1", "2")
"""The seed's parts, as ``--due`` names them."""

REPLIES = 1 / 3
"""Part 1's share of each reply line: its 35 of the 105 Part 1 and Part 2 give them."""

PART_1_SHARE: dict[str, float] = {
    line: 1.0 if line == CONNECTS else REPLIES if line in (LOGIN, LEGAL, TIMELY, CLOSES) else 0.0
    for line in POINTS
}
"""Each rubric line's share that is Part 1's (the rest is Part 2's)."""


def share(line: str, part: str) -> float:
    """The share of rubric ``line`` that is ``part``'s."""
    first = PART_1_SHARE[line]
    return first if part == "1" else 1.0 - first


def part_points(part: str) -> float:
    """What ``part`` is worth (Part 1 50, Part 2 130)."""
    return sum(points * share(line, part) for line, points in POINTS.items())


@dataclass(frozen=True)
class Dues:
    """The due of each part given (``--due PART=WHEN``), in part order."""

    when: dict[str, datetime]

    @property
    def last(self) -> datetime:
        """The latest part's due: what a Git repository is graded as it was at."""
        return self.when[max(self.when)]


def parse_dues(given: Sequence[str]) -> Dues | None:
    """``--due`` values (``1=2024-03-27T23:59-07:00``) as :class:`Dues`, ``None`` when none;
    :class:`UsageError` in one line for a bad one."""
    when: dict[str, datetime] = {}
    for text in given:
        part, equals, moment = text.partition("=")
        if not equals or part.strip() not in PARTS:
            raise UsageError(f"--due: expected 1=WHEN or 2=WHEN (the seed's parts), got {text!r}")
        if part.strip() in when:
            raise UsageError(f"--due: part {part.strip()} is given twice")
        try:
            when[part.strip()] = parse_when(moment, f"--due {part.strip()}")
        except LateError as error:
            raise UsageError(str(error)) from None
    if "1" in when and "2" in when and when["2"] < when["1"]:
        raise UsageError("--due: part 2 is due before part 1")
    return Dues(dict(sorted(when.items()))) if when else None


class PartPicker(CommitPicker):
    """The Git list's hook: the commit at the last due (as ``casino grade`` picks it), and
    each repository's first commit time (when Part 1 was first pushed)."""

    def __init__(self, dues: Dues) -> None:
        super().__init__(lambda _: dues.last)
        self.first: dict[str, datetime] = {}

    def __call__(self, student: str, folder: Path) -> None:
        """Note the first commit, then pick the graded one."""
        commits = _commits(folder)
        if commits:
            self.first[student] = commits[-1][1]
        super().__call__(student, folder)


def late_parts(
    dues: Dues, source: Path, intake: Intake, picker: PartPicker | None
) -> dict[str, dict[str, str]]:
    """Each student's parts turned in after their due, each with why in one line (students
    with every part on time are left out)."""
    times: Mapping[str, When] = (
        picker.times if picker is not None else download_times(source, intake)
    )
    found: dict[str, dict[str, str]] = {}
    for student in intake.students:
        graded = times.get(student.name, (None, "", False))
        for part, due in dues.when.items():
            when, said, marked = graded
            if picker is not None and part != max(dues.when):
                when, said = picker.first.get(student.name), "its first commit"
            if marked or (when is not None and when > due):
                at = _late_mark(intake) if when is None else f"{stamp(when)} ({said})"
                worth = points_text(part_points(part))
                found.setdefault(student.name, {})[part] = (
                    f"part {part} turned in after its due, {stamp(due)}: {at}; "
                    f"its {worth} points not earned"
                )
    return found


def _late_mark(intake: Intake) -> str:
    """How a part marked late by the platform, with no time, is said."""
    platform = intake.platform
    return "" if platform is None else platform.late_mark


def after_dues(points: Mapping[str, float], late: Sequence[str]) -> dict[str, float]:
    """Each line's ``points`` with the shares of the ``late`` parts taken out."""
    return {
        line: earned * (1.0 - sum(share(line, part) for part in late))
        for line, earned in points.items()
    }
