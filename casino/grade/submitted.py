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
3. **What a platform's download says** (:meth:`~casino.grade.platforms.Platform.when`):
   Blackboard's names hold each attempt's time; Canvas marks a late file ``_LATE_`` but holds
   no time (a marked submission with no time from 1. counts as 1 day late, and says so; an
   unmarked one is on time); Moodle's say nothing, so:
4. **The files' own times, as the last resort**, said so in the feedback: the newest file's time
   in the zip or in the folder (what that time is depends on who made the zip; a zip's times
   have no zone and are read in ``--timezone``'s, else the machine's).
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import zipfile
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime, tzinfo
from pathlib import Path, PurePosixPath

from casino.grade.intake import Intake
from casino.grade.late import LateError, Zone, parse_when
from casino.grade.platforms import Entry, Platform
from casino.grade.platforms.base import FILE_TIME, NO_TIME, When
from casino.grade.platforms.canvas import LATE as CANVAS_LATE
from casino.grade.platforms.canvas import ON_TIME as CANVAS_ON_TIME

__all__ = [
    "CANVAS_LATE",
    "CANVAS_ON_TIME",
    "FILE_TIME",
    "NO_TIME",
    "CommitPicker",
    "When",
    "aliases",
    "download_times",
    "read_submitted",
    "submission_times",
]

MOODLE_TIME = "%A, %d %B %Y, %I:%M %p"
"""How Moodle's worksheet writes a time (``Friday, 31 May 2019, 3:05 PM``)."""


def aliases(intake: Intake) -> dict[str, str]:
    """Other names a list may give a student by: Moodle's ``Participant 101`` and ``101``,
    Canvas's user id, the platform's name."""
    found = {}
    platform = intake.platform
    for student, who in intake.identities.items():
        for alias in (who.id, who.name) if platform is None else platform.aliases(who):
            found[alias] = student
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
    platform = intake.platform
    found: dict[str, list[tuple[Entry, datetime]]] = {name: [] for name in names}
    newest: dict[str, datetime] = {}
    for parts, when in _entries(source, None if zone is None else zone.zone):
        if platform is not None:
            entry = _entry_of(parts, platform, names)
            if entry is not None:
                found[entry.student].append((entry, when))
        elif (student := next((part for part in parts if part in names), None)) is not None:
            newest[student] = max(when, newest.get(student, when))
    if platform is not None:
        return {student: platform.when(entries, zone) for student, entries in found.items()}
    return {
        name: (newest[name], FILE_TIME, False) if name in newest else (None, NO_TIME, False)
        for name in names
    }


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


def _entry_of(parts: tuple[str, ...], platform: Platform, names: set[str]) -> Entry | None:
    """How the platform named a download's entry: by the first part of its path that names a
    student (a zip may wrap the download in a folder)."""
    for part in parts:
        entry = platform.folder(part) or platform.file(part)
        if entry is not None and entry.student in names:
            return entry
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
