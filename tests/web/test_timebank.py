"""The time bank at a web Hold'em table: spent only once the action clock has run out, shown to
every member while it is spent, refilled 1 s per hand dealt in up to 30, never a computer
player's (a FakeClock: nobody waits)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from casino.web.holdemseats import TableSettings

from .scripted import calls, play, seat, table_of

SETTINGS = TableSettings(seats=3, pause=0, bot_delay=0, samples=10, time_bank=30.0)
DECK = "AS KS 2C AH KH 7D 3D 8S 9C JD 4H"


def passive(view: dict[str, Any]) -> dict[str, Any]:
    """Check when free, else call."""
    return {"type": "act", "verb": "check" if view["legal"]["call"] == 0 else "call"}


def late_first(late: float, seen: list[dict[str, Any]], others: Any) -> Any:
    """Raise at the first turn ``late`` seconds after the clock started (the views of every
    member just before kept in ``seen``), then play passively."""

    def move(view: dict[str, Any]) -> dict[str, Any]:
        if seen:
            return passive(view)
        seen.append(view)
        others.clock.advance(late)
        seen.extend(others.views())
        return {"type": "act", "verb": "raise", "to": view["legal"]["min_to"]}

    return move


class Room:
    """A table of Ana (seat 0, the button), Bo (seat 1) and a computer player (seat 2)."""

    def __init__(self, table: Any, clock: Any) -> None:
        self.table, self.clock = table, clock
        self.ana, self.ana_views = seat(table, 1, "Ana")
        self.bo, self.bo_views = seat(table, 2, "Bo")
        table.bots = [calls] * 3

    def views(self) -> list[dict[str, Any]]:
        """Ana's and Bo's views now."""
        return [self.table.view(self.ana), self.table.view(self.bo)]


def late_hands(
    monkeypatch: pytest.MonkeyPatch, settings: TableSettings, late: float, hands: int = 1
) -> tuple[Room, list[dict[str, Any]], list[float]]:
    """``hands`` hands where Ana's first move comes ``late`` seconds into her clock: the room,
    the views around that move (:func:`late_first`) and Ana's bank after each hand."""
    with table_of(monkeypatch, settings, DECK) as (table, clock):
        room = Room(table, clock)
        seen: list[dict[str, Any]] = []
        banks: list[float] = []
        table.on_hand = lambda *_: banks.append(room.ana.bank)
        play(table, {0: late_first(late, seen, room), 1: passive}, hands=hands)
    return room, seen, banks


def test_the_bank_is_spent_only_after_the_clock_shown_to_all_and_refilled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    room, seen, banks = late_hands(monkeypatch, SETTINGS, SETTINGS.timeout + 10)
    first, ana_late, bo_late = seen
    assert first["clock"] == {
        "seat": 0,
        "seconds": 30.0,
        "total": 30.0,
        "bank": 30.0,
        "banking": False,
    }
    spending = {"seat": 0, "seconds": 0.0, "total": 30.0, "bank": 20.0, "banking": True}
    assert ana_late["clock"] == bo_late["clock"] == spending  # every member sees it
    assert room.table.log[2].values[0].kind.value == "raise"  # taken: the bank had time left
    assert banks == [21.0]  # 10 s spent, 1 s back for the hand
    assert room.bo.bank == 30.0  # acted in time: nothing spent, never over 30
    bot_turns = [v for v in room.bo_views if v["actor"] == 2]
    assert bot_turns and all(v["clock"] is None for v in bot_turns)  # no bot clock or bank


def test_a_move_after_the_bank_runs_out_is_not_taken_and_the_bank_is_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    room, seen, banks = late_hands(monkeypatch, SETTINGS, SETTINGS.timeout + 31, hands=2)
    assert seen[1]["clock"]["bank"] == 0.0
    assert "Ana: folds" in room.table.view(room.ana)["log"]  # the default: a call was due
    assert banks == [1.0, 2.0]  # all 30 s spent, then 1 s back after each hand


def test_without_a_bank_the_clock_alone_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = TableSettings(seats=3, pause=0, bot_delay=0, samples=10)
    room, seen, banks = late_hands(monkeypatch, plain, plain.timeout + 1)
    assert seen[0]["clock"]["bank"] == 0.0 and not seen[1]["clock"]["banking"]
    assert room.table.view(room.ana)["log"][2] == "Ana: folds"
    assert banks == [0.0]
