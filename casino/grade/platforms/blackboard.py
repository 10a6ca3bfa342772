"""Blackboard Learn's "Assignment File Download" (Grade Centre → the assignment's column →
*Assignment File Download*) and the Grade Centre's offline upload.

- The download is one zip of flat files: each file a student attached is renamed
  ``ASSIGNMENT_USERNAME_attempt_YYYY-MM-DD-HH-MM-SS_FILE`` (``Project C_jsmith_attempt_
  2019-05-31-15-05-12_Main.java``), and Blackboard writes one receipt per attempt,
  ``ASSIGNMENT_USERNAME_attempt_YYYY-MM-DD-HH-MM-SS.txt`` (the student's name, the time, their
  comments), as documented by the tools that sort these downloads:
  https://github.com/terr-steak/bb-file-cleanup ("the student files are renamed from
  filename.ext to assignmentname_username_attempt_datetime_filename.ext … a text file is
  created for each student named assignmentname_username_attempt_datetime.txt") and
  https://github.com/vangef/BBGradebookOrganiser (the username is the part before
  ``_attempt_``; the original name the part after the date). The student is the username;
  the receipt names them but is not one of their files.
- The time in the names is the attempt's submission time. It states no zone: it is read in
  ``--timezone``'s (else the machine's), and the grader is warned. A download of every
  attempt holds several times for one student: the newest attempt is graded, its files alone,
  at its time. Blackboard marks no late attempt in the names: the late rule goes by that time.
- The grade import, ``blackboard.csv``, is for the Grade Centre's *Work Offline → Upload*
  (https://en-us.help.blackboard.com/Learn/Instructor/Grade/Grading_Tasks/Work_Offline_With_Grade_Data):
  ``Username`` (which Blackboard matches rows by) and one column, ``ASSIGNMENT [Total Pts:
  N]`` (``--assignment``), as Blackboard names a column in its own downloads
  (https://github.com/nbeaver/offline-grades-upload); a header without Blackboard's
  ``|column id`` uploads as a new column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from casino.grade.books import text_cell
from casino.grade.late import Zone
from casino.grade.platforms.base import NO_TIME, Entry, GradeRow, Identity, Platform, When, csv_text
from casino.harness.report import points_text

FILE = re.compile(
    r"^(?P<assignment>.+)_(?P<user>[^_]+)_attempt_"
    r"(?P<stamp>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)(?:_(?P<file>.+)|(?P<receipt>\.txt))$"
)
STAMP = "%Y-%m-%d-%H-%M-%S"
"""How the names write the attempt's time (``2019-05-31-15-05-12``)."""
ATTEMPT_TIME = "Blackboard's attempt time in the download's names"


@dataclass(frozen=True)
class Blackboard(Platform):
    """Blackboard Learn (see the module's docstring)."""

    def file(self, name: str) -> Entry | None:
        """A student's file or an attempt's receipt."""
        match = FILE.match(name)
        if match is None:
            return None
        try:
            stamp = datetime.strptime(match["stamp"], STAMP)
        except ValueError:  # 2019-13-45-…: not a time Blackboard writes
            return None
        user = unicodedata.normalize("NFC", match["user"])
        who = Identity("blackboard", user, user)
        receipt = match["receipt"] is not None
        return Entry(user, who, "" if receipt else match["file"], stamp, receipt=receipt)

    def when(self, found: Sequence[tuple[Entry, datetime]], zone: Zone | None) -> When:
        """The newest attempt's time, in ``zone`` (the names state none)."""
        stamps = [entry.stamp for entry, _ in found if entry.stamp is not None]
        if not stamps:
            return (None, NO_TIME, False)
        student = found[0][0].student
        placed = (zone or Zone()).place(max(stamps), f"{student}'s attempt time")
        return (placed, ATTEMPT_TIME, False)

    def grade_import(self, rows: Sequence[GradeRow], assignment: str, possible: float) -> str:
        """The Grade Centre's upload: ``Username`` and the assignment's column."""
        head = ["Username", text_cell(f"{assignment} [Total Pts: {points_text(possible)}]")]
        return csv_text([head, *([text_cell(row.who.id), row.grade] for row in rows)])


BLACKBOARD = Blackboard("blackboard", "Blackboard")
"""The Blackboard platform."""
