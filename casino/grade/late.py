"""Late work: a due date, a student's extension, a late rule, and what they make of a score.

``casino grade --due WHEN [--extensions CSV] [--late RULE]`` keeps every transcript's score as
graded (the raw score) and adds, per student, how late the submission was and what the rule
takes off. Nothing here runs a program or reads a clock: the times come from
:mod:`casino.grade.submitted`, so the same course and times give the same gradebook.

**Days late** are the seed's "cycles of 24h from the day and hour specified for submission":
a submission 1 second to 24 hours after its due is 1 day late, 24 h and 1 s is 2 days; at the
due or before, 0.

**Rules** (``--late``), by name or by formula:

- ``nimsys``: ``percent:20:4`` — Nimsys's "a 20% penalty per day for late submissions …
  there will be no mark for submissions after 4pm 8 April" (four days after the due);
- ``videopoker``: ``doubling:20`` — video poker's "for each day of delay there will be a
  penalty of 2^(n-1) points of the grade, where n is the number of days in delay", the grade
  being out of 20 (so 1 point is 0.3 of a final grade worth 30 %);
- ``percent:P[:LAST]``: P % of the raw score per day late;
- ``points:P[:LAST]``: P points of casino's score per day late;
- ``doubling:SCALE[:LAST]``: 2^(n-1) points of a grade out of SCALE at n days late (scaled
  to casino's score: a score out of 11.5 loses 2^(n-1) × 11.5 / SCALE);
- ``none``: days late are shown, nothing is taken off.

``LAST`` is the last day a mark is given: a submission more days late than that gets 0. A final
score is never below 0.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from casino.errors import ParseError
from casino.harness.report import points_text

DAY = timedelta(days=1)


class LateError(ParseError):
    """A due date, an extension list or a rule that cannot be read (one line)."""


@dataclass(frozen=True)
class LateRule:
    """What a late submission loses."""

    kind: str
    """``percent``, ``points``, ``doubling`` or ``none``."""
    amount: float = 0.0
    """The percent or points per day; for ``doubling``, the grade's scale."""
    last_day: int | None = None
    """After this many days late, no mark at all."""
    text: str = "none"
    """The rule as given (shown in the feedback and the summary)."""

    def penalty(self, raw: float, worth: float, days: int) -> float:
        """Points taken off a raw score of ``raw`` (out of ``worth``) ``days`` late."""
        if days <= 0:
            return 0.0
        if self.last_day is not None and days > self.last_day:
            return raw
        if self.kind == "percent":
            taken = raw * self.amount * days / 100
        elif self.kind == "points":
            taken = self.amount * days
        elif self.kind == "doubling":
            taken = 2.0 ** (days - 1) * worth / self.amount
        else:
            taken = 0.0
        return min(raw, taken)

    def describe(self) -> str:
        """The rule in words."""
        last = "" if self.last_day is None else f"; no mark after {self.last_day} days late"
        if self.kind == "percent":
            return f"{points_text(self.amount)}% of the score per day late{last}"
        if self.kind == "points":
            return f"{points_text(self.amount)} points per day late{last}"
        if self.kind == "doubling":
            scale = points_text(self.amount)
            return f"2^(n-1) points of a grade out of {scale} at n days late{last}"
        return f"no penalty{last}"


NAMED_RULES = {"nimsys": "percent:20:4", "videopoker": "doubling:20"}
"""The seeds' own rules by name."""
_RULE = re.compile(r"^(percent|points|doubling):([0-9]+(?:\.[0-9]+)?)(?::([0-9]+))?$")


def parse_rule(text: str) -> LateRule:
    """``--late``'s value as a rule (:class:`LateError` if it is none)."""
    given = text.strip()
    spelled = NAMED_RULES.get(given.lower(), given)
    if spelled == "none":
        return LateRule("none", text=given)
    match = _RULE.match(spelled)
    if match is None or len(given) > 40:
        names = ", ".join(NAMED_RULES)
        raise LateError(
            f"--late: expected {names}, none, percent:P[:LAST], points:P[:LAST] or "
            f"doubling:SCALE[:LAST], got {text!r}"
        )
    amount = float(match[2])
    if match[1] == "doubling" and amount <= 0:
        raise LateError(f"--late: a doubling rule needs a scale above 0, got {text!r}")
    last = None if match[3] is None else int(match[3])
    return LateRule(match[1], amount, last, given)


@dataclass
class Zone:
    """How a time that states no time zone is read: in :attr:`zone` (``--timezone``), else in
    the machine's (``TZ``); each such time is noted in :attr:`unzoned`, so that the grader can
    be warned (a Moodle worksheet's times state none: read on a UTC machine, an on-time Lisbon
    submission would be an hour later). A time that states its offset is kept as stated."""

    zone: tzinfo | None = None
    unzoned: list[str] = field(default_factory=list)
    """Where each time without a zone was read (``worksheet.csv: line 3``)."""

    def place(self, when: datetime, what: str) -> datetime:
        """``when`` in its own zone, or (noted) in this one."""
        if when.tzinfo is not None:
            return when
        self.unzoned.append(what)
        return when.astimezone() if self.zone is None else when.replace(tzinfo=self.zone)

    def describe(self) -> str:
        """The zone as the grader is told it: its name, else the machine's."""
        if self.zone is not None:
            return str(self.zone)
        return f"this machine's, {datetime.now().astimezone().tzname()}"


_OFFSET = re.compile(r"([+-])([01][0-9]|2[0-3]):?([0-5][0-9])")


def parse_zone(text: str) -> tzinfo:
    """``--timezone``: an IANA name (``Europe/Lisbon``, ``UTC``) or an offset (``+01:00``)."""
    raw = text.strip()
    if match := _OFFSET.fullmatch(raw):
        sign = -1 if match[1] == "-" else 1
        return timezone(sign * timedelta(hours=int(match[2]), minutes=int(match[3])))
    try:
        return ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError):
        raise LateError(
            f"--timezone: unknown time zone {text!r} (give an IANA name such as Europe/Lisbon "
            "or UTC, or an offset such as +01:00)"
        ) from None


def parse_when(text: str, what: str = "--due", zone: Zone | None = None) -> datetime:
    """An ISO 8601 time (``2019-05-31T15:00``, ``2019-05-31 15:00+10:00``, ``…Z``); one
    without an offset is read in ``zone`` (:class:`Zone`: by default the machine's)."""
    raw = text.strip()
    try:
        when = datetime.fromisoformat(raw.replace("Z", "+00:00") if raw.endswith("Z") else raw)
    except ValueError:
        raise LateError(
            f"{what}: expected a date and time such as 2019-05-31T15:00 or "
            f"2019-05-31T15:00+10:00, got {text!r}"
        ) from None
    return (zone or Zone()).place(when, what)


def days_late(submitted: datetime, due: datetime) -> int:
    """Started 24-hour cycles after ``due`` (0 at the due or before)."""
    over = submitted - due
    if over <= timedelta(0):
        return 0
    return math.ceil(over / DAY)


def read_extensions(text: str, name: str, zone: Zone | None = None) -> dict[str, datetime]:
    """An extension list: CSV rows of ``student,new due`` (a first row whose second cell has
    no digit is a header, skipped; blank lines too; a first row with digits that are not a
    time is a bad date, refused: never dropped for a header), times without an offset read in
    ``zone``. Keys are as written; :func:`resolve` matches them to students."""
    found: dict[str, datetime] = {}
    for number, row in enumerate(csv.reader(io.StringIO(text)), 1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if len(cells) < 2 or not cells[0]:
            raise LateError(f"{name}: line {number}: expected 'student,new due', got {row!r}")
        try:
            found[cells[0]] = parse_when(cells[1], f"{name}: line {number}", zone)
        except LateError:
            if number == 1 and not any(char.isdigit() for char in cells[1]):  # a header
                continue
            raise
    return found


def resolve(
    keys: Iterable[str],
    students: Iterable[str],
    aliases: Mapping[str, str],
    what: str,
    strict: bool = True,
) -> dict[str, str]:
    """Each key (a student's name, or an alias: a platform id or name) → the student it
    names; a key that names nobody is :class:`LateError` (a typo must not pass), or left out
    when not ``strict`` (a platform's list of every participant)."""
    names = set(students)
    resolved = {}
    for key in keys:
        student = key if key in names else aliases.get(key)
        if student is not None:
            resolved[key] = student
        elif strict:
            raise LateError(f"{what}: {key!r} is none of the students")
    return resolved


@dataclass(frozen=True)
class Lateness:
    """One student's lateness and what the rule made of the raw score."""

    due: datetime
    submitted: datetime | None
    """``None``: the time is unknown (only a platform's late marker said so)."""
    source: str
    """Where the time came from, in words."""
    days: int
    raw: float
    worth: float
    penalty: float
    extended: bool = False

    @property
    def final(self) -> float:
        """The raw score less the penalty."""
        return self.raw - self.penalty


def assess(
    rule: LateRule,
    due: datetime,
    when: tuple[datetime | None, str, bool],
    raw: float,
    worth: float,
    extended: bool = False,
) -> Lateness:
    """A student's lateness: ``when`` is (the time or ``None``, where it came from, whether
    a platform marked it late); a late mark without a time counts as 1 day."""
    submitted, source, marked = when
    unknown = 1 if marked else 0
    days = unknown if submitted is None else days_late(submitted, due)
    penalty = rule.penalty(raw, worth, days)
    return Lateness(due, submitted, source, days, raw, worth, penalty, extended)


def stamp(when: datetime) -> str:
    """A time as shown: ``2019-05-31 15:00 +1000``."""
    return when.strftime("%Y-%m-%d %H:%M %z").strip()


def late_lines(late: Lateness, rule: LateRule) -> list[str]:
    """What the feedback says about it, under the score line."""
    due = f"due {stamp(late.due)}{' (extended)' if late.extended else ''}"
    when = "time unknown" if late.submitted is None else f"submitted {stamp(late.submitted)}"
    lines = [f"{when} ({late.source}); {due}"]
    if late.days == 0:
        lines.append("on time: no penalty")
        return lines
    lines.append(
        f"{late.days} day{'' if late.days == 1 else 's'} late ({rule.describe()}): "
        f"raw {points_text(late.raw)}, penalty {points_text(late.penalty)}, "
        f"final {points_text(late.final)}/{points_text(late.worth)}"
    )
    return lines
