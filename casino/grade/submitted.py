"""When each submission was handed in, from the best source there is.

In order of trust:

1. ``--submitted CSV``: the platform's own record. Moodle's *grading worksheet* as Moodle
   downloads it (its ``Identifier`` column, ``Participant 101``, and ``Last modified
   (submission)``, ``Friday, 31 May 2019, 3:05 PM``), or any CSV of ``student,submitted``
   (the student as casino names it, or a Moodle participant or Canvas user id; an ISO 8601
   time). A Canvas course gets it from the Submissions API's ``submitted_at``. A time that
   states its offset keeps it; one that does not (Moodle's worksheet states none) is read in
   ``--timezone``'s zone, else in the machine's, and the grader is warned
   (:class:`~casino.grade.late.Zone`).
2. **A Git repository's commit**: with ``--due``, each repository of a Git list is cloned with
   its history; the commit graded is the last one at or before the student's due, and its
   committer time is the submission's. A repository with later commits is graded as it was at
   its due (the later ones are said, not graded); one whose every commit is after the due is
   graded at its last commit, late by that commit's time. (A committer time is what the
   student's clock said: a course that needs more uses the push times GitHub keeps.)
3. **Canvas's ``_LATE_`` marker**: Canvas marks a late file in the download's names but its zip
   holds no submission time (every entry has the time the zip was made), so a marked
   submission with no time from 1. counts as 1 day late, and says so; an unmarked one is on time.
4. **The files' own times, as the last resort**, said so in the feedback: the newest file's time
   in the zip or in the folder (what that time is depends on who made the zip; a zip's times
   have no zone and are read in ``--timezone``'s, else the machine's).
"""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import zipfile
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime, tzinfo
from pathlib import Path, PurePosixPath

from casino.grade.intake import CANVAS_FILE, MOODLE_FILE, MOODLE_FOLDER, Intake
from casino.grade.late import LateError, Zone, parse_when

When = tuple[datetime | None, str, bool]
"""A submission's time (``None``: unknown), where it came from, and whether a platform marked
it late."""

FILE_TIME = "the newest file's time in the download: the last resort, give --submitted"
CANVAS_LATE = "Canvas marked it _LATE_; its time is unknown, so it counts as 1 day"
CANVAS_ON_TIME = "Canvas did not mark it late"
NO_TIME = "no time found: counted as on time"
CANVAS_LATE_FILE = re.compile(r"^[^_]+_late_\d+_\d+_", re.IGNORECASE)
"""A file Canvas marked late: ``login_LATE_12345_67890_Main.java``."""
MOODLE_TIME = "%A, %d %B %Y, %I:%M %p"
"""How Moodle's worksheet writes a time (``Friday, 31 May 2019, 3:05 PM``)."""


def aliases(intake: Intake) -> dict[str, str]:
    """Other names a list may give a student by: Moodle's ``Participant 101`` and ``101``,
    Canvas's user id, the platform's name."""
    found = {}
    for student, who in intake.identities.items():
        found[who.id] = student
        found[who.name] = student
        if who.platform == "moodle":
            found[f"Participant {who.id}"] = student
    return found


def read_submitted(text: str, name: str, zone: Zone | None = None) -> dict[str, datetime | None]:
    """``--submitted``'s rows: key → time (``None``: no submission, Moodle's ``-``); a time
    that states no zone (every Moodle worksheet time) is read in ``zone`` (:class:`Zone`)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise LateError(f"{name}: empty: expected 'student,submitted' rows or Moodle's worksheet")
    head = [cell.strip().lower() for cell in rows[0]]
    if "identifier" in head and "last modified (submission)" in head:
        key, time, body = head.index("identifier"), head.index("last modified (submission)"), 1
    else:
        key, time, body = 0, 1, 0
    found: dict[str, datetime | None] = {}
    for number, row in enumerate(rows[body:], body + 1):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= max(key, time):
            raise LateError(f"{name}: line {number}: expected a student and a time, got {row!r}")
        try:
            where = f"{name}: line {number}"
            found[row[key].strip()] = _moodle_or_iso(row[time].strip(), where, zone)
        except LateError:
            if number == 1:  # a header of another spelling
                continue
            raise
    return found


def _moodle_or_iso(text: str, what: str, zone: Zone | None) -> datetime | None:
    if text in ("", "-"):
        return None
    try:
        moodle = datetime.strptime(text, MOODLE_TIME)
    except ValueError:
        return parse_when(text, what, zone)
    return (zone or Zone()).place(moodle, what)


def download_times(source: Path, intake: Intake, zone: Zone | None = None) -> dict[str, When]:
    """Each student's time as the download itself tells it (3. and 4. above; a zip's times,
    which state no zone, read in ``zone``'s if it names one)."""
    names = {student.name for student in intake.students}
    newest: dict[str, datetime] = {}
    marked: set[str] = set()
    for parts, when in _entries(source, None if zone is None else zone.zone):
        student = _student_of(parts, intake.layout, names)
        if student is None:
            continue
        if intake.layout == "canvas":
            if CANVAS_LATE_FILE.match(parts[-1]):
                marked.add(student)
        elif student not in newest or when > newest[student]:
            newest[student] = when
    found: dict[str, When] = {}
    for student in names:
        if intake.layout == "canvas":
            late = student in marked
            found[student] = (None, CANVAS_LATE if late else CANVAS_ON_TIME, late)
        elif student in newest:
            found[student] = (newest[student], FILE_TIME, False)
        else:
            found[student] = (None, NO_TIME, False)
    return found


def _entries(source: Path, zone: tzinfo | None) -> Iterator[tuple[tuple[str, ...], datetime]]:
    """Every file of the download (a zip or a folder): its path's parts and its time (a
    zip's in ``zone``, else the machine's)."""
    if source.is_file() and zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as opened:
            for info in opened.infolist():
                if not info.is_dir():
                    parts = PurePosixPath(info.filename.replace("\\", "/")).parts
                    naive = datetime(*info.date_time)
                    yield parts, naive.astimezone() if zone is None else naive.replace(tzinfo=zone)
        return
    if not source.is_dir():
        return
    for here, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for file in files:
            path = Path(here, file)
            try:
                when = datetime.fromtimestamp(path.lstat().st_mtime).astimezone()
            except OSError:
                continue
            yield path.relative_to(source).parts, when


def _student_of(parts: tuple[str, ...], layout: str, names: set[str]) -> str | None:
    """The student a download's entry belongs to: the first part of its path that names one
    (a zip may wrap the download in a folder)."""
    for part in parts:
        if layout == "moodle":
            match = MOODLE_FOLDER.match(part) or MOODLE_FILE.match(part)
            student = match and f"{match['name']}_{match['id']}"
        elif layout == "canvas":
            match = CANVAS_FILE.match(part)
            student = match and f"{match['login']}_{match['id']}"
        else:
            student = part
        if student and student in names:
            return student
    return None


class CommitPicker:
    """The ``pick`` hook of :func:`casino.grade.intake.open_submissions` for a Git list: checks
    out each repository's commit at its student's due and keeps its time (2. above)."""

    def __init__(self, due_of: Callable[[str], datetime]) -> None:
        self.due_of = due_of
        self.times: dict[str, When] = {}

    def __call__(self, student: str, folder: Path) -> None:
        """Pick ``student``'s commit in the clone at ``folder``."""
        commits = _commits(folder)
        if not commits:
            self.times[student] = (None, "no commit could be read: counted as on time", False)
            return
        due = self.due_of(student)
        before = [c for c in commits if c[1] <= due]
        if not before:
            self.times[student] = (commits[0][1], f"commit {commits[0][0][:10]}", False)
            return
        chosen, when = before[0]
        later = commits.index(before[0])
        if later and _git(folder, "checkout", "--quiet", "--detach", chosen) is None:
            head, at = commits[0]
            said = (
                f"commit {head[:10]}: the last at the due, {chosen[:10]}, could not be checked out"
            )
            self.times[student] = (at, said, False)
            return
        if later:
            more = f"{later} later commit{'' if later == 1 else 's'}"
            said = f"commit {chosen[:10]}, the last at the due; {more} not graded"
        else:
            said = f"commit {chosen[:10]}"
        self.times[student] = (when, said, False)


def _commits(folder: Path) -> list[tuple[str, datetime]]:
    """The commits of HEAD, newest first: hash and committer time."""
    done = _git(folder, "log", "--first-parent", "--format=%H %cI", "HEAD") or ""
    commits = []
    for line in done.splitlines():
        sha, _, when = line.partition(" ")
        commits.append((sha, datetime.fromisoformat(when)))
    return sorted(commits, key=lambda commit: commit[1], reverse=True)


def _git(folder: Path, *args: str) -> str | None:
    """What ``git ARGS`` printed in ``folder``; ``None`` if it failed."""
    env = dict(os.environ, LC_ALL="C", GIT_TERMINAL_PROMPT="0")
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, env=env, check=False
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def submission_times(
    source: Path,
    intake: Intake,
    listed: Mapping[str, datetime | None],
    commits: Mapping[str, When],
    zone: Zone | None = None,
) -> dict[str, When]:
    """Every student's time from the best source: ``listed`` (``--submitted``, resolved to
    students), a Git commit, the download (its zip's times read in ``zone``)."""
    found = dict(commits) if intake.layout == "git" else download_times(source, intake, zone)
    for student, when in listed.items():
        if when is not None:
            found[student] = (when, "--submitted", False)
    return found
