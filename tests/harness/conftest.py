"""Shared helpers for the harness's own tests: the CLI in-process, and tiny shell programs."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from casino.harness import cli

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class CliResult:
    """What one ``casino replay``/``record`` call did."""

    status: int
    out: str
    err: str


CliRunner = Callable[..., CliResult]


@pytest.fixture
def casino_cli() -> CliRunner:
    """Call the harness CLI in-process: ``casino_cli("replay", path, stdin="...")``."""

    def run(*argv: str | Path, stdin: str = "") -> CliResult:
        out, err = io.StringIO(), io.StringIO()
        status = cli.main(
            [str(arg) for arg in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err
        )
        return CliResult(status, out.getvalue(), err.getvalue())

    return run


ShellProgram = Callable[[str], str]


@pytest.fixture
def sh_program(tmp_path: Path) -> ShellProgram:
    """Write a POSIX shell script and return the ``--program`` command that runs it."""
    count = 0

    def write(body: str) -> str:
        nonlocal count
        count += 1
        script = tmp_path / f"program{count}.sh"
        script.write_text(body, encoding="utf-8")
        return f"sh {script}"

    return write
