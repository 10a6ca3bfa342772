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
in its sandbox anyway).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from grade_support import ROOT

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


GAMES_RUN = f'exec {PYTHON} -B "$(dirname "$0")/main.py" "$@"\n'
"""``run.sh`` of a student bringing casino's games (:func:`copy_games`)."""


def copy_games(factory: pytest.TempPathFactory, folder: Path) -> None:
    """Copy casino's games into ``folder/casino``, compiled (the copy compiled once a
    session, under the session's temporary folder)."""
    compiled = factory.getbasetemp() / "casino-games-compiled"
    if not compiled.exists():
        building = factory.mktemp("casino-games")
        skip = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(ROOT / "casino", building / "casino", ignore=skip)
        compile_all = [PYTHON, "-m", "compileall", "-q", "--invalidation-mode", "checked-hash"]
        subprocess.run([*compile_all, str(building / "casino")], check=True)
        building.rename(compiled)
    shutil.copytree(compiled / "casino", folder / "casino")
