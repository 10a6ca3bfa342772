"""The room's words that were wrong (issue 44): every page names its table (``Table 2``,
``Mesa 2``); "Sit here" at another table while a seat holds the member says why; a second
refill says the wallet was just refilled; a member who cannot play is not offered "Start now";
and no computer player is named like a member of its table."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientWebSocketResponse, DummyCookieJar
from aiohttp.test_utils import TestClient, TestServer

from casino.clock import FakeClock
from casino.web.app import WebServer
from casino.web.holdemseats import BOT_POOL, TableSettings
from casino.web.sessions import COOKIE
from casino.web.store import Store

from .forms import PASSWORD, join, post_form, register, temporary_store, until

SETTINGS = TableSettings(seats=4, stack=500, pause=0, bot_delay=0, samples=10)
WAITING = TableSettings(seats=4, stack=500, pause=0, bot_delay=0, samples=10, wait=2)
ROW = r'<th scope="row"><span class="nowrap">([^<]*)</span></th>'
"""A lobby row's heading: the table's name."""
Body = Callable[[TestClient[Any, Any], WebServer, Store], Awaitable[None]]


def serve(body: Body, settings: TableSettings = SETTINGS, tables: int = 2) -> None:
    """Run ``body`` against a server of ``tables`` tables on a FakeClock (a member's turn
    waits for them: no clock runs out); the books balance after."""
    with temporary_store() as store:
        server = WebServer(settings, tables, 3, FakeClock(), secret=b"w" * 32, store=store)

        async def run() -> None:
            async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as c:
                await asyncio.wait_for(body(c, server, store), 60)

        asyncio.run(run())
        issued, accounted = store.audit()
        assert issued == accounted


async def socket(
    client: TestClient[Any, Any], cookie: str, table: int | None = None
) -> ClientWebSocketResponse:
    where = "/ws/holdem" if table is None else f"/ws/holdem?table={table}"
    return await client.ws_connect(where, headers={"Cookie": f"{COOKIE}={cookie}"})


def is_state(data: dict[str, Any]) -> bool:
    return bool(data["type"] == "state")


async def lobby(client: TestClient[Any, Any], cookie: str) -> str:
    response = await client.get("/", headers={"Cookie": f"{COOKIE}={cookie}"})
    assert response.status == 200
    text: str = await response.text()
    return text


def bust(store: Store, name: str) -> None:
    """The member loses their whole wallet in a game elsewhere (the books stay balanced)."""
    member = store.login(name, PASSWORD)
    lost = store.open_game("elsewhere", "t", {member.id: member.balance, store.house: 0})
    store.settle(lost, {store.house: member.balance})


def test_the_lobby_rows_and_the_table_page_name_the_table_in_each_language() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        zoe = await register(client, "Zoe", "es")
        bo = await register(client, "Bo", "en")
        assert re.findall(ROW, await lobby(client, zoe)) == ["Mesa 1", "Mesa 2"]
        assert re.findall(ROW, await lobby(client, bo)) == ["Table 1", "Table 2"]
        es = await until(await socket(client, zoe, 2), is_state)
        en = await until(await socket(client, bo, 1), is_state)
        assert (es["heading"], es["table_name"]) == ("Texas Hold'em · Mesa 2", "Mesa 2")
        assert (en["heading"], en["table_name"]) == ("Texas Hold'em · Table 1", "Table 1")
        assert (es["table"], en["table"]) == (2, 1)

    serve(body)


def test_sit_here_at_another_table_while_a_hand_holds_the_seat_says_why() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        cookie = await register(client, "Zoe", "en")
        first = await socket(client, cookie, 1)
        await until(first, lambda d: is_state(d) and d["legal"] is not None)  # her turn
        other = await socket(client, cookie, 2)  # another tab: table 2's "Sit here"
        told = await until(other, lambda d: d["type"] == "error")
        assert told["reason"] == (
            "You have a seat at table 1: leave it (its Lobby link) to sit at table 2."
        )
        await first.send_json({"type": "leave"})  # the lobby link, in the hand
        await first.close()
        table = server.tables[0]
        while table.everyone[0].send is not None:  # (the server sees the page closed)
            await asyncio.sleep(0)
        assert table.dealing and table.everyone[0].leaving
        again = await socket(client, cookie, 2)
        told = await until(again, lambda d: d["type"] == "error")
        assert told["reason"] == (
            "Your seat at table 1 is held until its hand ends: then you can sit at table 2."
        )
        assert server.tables[1].everyone == []  # not seated at table 2 meanwhile
        assert table.everyone[0].leaving  # and still leaving table 1: freed at its hand's end
        await again.close()

    serve(body)


def test_the_held_seat_is_told_in_spanish() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        cookie = await register(client, "Zoe", "es")
        first = await socket(client, cookie, 2)
        await until(first, lambda d: is_state(d) and d["legal"] is not None)
        told = await until(await socket(client, cookie, 1), lambda d: d["type"] == "error")
        assert told["reason"] == (
            "Tienes un asiento en la mesa 2: déjalo (su enlace Vestíbulo) para sentarte en la "
            "mesa 1."
        )
        await first.close()

    serve(body)


def test_a_second_tab_s_refill_says_the_wallet_was_just_refilled() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        cookie = await register(client, "Zoe", "en")
        spanish = await register(client, "Ana", "es")
        for name in ("Zoe", "Ana"):
            bust(store, name)
        for session in (cookie, spanish):  # two tabs of the lobby, each offering the refill
            assert 'id="refill"' in await lobby(client, session)
        first = await post_form(client, "/refill", {}, session=cookie)
        assert first.status == 303
        second = await post_form(client, "/refill", {}, session=cookie)
        problem = re.search(r'<p id="problem" role="alert">([^<]*)</p>', await second.text())
        assert second.status == 400 and problem is not None
        assert problem.group(1) == "your wallet was already refilled today: it is not empty"
        assert 'id="refill"' not in await lobby(client, cookie)  # the lobby reads the store
        assert (await post_form(client, "/refill", {}, session=spanish)).status == 303
        again = await post_form(client, "/refill", {}, session=spanish)  # Ana's: Spanish
        problem = re.search(r'<p id="problem" role="alert">([^<]*)</p>', await again.text())
        assert problem is not None
        assert problem.group(1) == "tu cartera ya se rellenó hoy: no está vacía"

    serve(body)


def test_a_member_who_cannot_play_is_not_offered_start_now() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        cookie = await register(client, "Zoe", "en")
        bust(store, "Zoe")
        ws = await socket(client, cookie)
        view = await until(ws, is_state)
        assert not view["can_start"] and view["notice"] == "Your wallet is empty: you sit out."
        await ws.send_json({"type": "start"})  # pressed anyway (a forged message): nothing
        for _ in range(50):
            await asyncio.sleep(0)
        assert not server.tables[0].go.is_set() and server.tables[0].table.number == 0
        bo = await socket(client, await register(client, "Bo", "en"), 2)
        view = await until(bo, is_state)
        assert view["can_start"]  # chips in the wallet: may start
        await bo.send_json({"type": "sitout", "out": True})
        view = await until(bo, lambda d: is_state(d) and d["sitting_out"])
        assert not view["can_start"]  # sitting out: nobody would play
        await ws.close()
        await bo.close()

    serve(body, WAITING)


def test_no_computer_player_is_named_like_a_member_at_its_table() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        table = server.tables[0]
        assert table.bot_names == list(BOT_POOL[:4])  # Ana, Bruno, Carla, Diego (bot)
        diego = await socket(client, await join(client, "Diego", "en"))
        view = await until(diego, is_state)
        names = [s["name"] for s in view["seats"]]
        assert names == ["Diego", "Bruno (bot)", "Carla (bot)", "Elena (bot)"]
        ana = await socket(client, await join(client, "ana", "en"))  # (another case)
        view = await until(ana, is_state)
        names = [s["name"] for s in view["seats"]]
        assert names == ["Diego", "ana", "Carla (bot)", "Elena (bot)"]
        # (seat 0's computer player, who plays it when Diego leaves, is not Ana either)
        assert table.bot_names == ["Fabio (bot)", "Bruno (bot)", "Carla (bot)", "Elena (bot)"]
        await diego.close()
        await ana.close()

    serve(body, TableSettings(seats=4, stack=500, samples=10, wait=3), tables=1)  # no hand


def test_a_member_seated_during_a_hand_renames_the_computer_player_before_the_next() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        table = server.tables[0]
        diego = await socket(client, await join(client, "Diego", "en"))
        await until(diego, lambda d: is_state(d) and d["legal"] is not None)  # his turn waits
        ana = await socket(client, await join(client, "ana", "en"))
        view = await until(ana, is_state)
        assert view["notice"] == "You are seated for the next hand."
        assert [s["name"] for s in view["seats"]][1] == "Bruno (bot)"  # plays her seat now
        await diego.send_json({"type": "act", "verb": "fold"})  # the hand ends, the next deals
        view = await until(ana, lambda d: is_state(d) and d["seats"][d["you"]]["name"] == "ana")
        assert [s["name"] for s in view["seats"]] == ["Diego", "ana", "Carla (bot)", "Elena (bot)"]
        assert table.bot_names == ["Fabio (bot)", "Bruno (bot)", "Carla (bot)", "Elena (bot)"]
        await diego.close()
        await ana.close()

    serve(body, tables=1)
