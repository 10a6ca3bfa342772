"""Which of the reference's code a session reached: its line arcs (a line and the line run
next: coverage.py's "arcs", so a branch taken one way and the other are two), traced with
:func:`sys.settrace` while the reference plays the session in this process, and the share of
the reference's lines reached so far.

Only casino's game code is traced: every module under ``casino/`` but the harness, explore
and grade (which record and judge; they are not the reference). Standard library only, so
explore needs no coverage tool; a line tracer costs the in-process reference a few times its
own time, which is small beside one run of the program explored.
"""

from __future__ import annotations

import inspect
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import casino

Arc = tuple[str, int, int]
"""A file and two of its lines: one run and the one run next (a negative line is the code's
entry or exit, as coverage.py writes it)."""
CASINO = Path(casino.__file__).resolve().parent
NOT_REFERENCE = tuple(str(CASINO / part) for part in ("harness", "explore", "grade", "web"))
"""casino's folders that record, judge or serve: never counted as the reference's code."""


def is_reference(filename: str) -> bool:
    """Whether ``filename`` is game code of casino's (what a reference runs)."""
    return filename.startswith(str(CASINO)) and not filename.startswith(NOT_REFERENCE)


@dataclass
class Coverage:
    """The arcs and lines the reference ran, over every session traced so far."""

    arcs: set[Arc] = field(default_factory=set)
    lines: dict[str, set[int]] = field(default_factory=dict)
    _wanted: dict[str, bool] = field(default_factory=dict)

    @contextmanager
    def tracing(self) -> Iterator[set[Arc]]:
        """Trace what runs in the block; yields the set of arcs it ran (filled when the
        block ends), which :meth:`add` then counts as reached."""
        ran: set[Arc] = set()
        previous = sys.gettrace()
        sys.settrace(self._tracer(ran))
        try:
            yield ran
        finally:
            sys.settrace(previous)

    def add(self, ran: set[Arc]) -> int:
        """Count ``ran`` as reached; how many of its arcs are new."""
        new = ran - self.arcs
        self.arcs |= new
        for filename, first, second in new:
            self.lines.setdefault(filename, set()).update(n for n in (first, second) if n > 0)
        return len(new)

    def _tracer(self, ran: set[Arc]) -> Any:
        wanted = self._wanted

        def on_call(frame: types.FrameType, event: str, _arg: object) -> Any:
            filename = frame.f_code.co_filename
            if filename not in wanted:
                wanted[filename] = is_reference(filename)
            if not wanted[filename]:
                return None
            last = -frame.f_code.co_firstlineno

            def on_line(frame: types.FrameType, event: str, _arg: object) -> Any:
                nonlocal last
                if event == "line":
                    ran.add((filename, last, frame.f_lineno))
                    last = frame.f_lineno
                elif event == "return" and last > 0:  # a line ran (not a generator closed
                    ran.add((filename, last, -frame.f_code.co_firstlineno))  # whenever it is)
                return on_line

            return on_line

        return on_call

    def report(self) -> CoverageReport:
        """The reached lines beside all the lines of the reference's modules it entered."""
        files = tuple(
            (_relative(name), len(reached & lines), len(lines))
            for name, reached in sorted(self.lines.items())
            if (lines := executable_lines(name))
        )
        return CoverageReport(files)


@dataclass(frozen=True)
class CoverageReport:
    """Per module of the reference that ran: its name, lines reached, lines in all."""

    files: tuple[tuple[str, int, int], ...]

    @property
    def reached(self) -> int:
        """Lines reached, in all the modules."""
        return sum(reached for _name, reached, _all in self.files)

    @property
    def total(self) -> int:
        """Lines in all the modules."""
        return sum(total for _name, _reached, total in self.files)

    def summary(self) -> str:
        """``reference coverage: 412 of 530 lines (78%) in 9 modules``."""
        share = 100 * self.reached // self.total if self.total else 0
        return (
            f"reference coverage: {self.reached} of {self.total} lines ({share}%)"
            f" in {len(self.files)} modules"
        )


def executable_lines(filename: str) -> set[int]:
    """The lines of a module's functions that run code (a function's ``def`` line and the
    module's and classes' own code run at import, before any session: left out)."""
    try:
        source = Path(filename).read_text(encoding="utf-8")
        code = compile(source, filename, "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError):
        return set()
    lines: set[int] = set()
    stack = [code]
    while stack:
        each = stack.pop()
        if each.co_flags & inspect.CO_OPTIMIZED:  # a function's code, not a module's or class's
            found = {line for _start, _end, line in each.co_lines() if line is not None}
            lines |= found - {each.co_firstlineno}
        stack.extend(const for const in each.co_consts if isinstance(const, types.CodeType))
    return lines


def _relative(filename: str) -> str:
    path = Path(filename)
    try:
        return str(path.relative_to(CASINO.parent))
    except ValueError:
        return str(path)
