"""Cheap Python students for ``casino grade``'s tests: the system's ``python3`` by its full
path, and casino's games copied into a submission already compiled.

Where a test is not about which ``python3`` a run finds, the students name the system's own
(``/usr/bin/python3``, what a sandboxed run finds on its ``PATH`` anyway): trusted
(``--trust-submissions``), a run would otherwise start the first ``python3`` on the grader's
``PATH``, a virtual environment's (its ``.pth`` hooks make each start two to three times as
dear) or a pyenv shim (a shell script starting ``pyenv``: nine times as dear).

A submission holding casino's games gets a copy made once per session and compiled once by
that ``python3`` with hash-checked ``.pyc`` files (still valid in the grader's fresh copy of
the submission, whose files have new times): each run imports them instead of compiling
casino's modules again (with ``-B`` a run never writes them, and the submission is read-only
in its sandbox anyway). It also brings casino's precomputed tables (the hand evaluator's
and video poker's pay lines), as ``tables/``, its ``CASINO_CACHE_DIR``: a sandboxed run sees
no cache of the machine's and cannot keep one, and each run of draw or video poker would
build them again (0.4 s and more).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from casino import cache
from casino.cards import evaluator
from casino.videopoker import handtable
from grade.grade_support import ROOT

SYSTEM_PYTHON = "/usr/bin/python3"
PYTHON = SYSTEM_PYTHON if os.access(SYSTEM_PYTHON, os.X_OK) else "python3"
"""The ``python3`` the students run."""

QUICK_PYTHON_RUN = f'exec {PYTHON} -S "$(dirname "$0")/main.py" "$@"\n'
"""``run.sh`` of a student of :func:`grade_support.write_course` that imports nothing of
``site`` (none of them does): what :data:`grade_support.PYTHON_RUN` does, cheaper."""


def quick_runs(root: Path) -> None:
    """Make every Python student under ``root/submissions`` start :data:`PYTHON` with
    :data:`QUICK_PYTHON_RUN` (a Java student is left alone)."""
    for run in sorted((root / "submissions").glob("*/run.sh")):
        text = run.read_text(encoding="utf-8")
        if "main.py" in text:
            head = text.split("exec ", 1)[0]
            run.write_text(head + QUICK_PYTHON_RUN, encoding="utf-8")


GAMES_RUN = f"""\
CASINO_CACHE_DIR="$(dirname "$0")/tables" exec {PYTHON} -B -S "$(dirname "$0")/main.py" "$@"
"""
"""``run.sh`` of a student bringing casino's games and tables (:func:`copy_games`)."""
TABLES = ("evaluator-*.bin", "paylines-*.bin")
"""The tables a graded run of draw or video poker reads (the simulation's, built in seconds,
serves ``-s`` alone, which only casino-only transcripts run)."""


def copy_games(
    factory: pytest.TempPathFactory, folder: Path, packages: tuple[str, ...], tables: bool = False
) -> None:
    """Copy casino into ``folder/casino``, compiled: its top-level modules and of its
    packages ``packages`` only (a game's own and those it imports: what a student of that
    game would hand in; the grader copies each file of a submission into each run), and
    with ``tables`` the cards' tables into ``folder/tables`` (each made once a session, under
    the session's temporary folder; the tables from the session's cache, where other tests
    also find them)."""
    compiled = factory.getbasetemp() / "casino-games-compiled"
    if not compiled.exists():
        building = factory.mktemp("casino-games")
        skip = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(ROOT / "casino", building / "casino", ignore=skip)
        compile_all = [PYTHON, "-m", "compileall", "-q", "--invalidation-mode", "checked-hash"]
        subprocess.run([*compile_all, str(building / "casino")], check=True)
        building.rename(compiled)
    top = compiled / "casino"

    def others(where: str, names: list[str]) -> list[str]:
        if Path(where) != top:
            return []
        kept = {*packages, "__pycache__"}
        return [name for name in names if (top / name).is_dir() and name not in kept]

    shutil.copytree(top, folder / "casino", ignore=others)
    if tables:
        shutil.copytree(_tables(factory), folder / "tables")


def _tables(factory: pytest.TempPathFactory) -> Path:
    """A folder holding casino's tables (:data:`TABLES`), made once a session."""
    made = factory.getbasetemp() / "casino-tables"
    if not made.exists():
        evaluator.load_tables()
        handtable.payline_by_hand()
        building = factory.mktemp("casino-tables")
        for pattern in TABLES:
            for table in cache.cache_dir().glob(pattern):
                shutil.copy(table, building / table.name)
        building.rename(made)
    return made
