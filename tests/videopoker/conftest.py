"""Helpers for running the video poker program in-process."""

from __future__ import annotations

import io
from pathlib import Path

from casino.programs import Completed as Run
from casino.programs import run_captured
from casino.videopoker.cli import main

FIXTURES = Path(__file__).parents[2] / "fixtures" / "videopoker"


class TerminalInput(io.StringIO):
    """Input that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(argv: list[str], stdin: str | io.StringIO = "") -> Run:
    """Run ``python -m casino.videopoker ARGV`` in-process."""
    return run_captured(main, argv, stdin)
