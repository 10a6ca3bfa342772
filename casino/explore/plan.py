"""What explore generates and shrinks: a session of runs, each run a list of units of lines.

A *unit* is one command with the lines it owns (``startgame`` and the moves of its game,
``removeplayer`` and its ``y``); shrinking drops whole runs, then whole units, then lines
within a unit, then makes numbers and names simpler. A grammar
(:class:`Grammar`) turns a session into the program's arguments, starting files and input
lines, and says whether casino's reference *accepts* it: whether every line stays within what
the assignment pins.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

Unit = tuple[str, ...]
"""One command and the lines it owns, in the order they are typed."""
DATA_MARK = "#"
"""A unit's line that starts with it is data the grammar writes into a file (video poker's
cards of one hand), not a typed line: it goes with its unit when shrinking drops it."""


@dataclass(frozen=True)
class Session:
    """Runs of one program in one working directory (a chain shares its files); each run is
    a tuple of units. ``data`` is what the grammar keeps besides typed lines (video poker's
    card-file)."""

    runs: tuple[tuple[Unit, ...], ...]
    data: tuple[str, ...] = field(default=())

    @property
    def size(self) -> tuple[int, int, str, int, tuple[str, ...]]:
        """How big the session is, for shrinking: lines (not data lines), then characters,
        then the text itself (a smaller digit is smaller), then data items, then the data
        itself (a starting file's first text, ``"0"``, before another). Each shrinking step
        makes it strictly smaller, and there are finitely many smaller ones: shrinking
        ends."""
        lines = [line for run in self.runs for unit in run for line in unit]
        typed = sum(not line.startswith(DATA_MARK) for line in lines)
        return typed, sum(map(len, lines)), "\n".join(lines), len(self.data), self.data

    def with_runs(self, runs: tuple[tuple[Unit, ...], ...]) -> Session:
        """The same session with other runs."""
        return Session(runs, self.data)


@dataclass(frozen=True)
class RunInput:
    """One run as the program gets it: its arguments and the lines typed."""

    args: tuple[str, ...]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Rendered:
    """A session as the harness needs it: the runs and the starting files (name, text)."""

    runs: tuple[RunInput, ...]
    files: tuple[tuple[str, str], ...] = ()


class Grammar(Protocol):
    """An assignment's sessions: how to generate, render, check and simplify them.

    Five attributes are optional (looked up with ``getattr``; the grammars without them work as
    before): ``keeps_recordings`` (``True``: the reference's recordings may be kept between runs
    of explore, as a session's coverage is the same whatever its process did before — Nimsys's
    and the demo's; not video poker's or five-card draw's, whose tables (video poker's, the hand
    evaluator's) are built once a process, so a kept session's arcs would depend on the run that
    recorded it, and a warm run could try a window's sessions in another order than a cold one:
    the same seed and program must give the same report); ``optional``, a tuple of
    :class:`OptionalPart` (Nimsys Project C's bonus); ``loosen(session, transcript)``, the
    recorded transcript with ``out_any`` where several outputs are right (video poker's advice);
    ``group(session, run, unit)``, the part of the assignment the output of a unit touches
    (``casino explore --every``); and ``group_of_line(line)``, the part a line of the
    reference's output belongs to, for a program that reads its commands from a file (video
    poker's debug mode), where no typed line holds the difference."""

    @property
    def name(self) -> str:
        """The name ``--reference`` takes (``nimsys``, ``nimsys-b``, ``demo``, …)."""
        ...

    @property
    def program(self) -> str:
        """casino's program that is the reference (a name in :data:`casino.programs.PROGRAMS`)."""
        ...

    @property
    def about(self) -> str:
        """One line: what the grammar covers."""
        ...

    def generate(self, rng: random.Random, size: int) -> Session:
        """A new session; ``size`` (1 and up) bounds how many commands it has."""
        ...

    def render(self, session: Session) -> Rendered:
        """The session's runs and files."""
        ...

    def unpinned(self, session: Session) -> str | None:
        """Why the session leaves what the assignment pins (``None``: it stays inside)."""
        ...

    def simpler(self, session: Session) -> Iterator[Session]:
        """Sessions with one number or name made simpler (tried in turn while shrinking)."""
        ...


@dataclass(frozen=True)
class OptionalPart:
    """A part of the assignment a student may leave out (a bonus): the commands that start
    its units. A grammar lists its parts as ``optional`` (none: no attribute); a difference
    that goes away without them is reported once as this part's, and the rest of the
    program is explored without them."""

    name: str
    """How the report names it (``the bonus (startadvancedgame)``)."""
    words: tuple[str, ...]
    """A unit whose first line's command word is one of these belongs to the part."""

    def owns(self, unit: Unit) -> bool:
        """Whether ``unit`` belongs to the part."""
        return bool(unit) and unit[0].split(" ", 1)[0] in self.words

    def has(self, session: Session) -> bool:
        """Whether the session has a unit of the part."""
        return any(self.owns(unit) for run in session.runs for unit in run)

    def without(self, session: Session) -> Session:
        """The session with the part's units left out."""
        runs = tuple(tuple(unit for unit in run if not self.owns(unit)) for run in session.runs)
        return session.with_runs(runs)


NumberAt = tuple[int, int, int, int]
"""Where a number is typed: run, unit, line, and which number of the line."""
DIGITS = re.compile(r"(?<![A-Za-z0-9.])[0-9]+(?![A-Za-z0-9.])")
"""A whole number typed on its own (not part of a word or a decimal)."""


def smaller_numbers(session: Session) -> Iterator[Session]:
    """The session with one typed number made smaller (0, 1, 2, half, one less), each
    number in turn."""
    for where, number in _numbers(session):
        for smaller in sorted({0, 1, 2, number // 2, number - 1}):
            if 0 <= smaller < number:
                yield _with_number(session, where, smaller)


def _numbers(session: Session) -> Iterator[tuple[NumberAt, int]]:
    for r, run in enumerate(session.runs):
        for u, unit in enumerate(run):
            for n, line in enumerate(unit):
                for i, found in enumerate(DIGITS.finditer(line)):
                    yield (r, u, n, i), int(found.group())


def _with_number(session: Session, where: NumberAt, value: int) -> Session:
    r, u, n, i = where
    line = session.runs[r][u][n]
    found = list(DIGITS.finditer(line))[i]
    unit = session.runs[r][u]
    new_unit = (*unit[:n], line[: found.start()] + str(value) + line[found.end() :], *unit[n + 1 :])
    run = session.runs[r]
    new_run = (*run[:u], new_unit, *run[u + 1 :])
    return session.with_runs((*session.runs[:r], new_run, *session.runs[r + 1 :]))
