"""A class of players: taken in and built as ``casino grade`` takes in and builds a course,
then run through the automatic tester one by one, into a gradebook.

:func:`prepare` turns SUBMISSIONS (a folder of folders, a zip, a learning platform's download,
a list of Git repositories: :func:`casino.grade.intake.open_submissions`) and ``--bot``
commands into :class:`Entry` values, one per player: each submission is copied into a folder
of its own (:func:`casino.grade.course.copy_submission`) and built there once with ``--build``
(:func:`casino.grade.work.build`: through ``sh``, bounded, in the course's sandbox), and
``--run`` is the player's command written for that folder. A player that cannot be taken in
or does not build is an entry with its reason, and its row says so; the others go on.

:func:`check_class` runs :func:`casino.stud.check.check_player` on every entry (a few at a
time), each player sandboxed (:mod:`casino.stud.launch`: the network cut, the dealer reached
through a loopback relay). :func:`write_books` writes what ``casino grade`` writes, through
its writers (:mod:`casino.grade.books`, :mod:`casino.grade.results`,
:mod:`casino.grade.summary`, a column per rubric line): ``gradebook.csv``,
``gradebook.json``, ``feedback/STUDENT.txt`` and ``summary.html``.
``--bot`` commands are staff's own (casino's strategies, a reference player) and run as typed,
without a sandbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from casino.clock import Clock
from casino.errors import CasinoError
from casino.files import write_atomic
from casino.grade.books import lines_gradebook_csv, lines_gradebook_json
from casino.grade.course import Course, TooLargeSubmission, copy_submission, file_stem
from casino.grade.intake import IntakeError, open_submissions
from casino.grade.results import SUBMISSION, LineResult, tester_feedback
from casino.grade.studdues import Dues, PartPicker, after_dues, late_parts
from casino.grade.summary import LinesPage, lines_summary_html
from casino.grade.work import build
from casino.harness.runners.folders import remove_tree
from casino.harness.runners.sandbox import Sandbox
from casino.stud.check import Checked, Limits, check_player
from casino.stud.launch import Launch
from casino.stud.report import text_report
from casino.stud.rubric import POINTS


@dataclass(frozen=True)
class Entry:
    """One player of the class: how to start it, or why it cannot be."""

    name: str
    launch: Launch | None
    problem: str = ""
    """Why it is not played (it could not be taken in, its build failed)."""
    build_output: str = ""
    """What a failed build printed."""
    late: dict[str, str] = field(default_factory=dict)
    """The parts turned in after their due (``--due``), each with why in one line."""


@dataclass(frozen=True)
class ClassSetup:
    """How a class's submissions are turned into players."""

    run: tuple[str, ...]
    """``--run``: the player's command, ``{host}``/``{port}`` in it."""
    build: str | None = None
    sandbox: Sandbox | None = None
    build_timeout: float = 120.0


def prepare(
    source: Path | None,
    setup: ClassSetup,
    bots: Sequence[tuple[str, list[str]]],
    scratch: Path,
    dues: Dues | None = None,
) -> list[Entry]:
    """Every player: ``bots`` (a name and its command, run as typed) first, then each
    submission of ``source`` in name order, copied, built, under ``scratch``; with ``dues``,
    a Git list's repositories as they were at the last due, and each submission's late parts
    (:mod:`casino.grade.studdues`). :class:`CasinoError` when ``source`` cannot be read at all."""
    entries = [Entry(name, Launch(tuple(command))) for name, command in bots]
    if source is None:
        return entries
    picker = PartPicker(dues) if dues is not None else None
    try:
        intake = open_submissions(source, scratch / "intake", picker)
    except IntakeError as error:
        raise CasinoError(str(error)) from None
    if intake.layout != "git":
        picker = None
    late = {} if dues is None else late_parts(dues, source, intake, picker)
    found = [(s.name, s.folder) for s in intake.students]
    lost = [Entry(name, None, why) for name, why in intake.problems.items()]
    made = [
        dataclasses.replace(
            _entry(name, folder, setup, scratch / f"player-{n}"), late=late.get(name, {})
        )
        for n, (name, folder) in enumerate(found)
    ]
    return entries + sorted(made + lost, key=lambda entry: entry.name)


def _entry(name: str, source: Path, setup: ClassSetup, place: Path) -> Entry:
    """Copy and build one submission; its entry."""
    folder, run_folder = place / "submission", place / "run"
    try:
        folder.mkdir(parents=True)
        run_folder.mkdir()
        copy_submission(source, folder)
    except TooLargeSubmission as error:
        return Entry(name, None, str(error))
    except OSError as error:
        return Entry(name, None, f"the submission cannot be copied: {error.strerror or error}")
    if setup.build is not None:
        course = Course((), (), setup.build, "pipe", setup.sandbox, setup.build_timeout)
        failure = build(course, folder)
        if failure is not None:
            return Entry(name, None, "the build failed", failure)
    return Entry(name, Launch(setup.run, folder, setup.sandbox, run_folder))


# ---------------------------------------------------------------- the tester, for a class


@dataclass(frozen=True)
class Graded:
    """One player's check: the tester's verdict, or why it was not tested."""

    entry: Entry
    checked: Checked | None
    note: str = ""

    @property
    def points(self) -> dict[str, float]:
        """Each rubric line's points (0 each when not tested)."""
        if self.checked is None:
            return dict.fromkeys(POINTS, 0.0)
        tested = {result.name: result.points for result in self.checked.results}
        return after_dues(tested, list(self.entry.late)) if self.entry.late else tested

    @property
    def score(self) -> float:
        """Points earned."""
        return sum(self.points.values())


MAX_POINTS = sum(POINTS.values())


async def check_class(
    entries: Sequence[Entry], clock: Clock, limits: Limits, jobs: int = 1
) -> list[Graded]:
    """The tester on every entry, ``jobs`` players at a time; results in entry order."""
    gate = asyncio.Semaphore(max(1, jobs))

    async def one(entry: Entry) -> Graded:
        if entry.launch is None:
            return Graded(entry, None, entry.problem)
        async with gate:
            try:
                checked = await check_player(entry.launch, clock, limits)
            except CasinoError as error:
                return Graded(entry, None, str(error))
        connects = checked.results[0]  # "connects to the dealer": why it never played
        return Graded(entry, checked, "" if connects.passed else connects.problems[0])

    return list(await asyncio.gather(*(one(entry) for entry in entries)))


# ---------------------------------------------------------------- what a class gets


def line_result(one: Graded) -> LineResult:
    """A player's row in the gradebook, the summary and its feedback."""
    return LineResult(one.entry.name, one.points, one.checked is not None, one.note)


def feedback(one: Graded) -> str:
    """``feedback/STUDENT.txt``: the score, then the tester's report, or why there is none
    (with what a failed build printed)."""
    report = None if one.checked is None else text_report(one.checked)
    return tester_feedback(
        line_result(one),
        MAX_POINTS,
        notes=list(one.entry.late.values()),
        report=report,
        build_output=one.entry.build_output,
        folders=launch_folders(one.entry.launch),
    )


RUN_FOLDER = "<run>"
"""How a player's run folder is shown in its feedback (its submission is ``<submission>``,
as ``casino grade`` shows it): the feedback does not change from one run to the next."""


def launch_folders(launch: Launch | None) -> dict[str, str]:
    """The player's temporary folders and how its feedback shows them (``<submission>`` and
    ``<run>``: a stack trace names them), for :func:`casino.grade.results.shown_paths`."""
    if launch is None:
        return {}
    pairs = ((launch.folder, SUBMISSION), (launch.run_folder, RUN_FOLDER))
    return {str(folder): shown for folder, shown in pairs if folder is not None}


def feedback_stem(name: str) -> str:
    """The name of a player's feedback file: ``casino grade``'s (:func:`file_stem`), a ``/``
    (a ``--bot`` command's path) written ``_``."""
    return file_stem(name.replace("/", "_"))


PAGE = LinesPage(
    "casino stud check: summary",
    "Three-card stud: the automatic tester",
    POINTS,
    who="player",
    stem=feedback_stem,
)
"""The class's ``summary.html``, as :func:`casino.grade.summary.lines_summary_html` draws it."""


def write_books(out: Path, graded: Sequence[Graded], sandbox: str) -> None:
    """Every file of the class under ``out`` (atomically), written by ``casino grade``'s own
    writers: ``feedback/STUDENT.txt``, ``gradebook.csv``, ``gradebook.json``,
    ``summary.html``."""
    for one in graded:
        write_atomic(out / "feedback" / f"{feedback_stem(one.entry.name)}.txt", feedback(one))
    rows = [line_result(one) for one in graded]
    write_atomic(out / "gradebook.csv", lines_gradebook_csv(POINTS, rows))
    write_atomic(out / "gradebook.json", lines_gradebook_json(POINTS, rows))
    write_atomic(out / "summary.html", lines_summary_html(PAGE, rows, sandbox))


@contextlib.contextmanager
def scratch_folder() -> Iterator[Path]:
    """The folder a class is copied, built and run in (removed at the end, whatever the
    players left in it)."""
    folder = Path(tempfile.mkdtemp(prefix="casino-stud-class-"))
    try:
        yield folder
    finally:
        remove_tree(folder)
