"""Show or muck at a web table (``show_muck``): an uncontested winner may show, a beaten loser
may muck, the default when a member does not choose in time, the log's lines; chips untouched."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from casino.holdem.showmuck import Choice
from casino.web.holdem import WebTable
from casino.web.holdemseats import Member, TableSettings

from .scripted import calls, folds, play, seat, table_of

SETTINGS = TableSettings(seats=3, pause=0, bot_delay=0, samples=10, show_muck=True)
# The button is Ana's seat 0; dealt from seat 1: Bruno aces, Carla kings, Ana seven-deuce.
DECK = "AS KS 2C AH KH 7D 3D 8S 9C JD 4H"


def raises_then(answer: dict[str, Any] | None) -> Any:
    """Ana raises the minimum at her turn, and gives ``answer`` when asked to show or muck."""

    def move(view: dict[str, Any]) -> dict[str, Any] | None:
        if view["choice"] is not None:
            return answer
        legal = view["legal"]
        return {"type": "act", "verb": "raise", "to": legal["min_to"]}

    return move


def checks_then(answer: dict[str, Any]) -> Any:
    """Ana checks or calls at her turns, and gives ``answer`` when asked to show or muck."""

    def move(view: dict[str, Any]) -> dict[str, Any]:
        if view["choice"] is not None:
            return answer
        return {"type": "act", "verb": "check" if view["legal"]["call"] == 0 else "call"}

    return move


def one_hand(
    monkeypatch: pytest.MonkeyPatch,
    bots: Any,
    move: Any,
    deck: str = DECK,
    settings: TableSettings = SETTINGS,
) -> tuple[WebTable, Member, list[dict[str, Any]]]:
    """One hand with Ana at seat 0 playing ``move`` and ``bots`` in every other seat: the
    table, Ana, and the views she was sent when asked to show or muck."""
    with table_of(monkeypatch, settings, deck) as (table, _):
        ana, views = seat(table, 1, "Ana")
        table.bots = [bots] * 3
        play(table, {0: move})
    return table, ana, [view for view in views if view["choice"] is not None]


def test_an_uncontested_winner_who_shows_is_seen_by_all_and_the_log_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, ana, asked = one_hand(monkeypatch, folds, raises_then({"type": "choice", "show": True}))
    assert asked[0]["choice"] == {"muck": True, "deadline": 30.0}
    assert asked[0]["clock"]["seat"] == 0
    assert asked[0]["log"][-1] == "Carla (bot): folds"  # said once everything is decided
    assert table.view(ana)["log"][-1] == (
        "Ana: shows 2♣ 7♦\nAna: gets back 10 (uncalled)\nAna: wins 25 (the pot)"
    )
    assert table.showdown is not None and table.showdown.shown == [0]
    end = table.view(ana)
    assert end["seats"][0]["cards"] == ["2C", "7D"]
    assert end["winners"] == [{"seat": 0, "amount": 25, "pot": 0}]  # no hand named
    assert [s.chips for s in table.table.seats] == [1015, 995, 990]


def test_an_uncontested_winner_who_does_not_choose_in_time_does_not_show(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with table_of(monkeypatch, SETTINGS, DECK) as (table, clock):
        ana, _ = seat(table, 1, "Ana")
        table.bots = [folds] * 3

        def late(view: dict[str, Any]) -> dict[str, Any]:
            if view["choice"] is not None:
                clock.advance(SETTINGS.timeout + 1)  # the show comes too late: not taken
                return {"type": "choice", "show": True}
            return {"type": "act", "verb": "raise", "to": view["legal"]["min_to"]}

        play(table, {0: late})
        assert table.showdown is not None
        assert [r.choice for r in table.showdown.reveals] == [Choice.MUCK]
        assert table.view(ana)["log"][-1] == (
            "Ana: mucks\nAna: gets back 10 (uncalled)\nAna: wins 25 (the pot)"
        )
        assert table.view(ana)["seats"][1]["cards"] == [None, None]


def test_a_loser_beaten_by_a_shown_hand_mucks_and_the_winner_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, ana, asked = one_hand(monkeypatch, calls, checks_then({"type": "choice", "show": False}))
    # checked through: Bruno (after the button) shows first, Carla is beaten and mucks
    # (the computer players' rule), then Ana is asked
    assert asked[0]["choice"] == {"muck": True, "deadline": 30.0}
    cards = [s["cards"] for s in asked[0]["seats"]]
    assert cards == [["2C", "7D"], ["AS", "AH"], [None, None]]
    last = table.view(ana)["log"][-1].split("\n")
    assert last == [
        "Bruno (bot): shows A♠ A♥, Pair of aces",
        "Carla (bot): mucks",
        "Ana: mucks",
        "Bruno (bot): wins 30 (the pot)",
    ]
    assert table.view(ana)["seats"][0]["cards"] == ["2C", "7D"]  # her own, to her only
    assert [s.chips for s in table.table.seats] == [990, 1020, 990]


def test_a_show_that_must_be_a_show_refuses_a_muck_and_a_choice_out_of_turn_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = "2C KS AS 7D KH AH 3D 8S 9C JD 4H"  # now Ana holds the aces and wins
    with table_of(monkeypatch, SETTINGS, deck) as (table, _):
        ana, views = seat(table, 1, "Ana")
        table.bots = [calls] * 3
        play(table, {0: checks_then({"type": "choice", "show": False})})
        assert not [view for view in views if view["choice"] is not None]  # never asked
        assert (
            table.view(ana)["log"][-1].split("\n")[0] == "Bruno (bot): shows 2♣ 7♦, High card: jack"
        )
        refusals = []

        async def send(data: dict[str, Any]) -> None:
            refusals.append(data)

        ana.send = send
        asyncio.run(table.receive(ana, {"type": "choice", "show": False}))
        assert refusals == [{"type": "refused", "reason": "Not your turn."}]


def test_without_the_option_every_hand_at_a_showdown_is_shown_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = TableSettings(seats=3, pause=0, bot_delay=0, samples=10)
    with table_of(monkeypatch, plain, DECK) as (table, _):
        ana, views = seat(table, 1, "Ana")
        table.bots = [calls] * 3
        play(table, {0: checks_then({"type": "choice", "show": False})})
        assert table.showdown is None
        assert all(view["choice"] is None for view in views)
        assert table.view(ana)["log"][-1].split("\n")[:3] == [
            "Bruno (bot): shows A♠ A♥, Pair of aces",
            "Carla (bot): shows K♠ K♥, Pair of kings",
            "Ana: shows 2♣ 7♦, High card: jack",
        ]
