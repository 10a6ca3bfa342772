"""A course's term around ``casino grade``: the due date, extensions, the late rule and the
submission times, put together into each student's :class:`~casino.grade.late.Lateness`.

:func:`read_term` reads the options (``--due``, ``--extensions``, ``--late``, ``--submitted``,
``--timezone``: the zone of every time that states none, else the machine's, with a warning);
:func:`lateness` turns the graded results and the times :mod:`casino.grade.submitted` finds
into what the gradebook, the feedback, the summary and the platforms' grade imports show.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from casino.files import read_text
from casino.grade.intake import Intake
from casino.grade.late import (
    LateError,
    Lateness,
    LateRule,
    Zone,
    assess,
    late_lines,
    parse_rule,
    parse_when,
    parse_zone,
    read_extensions,
    resolve,
    stamp,
)
from casino.grade.results import StudentResult
from casino.grade.submitted import CommitPicker, aliases, read_submitted, submission_times
from casino.harness.report import points_text

LIST_BYTES = 8 << 20
"""An extension list or a times list is at most this large."""


@dataclass(frozen=True)
class Term:
    """The course's due date, its late rule, and its lists (keys as written in them)."""

    due: datetime
    rule: LateRule
    extensions: dict[str, datetime] = field(default_factory=dict)
    listed: dict[str, datetime | None] = field(default_factory=dict)
    zone: Zone = field(default_factory=Zone)
    """The zone times without one were read in, and which they were."""

    def zone_warning(self) -> str | None:
        """What the grader is told when times without a zone were read in the machine's (no
        ``--timezone``): how many, the first, and the zone they were read in."""
        unzoned = self.zone.unzoned
        if not unzoned or self.zone.zone is not None:
            return None
        many = f"{len(unzoned)} times state" if len(unzoned) > 1 else "1 time states"
        return (
            f"casino grade: warning: {many} no time zone (the first: {unzoned[0]}); read in "
            f"{self.zone.describe()}: give --timezone ZONE (e.g. Europe/Lisbon) to say which"
        )

    def due_of(self, student: str) -> datetime:
        """The student's own due by the name the extension list gives (an extension, else
        the course's): what a Git list's repositories are picked by."""
        return self.extensions.get(student, self.due)

    def due_of_student(self, student: str, late: Mapping[str, Lateness] | None) -> datetime:
        """The student's own due once the lists are resolved (:func:`lateness`)."""
        known = None if late is None else late.get(student)
        return self.due if known is None else known.due


def _read_list(path: str, what: str) -> str:
    try:
        return read_text(path, LIST_BYTES, encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise LateError(f"{what}: cannot read {path}: not UTF-8 text") from None
    except OSError as error:
        raise LateError(f"{what}: cannot read {path}: {error.strerror or error}") from None


def read_term(
    due: str | None,
    late: str | None,
    extensions: str | None,
    submitted: str | None,
    timezone: str | None = None,
) -> Term | None:
    """The term the options give (``None`` without ``--due``); :class:`LateError` for one
    that cannot be read, or a list given without ``--due``. A time that states no zone is
    read in ``timezone`` (``--timezone``), else in the machine's (:meth:`Term.zone_warning`)."""
    if due is None:
        given = [name for name, value in _options(late, extensions, submitted, timezone) if value]
        if given:
            raise LateError(f"{given[0]} needs --due")
        return None
    zone = Zone(None if timezone is None else parse_zone(timezone))
    return Term(
        due=parse_when(due, "--due", zone),
        rule=parse_rule(late or "none"),
        extensions=read_extensions(_read_list(extensions, "--extensions"), extensions, zone)
        if extensions
        else {},
        listed=read_submitted(_read_list(submitted, "--submitted"), submitted, zone)
        if submitted
        else {},
        zone=zone,
    )


def _options(*values: str | None) -> list[tuple[str, str | None]]:
    names = ("--late", "--extensions", "--submitted", "--timezone")
    return list(zip(names, values, strict=True))


def check_lists(term: Term, intake: Intake) -> None:
    """Refuse (:class:`LateError`) an extension for someone who is not a student, before
    anything is graded. (``--submitted`` may name more: a platform's worksheet lists every
    participant, those who handed nothing in too.)"""
    students = [student.name for student in intake.students] + list(intake.problems)
    resolve(term.extensions, students, aliases(intake), "--extensions")


def lateness(
    term: Term,
    source: Path,
    intake: Intake,
    results: Sequence[StudentResult],
    picker: CommitPicker | None,
) -> dict[str, Lateness]:
    """Every graded student's lateness (a student not graded has none)."""
    students = [result.student for result in results]
    others = aliases(intake)
    extended = {
        student: term.extensions[key]
        for key, student in resolve(term.extensions, students, others, "--extensions").items()
    }
    listed = {
        student: term.listed[key]
        for key, student in resolve(term.listed, students, others, "", strict=False).items()
    }
    commits = picker.times if picker is not None else {}
    times = submission_times(source, intake, listed, commits, term.zone)
    found = {}
    for result in results:
        if result.note is not None:
            continue
        due = extended.get(result.student, term.due)
        when = times.get(result.student, (None, "no time found: counted as on time", False))
        found[result.student] = assess(
            term.rule,
            due,
            when,
            result.points,
            result.max_points,
            extended=result.student in extended,
        )
    return found


def notes(late: Mapping[str, Lateness], rule: LateRule, student: str) -> list[str]:
    """The feedback's lines about the student's lateness."""
    known = late.get(student)
    return [] if known is None else late_lines(known, rule)


def finals(late: Mapping[str, Lateness]) -> dict[str, float]:
    """Each student's final score, for the platforms' grade imports."""
    return {student: known.final for student, known in late.items()}


def late_html(late: Mapping[str, Lateness], term: Term) -> str:
    """The summary's section on late work: the rule, then every student late or extended."""
    e = html.escape
    rows = [
        "<h2>Late work</h2>",
        f"<p>Due {e(stamp(term.due))}; rule: {e(term.rule.describe())} "
        f"(<code>{e(term.rule.text)}</code>).</p>",
    ]
    shown = [(s, k) for s, k in sorted(late.items()) if k.days or k.extended]
    if not shown:
        return "\n".join([*rows, "<p>Every submission was on time.</p>"])
    rows.append(
        "<table><tr><th>student</th><th>due</th><th>submitted</th><th>days late</th>"
        "<th>raw</th><th>penalty</th><th>final</th><th>time from</th></tr>"
    )
    for student, known in shown:
        when = "unknown" if known.submitted is None else stamp(known.submitted)
        due = stamp(known.due) + (" (extended)" if known.extended else "")
        cells = [student, due, when, str(known.days), points_text(known.raw)]
        cells += [points_text(known.penalty), points_text(known.final), known.source]
        rows.append("<tr>" + "".join(f"<td>{e(cell)}</td>" for cell in cells) + "</tr>")
    return "\n".join([*rows, "</table>"])
