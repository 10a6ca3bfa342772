"""Canvas's assignment: "Download Submissions" and the gradebook import.

- The download: flat files named ``login_12345_67890_Main.java`` (``login_LATE_12345_…`` when
  late), grouped by the user id ``12345``; a re-submitted file's ``-1``, ``-2`` … that Canvas
  adds before the extension is taken off (``Main-1.java`` is ``Main.java`` again, as the
  student named it). Canvas marks a late file in the names, but its zip holds no submission
  time (every entry has the time the zip was made), so a marked submission with no time from
  ``--submitted`` counts as 1 day late, and says so; an unmarked one is on time.
- The grade import, ``canvas.csv``, is Canvas's *gradebook import* (Grades → Import):
  ``Student``, ``ID`` (the user id of the download's names), ``SIS User ID``, ``SIS Login ID``,
  ``Section``, then one column for the assignment (``--assignment``; "casino" by default),
  with Canvas's own ``Points Possible`` row under the header. Canvas matches rows by ``ID``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from casino.grade.books import text_cell
from casino.grade.late import Zone
from casino.grade.platforms.base import (
    Entry,
    GradeRow,
    Identity,
    Platform,
    When,
    csv_text,
    student_name,
)
from casino.harness.report import points_text

FILE = re.compile(
    r"^(?P<login>[^_]+)_(?:late_)?(?P<id>\d+)_(?P<submission>\d+)_(?P<file>.+)$", re.IGNORECASE
)
COPY = re.compile(r"^(?P<stem>.+)-\d+(?P<ext>\.[^.]*)?$")
LATE_FILE = re.compile(r"^[^_]+_late_\d+_\d+_", re.IGNORECASE)
"""A file Canvas marked late: ``login_LATE_12345_67890_Main.java``."""
MARKED = "Canvas marked it _LATE_"
LATE = f"{MARKED}; its time is unknown, so it counts as 1 day"
ON_TIME = "Canvas did not mark it late"
SIS = ["SIS User ID", "SIS Login ID", "Section"]


@dataclass(frozen=True)
class Canvas(Platform):
    """Canvas (see the module's docstring)."""

    @property
    def late_mark(self) -> str:
        """The ``_LATE_`` marker."""
        return MARKED

    def file(self, name: str) -> Entry | None:
        """A student's file, prefixed with their login, user id and submission id."""
        match = FILE.match(name)
        if match is None:
            return None
        login = unicodedata.normalize("NFC", match["login"])
        copy = COPY.match(match["file"])
        given = f"{copy['stem']}{copy['ext'] or ''}" if copy else match["file"]
        who = Identity("canvas", match["id"], login)
        late = bool(LATE_FILE.match(name))
        return Entry(student_name(match["login"], match["id"]), who, given, late=late)

    def when(self, found: Sequence[tuple[Entry, datetime]], zone: Zone | None) -> When:
        """Late by the marker alone: the download holds no time."""
        late = any(entry.late for entry, _ in found)
        return (None, LATE if late else ON_TIME, late)

    def grade_import(self, rows: Sequence[GradeRow], assignment: str, possible: float) -> str:
        """The gradebook import."""
        head = ["Student", "ID", *SIS, text_cell(assignment)]
        points = ["Points Possible", "", "", "", "", points_text(possible)]
        body = [[text_cell(row.who.name), row.who.id, "", "", "", row.grade] for row in rows]
        return csv_text([head, points, *body])


CANVAS = Canvas("canvas", "Canvas")
"""The Canvas platform."""
