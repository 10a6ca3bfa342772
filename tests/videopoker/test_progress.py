"""The progress line: on a terminal only, rewritten in place, erased at the end; and the slow
steps (the strategy table's build, the analysis) report as they go."""

from __future__ import annotations

import io

import pytest

from casino.cards import suitclasses
from casino.videopoker import analyzer, simtable
from casino.videopoker.paytable import DOUBLE_BONUS_10_7
from casino.videopoker.progress import ERASE, StatusLine

from .conftest import TerminalInput


def test_nothing_is_written_when_the_stream_is_not_a_terminal() -> None:
    stream = io.StringIO()
    with StatusLine(stream) as status:
        status.meter("working")(1, 2)
        status.show("text")
        assert not status.active
    assert stream.getvalue() == ""


def test_the_line_is_rewritten_when_it_changes_and_erased_at_the_end() -> None:
    stream = TerminalInput()
    with StatusLine(stream) as status:
        meter = status.meter("building", "classes")
        for done in (0, 1, 1, 3):
            meter(done, 4)
    assert stream.getvalue() == (
        f"{ERASE}building: 0% (0 of 4 classes)"
        f"{ERASE}building: 25% (1 of 4 classes)"
        f"{ERASE}building: 75% (3 of 4 classes)"
        f"{ERASE}"
    )


def test_the_line_is_erased_when_the_work_fails() -> None:
    stream = TerminalInput()
    with pytest.raises(KeyboardInterrupt), StatusLine(stream) as status:
        status.meter("analyzing")(1, 3)
        raise KeyboardInterrupt
    assert stream.getvalue() == f"{ERASE}analyzing: 33%{ERASE}"


def test_a_closed_stream_is_no_terminal() -> None:
    stream = io.StringIO()
    stream.close()
    assert not StatusLine(stream).active


def test_the_strategy_table_build_reports_from_0_to_every_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The build reports as it works out the strategy's hold per class (its costly part; the
    holds are cached for the seed's exact analysis too), here on a slice of the classes (the
    real build takes seconds): reports start at once and end at the full count, in steps."""
    some = suitclasses.suit_classes(5)[:5000]
    monkeypatch.setattr(simtable, "suit_classes", lambda size: some)
    heard: list[tuple[int, int]] = []
    simtable._holds(lambda done, total: heard.append((done, total)))
    total = suitclasses.CLASS_COUNTS[5]
    assert heard == [(0, total), (2048, total), (4096, total), (total, total)]


def test_the_analysis_reports_each_part_and_gives_the_same_counts(
    optimal_double_bonus: analyzer.Analysis,
) -> None:
    """Watched, the analysis is the one the session made unwatched (its figure, the published
    one, is checked in test_analyzer)."""
    heard: list[tuple[int, int]] = []
    parts = analyzer.PARTS_PER_JOB * 2
    watched = analyzer.analyze(
        DOUBLE_BONUS_10_7, 5, jobs=2, progress=lambda done, total: heard.append((done, total))
    )
    assert heard == [(done, parts) for done in range(parts + 1)]
    assert watched == optimal_double_bonus
