"""Moodle's assignment: "Download all submissions" and the offline grading worksheet.

- The download: one folder per participant named ``Full Name_12345_assignsubmission_file_``
  (or, without folders, files named ``Full Name_12345_assignsubmission_file_Main.java``); the
  student is ``Full Name_12345``, and ``12345`` is the participant number Moodle's grading
  worksheet calls ``Participant 12345``. Its names hold no time: the files' times are the
  last resort (give ``--submitted`` the worksheet).
- The grade import, ``moodle.csv``, is the *offline grading worksheet* (Assignment → "Upload
  grading worksheet"): the columns ``Identifier``, ``Full name``, ``Grade``, ``Maximum Grade``
  and ``Feedback comments``; Moodle matches rows by ``Identifier`` and leaves columns it does
  not know alone.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from casino.grade.books import text_cell
from casino.grade.platforms.base import (
    Entry,
    GradeRow,
    Identity,
    Platform,
    csv_text,
    student_name,
)
from casino.harness.report import points_text

FOLDER = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z]+_?$")
FILE = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z]+_(?P<file>.+)$")
HEADER = ["Identifier", "Full name", "Grade", "Maximum Grade", "Feedback comments"]


def _entry(match: re.Match[str], file: str | None) -> Entry:
    name = unicodedata.normalize("NFC", match["name"])
    who = Identity("moodle", match["id"], name)
    return Entry(student_name(match["name"], match["id"]), who, file)


@dataclass(frozen=True)
class Moodle(Platform):
    """Moodle (see the module's docstring)."""

    def folder(self, name: str) -> Entry | None:
        """A participant's folder."""
        match = FOLDER.match(name)
        return None if match is None else _entry(match, None)

    def file(self, name: str) -> Entry | None:
        """A participant's file, prefixed with their name and number."""
        match = FILE.match(name)
        return None if match is None else _entry(match, match["file"])

    def aliases(self, who: Identity) -> tuple[str, ...]:
        """The number, the full name and the worksheet's ``Participant 12345``."""
        return (who.id, who.name, f"Participant {who.id}")

    def grade_import(self, rows: Sequence[GradeRow], assignment: str, possible: float) -> str:
        """The grading worksheet."""
        body = [
            [
                f"Participant {row.who.id}",
                text_cell(row.who.name),
                row.grade,
                points_text(row.maximum),
                text_cell(row.comment),
            ]
            for row in rows
        ]
        return csv_text([HEADER, *body])


MOODLE = Moodle("moodle", "Moodle")
"""The Moodle platform."""
