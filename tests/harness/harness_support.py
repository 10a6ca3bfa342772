"""Helpers for the harness's own tests: the CLI called in-process, tiny shell programs."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from casino.harness import cli

ROOT = Path(__file__).resolve().parents[2]
"""The project checkout."""


@dataclass(frozen=True)
class CliResult:
    """What one ``casino replay``/``record`` call did."""

    status: int
    out: str
    err: str


def run_cli(*argv: str | Path, stdin: str = "") -> CliResult:
    """Call the harness CLI in-process: ``run_cli("replay", path)``."""
    out, err = io.StringIO(), io.StringIO()
    words = [str(arg) for arg in argv]
    status = cli.main(words, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return CliResult(status, out.getvalue(), err.getvalue())


def sh_program(directory: Path, name: str, body: str) -> str:
    """Write a POSIX shell script into ``directory``; the ``--program`` command running it."""
    script = directory / f"{name}.sh"
    script.write_text(body, encoding="utf-8")
    return f"sh {script}"


def write_transcript(path: Path, text: str) -> Path:
    """Write a transcript byte for byte (creating its directory) and return its path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path
