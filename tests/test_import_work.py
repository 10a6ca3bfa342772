"""Starting a command imports only what starting needs (issue 45, step 1).

Each entry point is imported in a fresh ``python -X importtime``; the test fails with the list
of modules it imported that only running something needs: PyYAML (a transcript read or
written), pexpect (a terminal run), ctypes and the sandbox (a sandboxed run), a process pool,
asyncio; and each harness command's module, with what only its run needs.
A list, not a timing: what a command costs at start is what it imports.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module
from importlib.util import find_spec

import pytest

from casino.__main__ import HARNESS_MODULES
from casino.programs import MAINS, PROGRAMS, load_main

NOT_AT_START = (
    "yaml",
    "pexpect",
    "ptyprocess",
    "ctypes",
    "secrets",
    "multiprocessing",
    "concurrent.futures.process",
    "casino.harness.runners.sandbox",
    "casino.harness.runners.runfolder",
    "casino.harness.runners.cgroup",
    "casino.harness.runners.seccomp",
    "casino.harness.runners.netns",
    "casino.harness.runners.terminal",
    "casino.harness.runners.live",
)
"""Modules no command imports before it runs something."""

NETWORKED: set[str] = set()
"""Programs whose start may import asyncio (none: ``stud`` imports it in the subcommand that
deals or plays, ``web`` once it serves)."""


def main_module(program: str) -> str:
    """The module whose ``main`` runs ``program`` (a package's ``__main__``, as
    :func:`casino.programs.load_main` finds it), found without importing it."""
    module = MAINS.get(program, PROGRAMS[program])
    spec = find_spec(module)
    assert spec is not None
    return f"{module}.__main__" if spec.submodule_search_locations is not None else module


MAIN_MODULES = {main_module(name): name for name in PROGRAMS}
ENTRY_POINTS = ["casino.__main__", *MAIN_MODULES]

PROGRAM_RUN_ONLY = {
    "holdem": ("casino.holdem.shell", "casino.holdem.engine", "casino.holdem.bots"),
    "web": ("casino.web.app", "casino.web.passwords", "casino.net.stream", "aiohttp"),
    "stud": (
        "casino.net.stream",
        "casino.stud.dealer",
        "casino.stud.player",
        "casino.stud.screen",
        "casino.stud.tournament",
    ),
}
"""A program → what only playing it needs: its ``--help`` imports none of it."""


def imported_by(module: str) -> set[str]:
    """Every module a fresh Python imports to import ``module`` (from ``-X importtime``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    return {line.rsplit("|", 1)[1].strip() for line in lines[1:]}


def forbidden(module: str, program: str) -> list[str]:
    """What ``module`` imports that it should not at start."""
    names = imported_by(module)
    extra = () if program in NETWORKED else ("asyncio",)
    return sorted(name for name in (*NOT_AT_START, *extra) if name in names)


@pytest.mark.parametrize("module", ENTRY_POINTS)
def test_an_entry_point_imports_nothing_only_a_run_needs(module: str) -> None:
    """``casino``'s dispatcher and each program's ``main`` module."""
    program = MAIN_MODULES.get(module, "")
    names = imported_by(module)
    playing = [name for name in PROGRAM_RUN_ONLY.get(program, ()) if name in names]
    assert [*forbidden(module, program), *playing] == []


def test_the_main_modules_are_those_load_main_finds() -> None:
    assert {name: import_module(module).main for module, name in MAIN_MODULES.items()} == {
        name: load_main(name) for name in PROGRAMS
    }


RUN_ONLY = {
    "casino.harness.cli": (
        "casino.harness.load",
        "casino.harness.model",
        "casino.harness.session",
        "casino.harness.report",
        "casino.harness.formats",
        "casino.harness.runners.base",
        "casino.harness.runners.inproc",
        "casino.harness.record",
    ),
    "casino.grade.cli": (
        "casino.grade.course",
        "casino.grade.intake",
        "casino.grade.engines",
        "casino.grade.books",
        "casino.grade.term",
        "casino.explore.grammars",
        "casino.harness.session",
        "casino.harness.runners.base",
    ),
    "casino.explore.cli": (
        "casino.explore.grammars",
        "casino.explore.engine",
        "casino.explore.coverage",
        "casino.explore.recordings",
        "casino.harness.model",
        "casino.harness.session",
        "casino.harness.runners.base",
    ),
}
"""Each harness command's module → what only its run needs: ``--help``, a usage error and a
replay that finds no transcripts import none of it (issue 45: start-up under 120 ms beyond a
bare Python; ``benchmarks/bench_startup.py`` measures it)."""


@pytest.mark.parametrize("module", sorted(set(HARNESS_MODULES.values())))
def test_a_harness_command_imports_nothing_only_its_run_needs(module: str) -> None:
    """``casino replay``/``record``/``grade``/``explore``: PyYAML, pexpect, ctypes and the
    sandbox, and the modules that load, run, judge and report, wait for a run."""
    names = imported_by(module)
    assert [*forbidden(module, ""), *(name for name in RUN_ONLY[module] if name in names)] == []


def test_every_harness_command_has_its_list() -> None:
    assert sorted(RUN_ONLY) == sorted(set(HARNESS_MODULES.values()))


def test_a_run_needs_what_the_list_names() -> None:
    """The lists can fail: a module that runs transcripts imports what they name."""
    names = imported_by("casino.harness.session")
    assert [name for name in RUN_ONLY["casino.harness.cli"] if name in names] == [
        "casino.harness.load",
        "casino.harness.model",
        "casino.harness.session",
        "casino.harness.runners.base",
    ]


def test_the_list_is_read_from_importtime() -> None:
    """The check can fail: the sandbox's own imports are seen, ctypes among them."""
    assert forbidden("casino.harness.runners.sandbox", "")[:2] == [
        "casino.harness.runners.cgroup",
        "casino.harness.runners.netns",
    ]
