"""Atomic writes keep exact bytes and never leave a half-written file or a temp file behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.files import write_atomic


def test_write_atomic_keeps_exact_text_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "players.dat"
    target.write_text("old")
    write_atomic(target, "line one  \r\n\ttab\n")
    assert target.read_bytes() == b"line one  \r\n\ttab\n"
    assert [p.name for p in tmp_path.iterdir()] == ["players.dat"]


def test_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "players.dat"
    target.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "\udcff", encoding="utf-8")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["players.dat"]
