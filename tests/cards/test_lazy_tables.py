"""Importing casino.cards costs nothing: the evaluator's tables load on first use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from casino.cards import evaluator as ev


def _python(code: str, cache: Path) -> str:
    """Run ``code`` in a fresh interpreter with ``cache`` as its cache directory; its stdout."""
    env = {**os.environ, "CASINO_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


def _empty_tables(patch: pytest.MonkeyPatch) -> None:
    """The evaluator's tables as they are before its first use."""
    patch.setattr(ev, "_RANK_VALUES", {})
    patch.setattr(ev, "_FLUSH_VALUES", [])
    patch.setattr(ev, "_FIVE_VALUES", {})
    for name in ("_LOW7", "_HIGH7", "_VALUES7"):
        patch.setattr(ev, name, [])


def test_importing_the_cards_creates_nothing_in_the_cache(tmp_path: Path) -> None:
    imports = (
        "from casino.cards.card import Card; import casino.cards; "
        "from casino.cards import evaluator as ev; "
        "print(Card.parse('10S'), len(ev._FIVE_VALUES), len(ev._RANK_VALUES))"
    )
    assert _python(imports, tmp_path) == "TS 0 0\n"
    assert list(tmp_path.iterdir()) == []
    first_use = "from casino.cards.evaluator import evaluate5; print(evaluate5([0, 4, 8, 12, 51]))"
    assert _python(first_use, tmp_path) == f"{ev.evaluate5([0, 4, 8, 12, 51])}\n"
    assert [path.name for path in tmp_path.iterdir()] == [f"evaluator-{ev._VERSION}.bin"]


def test_the_first_evaluation_of_each_kind_loads_the_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each entry point finds empty tables on its first call and fills them."""
    royal = [48, 44, 40, 36, 32]  # A K Q J T of clubs
    expected = ev.evaluate5(royal)
    no_flush = [0, 5, 10, 15, 21, 25, 29]
    for call, cards in [
        (ev.evaluate5, royal),
        (ev.evaluate7, [*royal, 0, 1]),  # a flush: the flush table
        (ev.evaluate7, no_flush),  # no flush: the rank table and the 7-card lists
        (ev.evaluate, [0, 5, 10, 15, 21, 25]),
        (ev.evaluate, royal),
    ]:
        with monkeypatch.context() as patch:
            _empty_tables(patch)
            value = call(cards)
            assert ev._FIVE_VALUES and ev._RANK_VALUES and ev._FLUSH_VALUES
            if call is ev.evaluate7 and cards is no_flush:
                assert len(ev._VALUES7) == 49_205
        assert value == call(cards)
    assert ev.evaluate7([*royal, 0, 1]) == expected


def test_repeated_cards_are_still_an_error_once_the_tables_are_loaded() -> None:
    ev.load_tables()
    with pytest.raises(KeyError):
        ev.evaluate5([0, 0, 0, 0, 0])
    with pytest.raises(KeyError):  # five deuces: their base-5 digit carries
        ev.evaluate7([0, 1, 2, 3, 0, 5, 9])
    with pytest.raises(KeyError):  # five aces
        ev.evaluate7([48, 49, 50, 51, 48, 5, 9])


def test_five_cards_load_only_what_five_cards_need(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand of five loads the rank codes of five cards alone (a draw program never needs
    more); a hand of six or seven then loads the rest, and every value is the same."""
    seven = [0, 5, 10, 15, 21, 25, 29]
    expected = [ev.evaluate(seven[:5]), ev.evaluate(seven[:6]), ev.evaluate7(seven)]
    with monkeypatch.context() as patch:
        _empty_tables(patch)
        assert ev.evaluate(seven[:5]) == expected[0]
        assert len(ev._RANK_VALUES) == ev._FIVE_RANK_CODES
        assert not ev._VALUES7
        assert ev.evaluate(seven[:6]) == expected[1]
        assert len(ev._RANK_VALUES) == 6175 + 18395 + 49205
        assert (len(ev._LOW7), len(ev._HIGH7), len(ev._VALUES7)) == (5**7, 5**6, 49_205)
        assert ev.evaluate7(seven) == expected[2]
