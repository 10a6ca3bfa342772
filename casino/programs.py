"""The programs casino ships, by the name transcripts and the ``casino`` command use.

Every program is a module with a function::

    def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None,
             stdout: TextIO | None = None, stderr: TextIO | None = None) -> int

that reads only ``stdin``, writes only ``stdout``/``stderr`` and returns the exit status.
``python -m <module>`` runs the same function on the process's own streams.
"""

from __future__ import annotations

import importlib
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO


class MainFunction(Protocol):
    """The entry point every casino program provides."""

    def __call__(
        self,
        argv: Sequence[str] | None = None,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
    ) -> int: ...


PROGRAMS: dict[str, str] = {
    "demo": "casino.demo",
    "domino": "casino.domino",
    "draw": "casino.draw",
    "holdem": "casino.holdem",
    "nimsys": "casino.nimsys",
    "stud": "casino.stud",
    "videopoker": "casino.videopoker",
    "web": "casino.web",
}
"""Program name → the module that ``python -m`` runs."""

SUMMARIES: dict[str, str] = {
    "demo": "a tiny calculator that shows what the transcript harness checks",
    "domino": "CASINO-ROYAL dominoes: double-six against the computer, with a move clock",
    "draw": "five-card draw (Play5CardDraw): you against up to four computer players",
    "holdem": "CASINO-ROYAL Texas Hold'em: against the computer, hot-seat, network tables",
    "nimsys": "Nim and its advanced game, players kept in players.dat (COMP90041 Nimsys)",
    "stud": "three-card stud: the socket dealer, a player bot, tournaments, the course's tester",
    "videopoker": "Double Bonus 10/7 video poker: play, debug, simulate, analyze exactly",
    "web": "CASINO-ROYAL in the browser: dominoes, live Hold'em tables (the web extra)",
}
"""Program name → what it is, in one line (``casino --help``)."""


def summary_of(name: str) -> str:
    """What program ``name`` is, in one line."""
    return SUMMARIES.get(name, f"play {name}")


def module_of(name: str) -> str:
    """The module behind program ``name``; ``KeyError`` if casino has no such program."""
    return PROGRAMS[name]


def load_main(name: str) -> MainFunction:
    """Import program ``name`` and return its ``main``."""
    module = importlib.import_module(module_of(name))
    if not hasattr(module, "main") and hasattr(module, "__path__"):
        module = importlib.import_module(module.__name__ + ".__main__")
    main: MainFunction = module.main
    return main


def command_line(name: str) -> list[str]:
    """The argv that runs program ``name`` as a separate process with this Python.

    ``-P``: the working directory is not put on ``sys.path``, so files there (a transcript's
    ``random.py`` or ``casino/__init__.py``) are never imported as code.
    """
    return [sys.executable, "-P", "-m", module_of(name)]


@dataclass(frozen=True)
class Completed:
    """What one in-process run of a program printed, and its exit status."""

    status: int
    out: str
    err: str


def run_captured(main: MainFunction, argv: Sequence[str], stdin: str | TextIO = "") -> Completed:
    """Call ``main(argv)`` with ``stdin`` (text or a stream) and capture stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    given = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    status = main(list(argv), stdin=given, stdout=out, stderr=err)
    return Completed(status, out.getvalue(), err.getvalue())
