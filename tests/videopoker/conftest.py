"""Helpers for running the video poker program in-process."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from casino.videopoker.cli import main

FIXTURES = Path(__file__).parents[2] / "fixtures" / "videopoker"


class TerminalInput(io.StringIO):
    """Input that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@dataclass(frozen=True)
class Run:
    """What one run of the program did."""

    status: int
    out: str
    err: str


def run(argv: list[str], stdin: str | io.StringIO = "") -> Run:
    """Run ``python -m casino.videopoker ARGV`` in-process."""
    out, err = io.StringIO(), io.StringIO()
    given = stdin if isinstance(stdin, io.StringIO) else io.StringIO(stdin)
    status = main(argv, stdin=given, stdout=out, stderr=err)
    return Run(status, out.getvalue(), err.getvalue())
