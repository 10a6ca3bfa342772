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
import zipimport
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


MAINS: dict[str, str] = {"stud": "casino.grade.studcli"}
"""Programs whose whole command line is a module above their game package (program name →
the module with its ``main``): ``casino stud check`` and a class's Casino Day are grading,
and no game package imports :mod:`casino.grade`."""


def load_main(name: str) -> MainFunction:
    """Import program ``name`` and return its ``main`` (:data:`MAINS`' module, else the
    program's own)."""
    module = importlib.import_module(MAINS.get(name) or module_of(name))
    if not hasattr(module, "main") and hasattr(module, "__path__"):
        module = importlib.import_module(module.__name__ + ".__main__")
    main: MainFunction = module.main
    return main


def command_line(name: str) -> list[str]:
    """The argv that runs program ``name`` as a separate process with this Python.

    ``-P``: the working directory is not put on ``sys.path``, so files there (a transcript's
    ``random.py`` or ``casino/__init__.py``) are never imported as code.
    """
    return python_module(module_of(name))


ZIP_BOOT = (
    "import runpy, sys; a = sys.argv; sys.path.insert(0, a[1]); m = a[2]; "
    "sys.argv = a[:1] + a[3:]; runpy.run_module(m, run_name='__main__', alter_sys=True)"
)
"""What ``python -c`` runs for ``python -m MODULE`` out of the single file: the archive first
on ``sys.path``, then the module as ``__main__`` with the arguments after it."""


def python_module(module: str) -> list[str]:
    """The argv (before the module's own arguments) that runs ``python -m module`` with this
    Python and the casino this process runs: the installed package, or the single file
    ``casino.pyz`` that a child Python would not see by itself (``-m`` cannot name a module
    inside a zip, so :data:`ZIP_BOOT` puts the archive on the path first). From the single
    file, the child also runs without site-packages (``-S``) when this process does; never
    isolated (``-I``), which would drop the ``PYTHONUTF8`` its caller may set."""
    archive = zip_archive()
    if archive is None:
        return [sys.executable, "-P", "-m", module]
    flags = ["-P", "-S"] if sys.flags.no_site else ["-P"]
    return [sys.executable, *flags, "-c", ZIP_BOOT, archive, module]


def zip_archive() -> str | None:
    """The single-file archive casino is imported from, or ``None`` (an installed package)."""
    loader = getattr(importlib.import_module("casino").__spec__, "loader", None)
    return loader.archive if isinstance(loader, zipimport.zipimporter) else None


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
