"""Hand numbering is a bijection onto 0..N_HANDS-1; the table cache survives bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino import cache
from casino.cards.combos import N_HANDS, all_hands, hand_number


def test_all_hands_are_numbered_in_order() -> None:
    numbers = [hand_number(hand) for hand in all_hands()]
    assert numbers == list(range(N_HANDS))


def test_hand_number_ignores_card_order() -> None:
    assert hand_number([51, 0, 7, 3, 20]) == hand_number([0, 3, 7, 20, 51])


def test_cache_builds_once_then_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASINO_CACHE_DIR", str(tmp_path))
    calls: list[int] = []

    def build() -> bytes:
        calls.append(1)
        return b"table"

    assert cache.load_or_build("t", "1", build) == b"table"
    assert cache.load_or_build("t", "1", build) == b"table"
    assert len(calls) == 1


def test_corrupt_or_unwritable_cache_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASINO_CACHE_DIR", str(tmp_path))
    cache.load_or_build("t", "1", lambda: b"good")
    stored = tmp_path / "t-1.bin"
    stored.write_bytes(stored.read_bytes()[:-1] + b"X")
    assert cache.load_or_build("t", "1", lambda: b"rebuilt") == b"rebuilt"
    monkeypatch.setenv("CASINO_CACHE_DIR", str(tmp_path / "file-not-dir"))
    (tmp_path / "file-not-dir").write_text("x")
    assert cache.load_or_build("t", "1", lambda: b"fine") == b"fine"
