"""The names a command line lists before it runs anything agree with what they name."""

from __future__ import annotations

from casino.harness import model, names
from casino.harness.formats import FORMATS
from casino.harness.runners import RUNNER_NAMES
from casino.harness.runners.base import RunnerName


def test_the_runner_names_are_the_runners() -> None:
    assert names.RUNNER_NAMES == tuple(map(str, RunnerName)) == RUNNER_NAMES


def test_the_report_formats_are_the_writers_in_their_order() -> None:
    assert tuple(FORMATS) == names.REPORT_FORMATS


def test_the_match_kinds_are_the_models() -> None:
    assert model.MATCH_KINDS is names.MATCH_KINDS
    assert names.MATCH_KINDS == ("trailing-space", "blank-lines", "case")
