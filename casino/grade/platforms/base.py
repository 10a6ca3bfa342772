"""What every learning platform is to casino: the entries of its bulk download, the student
each belongs to, when it was handed in, and the grade import the platform reads back.

A platform is one frozen :class:`Platform` object in a module of its own
(:mod:`~casino.grade.platforms.moodle`, :mod:`~casino.grade.platforms.canvas`,
:mod:`~casino.grade.platforms.blackboard`), registered in :mod:`casino.grade.platforms`;
:mod:`casino.grade.intake`, :mod:`casino.grade.submitted`, :mod:`casino.grade.lms` and
:mod:`casino.grade.sheet` ask it, never its name.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from casino.grade.late import Zone

When = tuple[datetime | None, str, bool]
"""A submission's time (``None``: unknown), where it came from, and whether a platform marked
it late."""

FILE_TIME = "the newest file's time in the download: the last resort, give --submitted"
NO_TIME = "no time found: counted as on time"


@dataclass(frozen=True)
class Identity:
    """Who a submission belongs to on the platform it came from."""

    platform: str
    """The platform's :attr:`Platform.name` (``moodle``, ``canvas``, ``blackboard``)."""
    id: str
    """Moodle's participant number, Canvas's user id, Blackboard's username."""
    name: str
    """Moodle's full name, Canvas's login part of the file name, Blackboard's username."""


@dataclass(frozen=True)
class Entry:
    """One entry of a platform's download, as the platform reads its name."""

    student: str
    """The student it belongs to, as casino names them."""
    identity: Identity
    file: str | None
    """The file's name as the student gave it; ``None`` for a folder of the student's files."""
    stamp: datetime | None = None
    """The submission time the name states (no zone), if it states one."""
    late: bool = False
    """Whether the name marks the submission late."""
    receipt: bool = False
    """A file the platform wrote about the submission (it names the student, but it is not
    one of the student's files)."""


@dataclass(frozen=True)
class GradeRow:
    """One student's row of a grade import."""

    who: Identity
    grade: str
    """The grade as written (empty: not graded, the platform keeps what it had)."""
    maximum: float
    comment: str


def student_name(name: str, number: str) -> str:
    """A participant's student name, in one spelling however the download spelt it (NFC:
    ``José`` composed or decomposed by the zip that carried it is one student)."""
    return unicodedata.normalize("NFC", f"{name}_{number}")


def csv_text(rows: Sequence[Sequence[str]]) -> str:
    """``rows`` as the CSV both platforms read (``\\n`` line ends)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


@dataclass(frozen=True)
class Platform:
    """A learning platform: how its bulk download names the students' work, and its grade
    import. Each platform's module subclasses it and makes one instance."""

    name: str
    """Its name in ``Intake.layout``, ``rubric.json`` and the import's file name."""
    title: str
    """Its name in messages (``Moodle``)."""

    @property
    def export_name(self) -> str:
        """The file its grade import is written to (``moodle.csv``)."""
        return f"{self.name}.csv"

    @property
    def late_mark(self) -> str:
        """How a submission the platform marked late, with no time, is said in one line
        (``""``: the platform marks none)."""
        return ""

    def folder(self, name: str) -> Entry | None:
        """A folder of the download named ``name``, if the platform named it."""
        return None

    def file(self, name: str) -> Entry | None:
        """A file of the download named ``name``, if the platform named it."""
        return None

    def aliases(self, who: Identity) -> tuple[str, ...]:
        """Other names a list (``--submitted``, ``--extensions``) may give the student by."""
        return (who.id, who.name)

    def when(self, found: Sequence[tuple[Entry, datetime]], zone: Zone | None) -> When:
        """A student's submission time from their entries of the download (each with its
        file's time): by default the newest file's time, the last resort."""
        if not found:
            return (None, NO_TIME, False)
        return (max(when for _, when in found), FILE_TIME, False)

    def grade_import(self, rows: Sequence[GradeRow], assignment: str, possible: float) -> str:
        """The CSV the platform's grade import reads (``possible``: the assignment's points)."""
        raise NotImplementedError(self.name)
