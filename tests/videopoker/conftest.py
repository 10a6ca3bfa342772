"""Helpers for running the video poker program in-process."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from casino.programs import Completed as Run
from casino.programs import run_captured
from casino.videopoker.analyzer import Analysis, analyze
from casino.videopoker.cli import main
from casino.videopoker.paytable import DOUBLE_BONUS_10_7

FIXTURES = Path(__file__).parents[2] / "fixtures" / "videopoker"


class TerminalInput(io.StringIO):
    """Input that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(argv: list[str], stdin: str | io.StringIO = "") -> Run:
    """Run ``python -m casino.videopoker ARGV`` in-process."""
    return run_captured(main, argv, stdin)


@pytest.fixture(scope="session")
def optimal_double_bonus() -> Analysis:
    """Optimal play of every deal of Double Bonus 10/7 at 5 credits, on two jobs: analyzed once
    (1 to 2 s of CPU) for the tests that check its figure and the ones that compare with it."""
    return analyze(DOUBLE_BONUS_10_7, jobs=2)
