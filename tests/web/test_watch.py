"""Watching a Hold'em table (``/holdem?table=N&watch=1``): no hole card is ever sent to a
watcher before the showdown, the shown ones are at it; every view counts the watchers; a
watcher takes a free seat the lobby's way, for the next hand; a full table can be watched;
watching moves no money.

Every table here runs on a :class:`FakeClock` (see :mod:`tests.web.test_server`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient

from casino.web.app import WebServer
from casino.web.sessions import COOKIE

from .forms import PASSWORD, join, register, until
from .test_server import _code, serve, socket


async def watching(
    client: TestClient[Any, Any], cookie: str, table: int = 1
) -> ClientWebSocketResponse:
    """A watch page's socket (the lobby's "Watch" link: ``/holdem?table=N&watch=1``)."""
    return await client.ws_connect(
        f"/ws/holdem?table={table}&watch=1", headers={"Cookie": f"{COOKIE}={cookie}"}
    )


def state(data: dict[str, Any]) -> bool:
    return bool(data["type"] == "state")


def counting(n: int) -> Any:
    return lambda data: state(data) and data["watchers"] == n


async def play(ws: ClientWebSocketResponse, stop: asyncio.Event) -> None:
    """A member who checks or calls at each turn, until ``stop``."""
    while not stop.is_set():
        try:
            text = await asyncio.wait_for(ws.receive_str(), 0.05)
        except TimeoutError:
            continue
        data = json.loads(text)
        if state(data) and data["legal"] is not None:
            verb = "check" if data["legal"]["call"] == 0 else "call"
            await ws.send_json({"type": "act", "verb": verb})


def test_a_watcher_is_sent_no_hole_card_before_the_showdown_and_the_shown_ones_at_it() -> None:
    texts: list[str] = []

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe = await socket(client, await join(client, "Zoe"))
        wes = await watching(client, await register(client, "Wes"))
        stop = asyncio.Event()
        player = asyncio.ensure_future(play(zoe, stop))
        showdowns = 0
        while showdowns < 2:  # two hands seen to a showdown (others end with folds)
            text = await wes.receive_str()
            texts.append(text)
            data = json.loads(text)
            if state(data) and any(w.get("hand") for w in data["winners"]):
                showdowns += 1
        stop.set()
        await player
        await wes.send_json({"type": "act", "verb": "allin"})  # a watcher plays nothing
        refused = await until(wes, lambda d: d["type"] == "refused")
        assert refused["reason"] == "You are watching: take a free seat to play."
        await wes.close()
        await zoe.close()

    server = serve(body)
    table = server.tables[0]
    sent = [json.loads(text) for text in texts]
    views = [v for v in sent if v["type"] != "chat"]  # the table's chat: tests/web/test_chat.py
    assert all(v["type"] == "state" for v in views) and len(views) > 10
    shown_seen = 0
    for view in views:
        assert view["you"] is None and view["legal"] is None and view["watching"] is True
        assert not view["can_start"] and view["watchers"] == 1
        if not view["hand"]:
            assert "cards" not in json.dumps(view["seats"])
            continue
        dealt = table.dealt[view["hand"]]
        hole = {_code(card) for cards in dealt.values() for card in cards}
        without_log = json.dumps({k: v for k, v in view.items() if k != "log"})
        showdown = any(w.get("hand") for w in view["winners"])
        if not showdown:  # the raw message (the log may hold an earlier hand's shown cards)
            assert not {code for code in hole if code in without_log}, view
            for seat in view["seats"]:
                assert seat.get("cards") in (None, [None, None], [])
            continue
        for seat in view["seats"]:
            if seat.get("cards") and None not in seat["cards"]:
                assert seat["cards"] == [_code(c) for c in dealt[seat["seat"]]]
                assert not seat["folded"] and len(view["board"]) == 5
                shown_seen += 1
    assert shown_seen >= 4  # two showdowns of at least two seats each
    assert "Wes" not in [seat.name for seat in table.table.seats]


def test_the_watchers_are_counted_for_everybody_up_and_down_also_on_a_dropped_socket() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe = await socket(client, await join(client, "Zoe"))
        await until(zoe, counting(0))
        first = await watching(client, await register(client, "Wes", "es"))
        await until(zoe, counting(1))
        mine = await until(first, counting(1))
        assert mine["notice"] == (
            "Estás mirando la mesa 1: las cartas tapadas no se muestran hasta el final de la mano."
        )
        assert mine["words"]["watchers"] == "{n} mirando"
        ida = await register(client, "Ida")
        second = await watching(client, ida)
        await until(zoe, counting(2))
        await until(first, counting(2))
        lobby = await client.get("/?lang=en", headers={"Cookie": f"{COOKIE}={ida}"})
        assert "<td>1 of 3: Zoe · 2 watching</td>" in await lobby.text()
        await first.close()  # the page left
        await until(zoe, counting(1))
        await until(second, counting(1))
        connection = second._conn  # a dropped connection: no closing handshake
        assert connection is not None and connection.transport is not None
        connection.transport.abort()
        await until(zoe, counting(0))
        assert server.tables[0].watchers == []
        await zoe.close()

    serve(body)


def test_watching_costs_nothing_and_moves_no_money() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        wes_cookie = await register(client, "Wes")
        wes = await watching(client, wes_cookie)
        zoe = await socket(client, await join(client, "Zoe"))
        stop = asyncio.Event()
        player = asyncio.ensure_future(play(zoe, stop))
        await until(wes, lambda d: state(d) and d["hand"] >= 3)
        stop.set()
        await player
        store = server.store
        account = store.login("Wes", PASSWORD)
        assert account.balance == 1000 and store.held(account.id) == 0
        assert store.history(account.id) == []
        with store.transaction() as run:
            rows = run("SELECT kind FROM ledger WHERE account = ?", account.id).fetchall()
        assert [row[0] for row in rows] == ["issue"]  # only the registration's bankroll
        await wes.close()
        await zoe.close()

    serve(body)


def test_a_watcher_takes_a_free_seat_the_lobbys_way_and_plays_from_the_next_hand() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe = await socket(client, await join(client, "Zoe"))
        cookie = await register(client, "Wes")
        lobby = await client.get("/?lang=en", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert 'href="/holdem?table=1&amp;watch=1" id="watch-1"' in await lobby.text()
        page = await client.get("/holdem?table=1&watch=1", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert page.status == 200 and "holdem.js" in await page.text()
        wes = await watching(client, cookie)
        seen = await until(wes, lambda d: state(d) and d["actor"] is not None)
        assert seen["free"] is True
        dealing = seen["hand"]
        seated = await socket(client, cookie)  # the page's "Take a seat": /holdem?table=1
        await wes.close()
        view = await until(seated, state)
        assert view["you"] is not None and not view["watching"]
        assert view["notice"] == "You are seated for the next hand."
        assert view["seats"][view["you"]].get("cards") in (None, [None, None])
        await until(zoe, counting(0))
        stop = asyncio.Event()
        player = asyncio.ensure_future(play(zoe, stop))
        mine = await until(
            seated,
            lambda d: (
                state(d)
                and d["hand"] > dealing
                and None not in d["seats"][d["you"]].get("cards", [None])
            ),
        )
        assert mine["seats"][mine["you"]]["name"] == "Wes"
        table = server.tables[0]
        assert [m.name for m in table.members.values()].count("Wes") == 1
        stop.set()
        await player
        await seated.close()
        await zoe.close()

    serve(body)


def test_a_full_table_can_be_watched_but_not_sat_at() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        seated = [await socket(client, await join(client, name)) for name in ("Zoe", "Bo", "Cy")]
        for ws in seated:
            await until(ws, state)
        cookie = await register(client, "Wes")
        page = await client.get("/?lang=en", headers={"Cookie": f"{COOKIE}={cookie}"})
        lobby = await page.text()
        assert 'id="table-1" class="quiet" disabled' in lobby and 'id="watch-1"' in lobby
        wes = await watching(client, cookie)
        view = await until(wes, counting(1))
        assert view["free"] is False and view["watching"]
        assert server.tables[0].free_seat() is None and len(server.tables[0].everyone) == 3
        refused = await socket(client, cookie)
        error = await until(refused, lambda d: d["type"] == "error")
        assert error["reason"] == "no free seat"
        nowhere = await watching(client, cookie, table=9)
        assert (await until(nowhere, lambda d: True))["reason"] == "no such table"
        table = server.tables[0]
        table.settings = dataclasses.replace(table.settings, watchers=1)
        crowd = await watching(client, cookie)  # one more than the table lets watch
        assert (await until(crowd, lambda d: True))["reason"] == (
            "too many are watching this table: try again later"
        )
        visitor = await client.ws_connect("/ws/holdem?table=1&watch=1")  # no session
        assert (await until(visitor, lambda d: True))["reason"] == (
            "no hay sesión: entra desde el vestíbulo"
        )
        assert len(table.watchers) == 1
        away = await client.get("/holdem?table=1&watch=1", allow_redirects=False)
        assert (away.status, away.headers["Location"]) == (303, "/")  # members only
        for ws in [*seated, wes, refused, nowhere, crowd, visitor]:
            await ws.close()

    serve(body)
