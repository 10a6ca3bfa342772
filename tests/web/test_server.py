"""The web server without a browser: pages, the session cookie, the table's WebSocket.

Every game here runs on a :class:`FakeClock` (computer players and pauses take no real time).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientWebSocketResponse, DummyCookieJar, WSServerHandshakeError
from aiohttp.test_utils import TestClient, TestServer

from casino.cards.card import Card
from casino.clock import FakeClock
from casino.web.app import WebServer
from casino.web.holdemseats import LEAVE_GRACE, TableSettings
from casino.web.sessions import COOKIE
from casino.web.store import Store

from .forms import PASSWORD, join, post_form, post_join, temporary_store, until

SETTINGS = TableSettings(seats=3, stack=500, pause=0, bot_delay=0, samples=10)

Body = Callable[[TestClient[Any, Any], WebServer], Awaitable[None]]


def serve(body: Body, tables: int = 1, seed: int = 3) -> WebServer:
    with temporary_store() as store:
        server = WebServer(SETTINGS, tables, seed, FakeClock(), secret=b"k" * 32, store=store)

        async def run() -> None:
            async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as c:
                await asyncio.wait_for(body(c, server), 20)

        asyncio.run(run())
        issued, accounted = store.audit()
        assert issued == accounted
    return server


async def socket(client: TestClient[Any, Any], cookie: str) -> ClientWebSocketResponse:
    return await client.ws_connect("/ws/holdem", headers={"Cookie": f"{COOKIE}={cookie}"})


def _code(index: int) -> str:
    card = Card.from_index(index)
    return f"{card.rank.value}{card.suit.value}"


def my_turn(data: dict[str, Any]) -> bool:
    return data["type"] == "state" and data["legal"] is not None


def issued(store: Store, account: int) -> list[int]:
    """What the house has issued to the account, in order (the ledger's ``issue`` rows)."""
    with store.transaction() as run:
        rows = run(
            "SELECT amount FROM ledger WHERE account = ? AND kind = 'issue' ORDER BY id", account
        ).fetchall()
    return [int(row[0]) for row in rows]


def test_the_lobby_and_the_pages_and_their_headers() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        lobby = await client.get("/")
        text = await lobby.text()
        assert lobby.status == 200 and 'href="/login"' in text and 'href="/register"' in text
        assert 'action="/join"' not in text and "Iniciar sesión" in text  # es by default
        assert lobby.headers["Content-Security-Policy"].startswith("default-src 'self'")
        for where in ["/holdem", "/domino"]:
            away = await client.get(where, allow_redirects=False)
            assert (away.status, away.headers["Location"]) == (303, "/")
        nobody = await post_join(client, None)
        assert (nobody.status, nobody.headers["Location"]) == (303, "/login")
        for form, why in [
            ({"name": "", "password": "long enough", "lang": "es"}, "hace falta un nombre"),
            ({"name": "Zoe", "password": "short", "lang": "en"}, "a password has 8 to 256"),
            (
                {"name": "bruno (bot)", "password": "long enough", "lang": "en"},
                "is a computer player&#x27;s",
            ),
            ({"name": "Zo\x1be", "password": "long enough", "lang": "en"}, "printable"),
        ]:
            refused = await post_form(client, "/register", form)
            assert refused.status == 400 and why in await refused.text()
        assert (await client.get("/static/holdem.js")).status == 200
        assert (await client.get("/static/..%2Fapp.py")).status == 404
        cookie = await join(client, "Zoe")
        page = await client.get("/holdem", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert page.status == 200 and "holdem.js" in await page.text()
        lobby = await client.get("/?lang=en", headers={"Cookie": f"{COOKIE}={cookie}"})
        text = await lobby.text()
        assert (
            '<b id="who">Zoe</b>' in text
            and '<data id="balance" value="1000">$1,000</data>' in text
        )
        assert 'action="/join"' in text and 'action="/logout"' in text

    serve(body)


def test_a_forged_cookie_gets_no_seat_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        cookie = await join(client, "Zoe")
        token = cookie.split(".")[0]
        ws = await socket(client, f"{token}.{'0' * 64}")
        assert json.loads(await ws.receive_str())["type"] == "error"
        assert server.tables[0].members == {}
        with pytest.raises(WSServerHandshakeError) as refused:
            await client.ws_connect(
                "/ws/holdem",
                headers={"Cookie": f"{COOKIE}={cookie}", "Origin": "http://evil.example"},
            )
        assert refused.value.status == 403 and server.tables[0].members == {}

    with caplog.at_level(logging.WARNING, "casino.web"):
        serve(body)
    assert "socket without a valid session" in caplog.text
    assert "socket from another site refused: 'http://evil.example'" in caplog.text


def test_out_of_turn_and_forged_plays_are_refused_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        ws = await socket(client, await join(client, "Zoe"))
        table = server.tables[0]
        turn = await until(ws, my_turn)
        await ws.send_str("garbage{")
        assert (await until(ws, lambda d: d["type"] == "refused"))["reason"] == "not a play"
        for bad in [
            {"type": "act", "verb": "steal"},
            {"type": "act", "verb": "raise", "to": -5},
            {"type": "act", "verb": "raise", "to": 1},
            {"type": "act", "verb": "bet", "to": True},
        ]:
            await ws.send_json(bad)
            refused = await until(ws, lambda d: d["type"] == "refused")
            assert refused["reason"]
        assert turn["hand"] == table.table.number and table.waiting == turn["you"]
        await ws.send_json({"type": "act", "verb": "allin"})
        await until(ws, lambda d: d["type"] == "state" and d["legal"] is None)
        await ws.send_json({"type": "act", "verb": "call"})
        assert (await until(ws, lambda d: d["type"] == "refused"))["reason"] == "Not your turn."

    with caplog.at_level(logging.WARNING, "casino.web"):
        server = serve(body)
    assert server.tables[0].refused >= 6
    assert "refused from 'Zoe': Not your turn." in caplog.text


def test_two_members_play_hands_see_only_their_cards_and_chips_are_conserved() -> None:
    seen: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    played: set[str] = set()

    async def member(client: TestClient[Any, Any], name: str, lang: str, hands: int) -> None:
        ws = await socket(client, await join(client, name, lang))
        while True:
            data = json.loads(await ws.receive_str())
            if data["type"] != "state":
                continue
            seen[data["you"]].append(data)
            if data["hand"] > hands and data["seats"][data["you"]]["name"] == name:
                played.add(name)  # played (a member seated during a hand plays the next)
            if len(played) == 2:  # both: (one gone first would be waited for at its turns)
                await ws.close()
                return
            if data["legal"] is not None:
                verb = "check" if data["legal"]["call"] == 0 else "call"
                await ws.send_json({"type": "act", "verb": verb})

    changes: list[int] = []

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        server.tables[0].on_hand = lambda table, before, after: changes.append(after - before)
        await asyncio.gather(member(client, "<b>Ana</b>", "es", 3), member(client, "Bo", "en", 3))

    server = serve(body)  # and the store's books balance
    table = server.tables[0]
    assert table.hands_done >= 3 and changes == [0] * table.hands_done
    assert sorted(seat.name for seat in table.table.seats[:2]) == ["<b>Ana</b>", "Bo"]
    for you, views in seen.items():
        other = 1 - you
        for view in views:
            dealt = table.dealt[view["hand"]] if view["hand"] else {}
            seat = view["seats"][other]
            if "cards" in seat and None not in seat["cards"]:  # only at a showdown
                assert len(view["board"]) == 5 and not seat["folded"]
            elif view["hand"]:
                theirs = {_code(card) for card in dealt.get(other, [])}  # (none: sat out)
                assert not theirs & set(json.dumps(view["seats"]).split('"'))
            mine = view["seats"][you].get("cards")
            assert mine is None or len(mine) == len(dealt.get(you, []))
    ana = next(k for k, seat in enumerate(table.table.seats) if seat.name == "<b>Ana</b>")
    assert any(line.startswith("--- Mano") for line in seen[ana][-1]["log"])  # es
    assert any(line.startswith("--- Hand") for line in seen[1 - ana][-1]["log"])  # en


def test_a_closed_page_at_its_turn_comes_back_to_its_seat_cards_and_turn() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        cookie = await join(client, "Zoe")
        ws = await socket(client, cookie)
        turn = await until(ws, my_turn)
        table = server.tables[0]
        dealt = table.table.hand
        assert dealt is not None
        acted = len(dealt.actions)
        await ws.close()  # a reload, a lost connection: nothing folds
        for _ in range(50):
            await asyncio.sleep(0)
        assert len(dealt.actions) == acted and table.waiting == turn["you"]
        again = await socket(client, cookie)
        view = await until(again, my_turn)
        mine = view["seats"][view["you"]]
        assert view["you"] == turn["you"] and mine["name"] == "Zoe"
        assert (view["hand"], mine["cards"]) == (turn["hand"], turn["seats"][turn["you"]]["cards"])
        assert view["legal"] == turn["legal"] and view["clock"]["seat"] == turn["you"]
        assert len(table.members) == 1
        await again.close()

    serve(body)


def test_a_member_who_leaves_is_folded_and_has_their_whole_wallet_by_the_hands_end() -> None:
    clock = FakeClock()

    async def body(client: TestClient[Any, Any]) -> None:
        cookie = await join(client, "Zoe")
        ws = await socket(client, cookie)
        turn = await until(ws, my_turn)
        table = server.tables[0]
        dealt = table.table.hand
        assert dealt is not None
        acted = len(dealt.actions)
        await ws.send_json({"type": "leave"})  # the lobby link, the tab closed
        await ws.close()
        for _ in range(50):
            await asyncio.sleep(0)
        assert len(dealt.actions) == acted  # waited for: a reload says it leaves too
        clock.advance(LEAVE_GRACE)
        table.members[turn["you"]].inbox.put_nowait(None)  # (a FakeClock wakes nobody itself)
        while table.members:
            await asyncio.sleep(0)
        assert dealt.over and dealt.actions[acted].kind.value == "fold"
        assert dealt.actions[acted].seat == turn["you"]
        zoe = store.login("Zoe", PASSWORD)
        assert store.held(zoe.id) == 0
        assert zoe.balance == 1000 + sum(g.net for g in store.history(zoe.id))

    async def run() -> None:
        async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as client:
            await asyncio.wait_for(body(client), 20)

    with temporary_store() as store:
        server = WebServer(SETTINGS, 1, 3, clock, secret=b"k" * 32, store=store)
        asyncio.run(run())
        assert store.audit()[0] == store.audit()[1]


def test_a_member_out_of_time_is_checked_or_folded() -> None:
    clock = FakeClock()

    async def body(client: TestClient[Any, Any]) -> None:
        ws = await socket(client, await join(client, "Zoe"))
        turn = await until(ws, my_turn)
        table = server.tables[0].table
        hand = table.hand
        assert hand is not None
        acted = len(hand.actions)
        clock.advance(SETTINGS.timeout + 1)  # late: the move that comes now is not taken
        await ws.send_json({"type": "act", "verb": "allin"})
        await until(ws, lambda d: d["type"] == "state" and d["legal"] is None)
        late = hand.actions[acted]
        assert late.seat == turn["you"] and late.kind.value in ("check", "fold")
        assert late.kind.value == ("check" if turn["legal"]["call"] == 0 else "fold")
        await ws.close()

    async def run() -> None:
        async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as client:
            await asyncio.wait_for(body(client), 20)

    with temporary_store() as store:
        server = WebServer(SETTINGS, 1, 3, clock, secret=b"k" * 32, store=store)
        asyncio.run(run())


def test_a_busted_member_is_shown_no_chips_told_so_and_dealt_in_once_refilled() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        cookie = await join(client, "Zoe")
        store = server.store
        zoe = store.login("Zoe", PASSWORD)
        lost = store.open_game("elsewhere", "t", {zoe.id: zoe.balance, store.house: 0})
        store.settle(lost, {store.house: zoe.balance})
        ws = await socket(client, cookie)
        view = await until(ws, lambda d: d["type"] == "state")
        assert view["seats"][view["you"]]["chips"] == 0  # not the computer player's 500
        view = await until(ws, lambda d: d["type"] == "state" and d["notice"] is not None)
        assert view["notice"] == "Your wallet is empty: you sit out."
        lobby = await client.get("/", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert 'id="broke"' in await lobby.text() and 'id="refill"' in await lobby.text()
        refilled = await post_form(client, "/refill", {}, session=cookie)
        assert refilled.status == 303
        # the table may deal her in (500 of it to the table) before this reads her wallet
        assert issued(store, zoe.id) == [1000, 1000]  # her registration's, then the refill's
        again = await post_form(client, "/refill", {}, session=cookie)
        said = "your wallet was already refilled today: it is not empty"  # (issue 44)
        assert again.status == 400 and said in await again.text()
        await until(ws, my_turn)  # dealt in again
        await ws.close()

    serve(body)


def test_a_reload_after_a_restart_lands_in_the_lobby_saying_the_session_ended() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        stale = {"Cookie": f"{COOKIE}=unknown.token"}  # a session of the last run
        table = await client.get("/holdem", headers=stale, allow_redirects=False)
        assert (table.status, table.headers["Location"]) == (303, "/")
        lobby = await (await client.get("/", headers=stale)).text()
        assert 'id="ended"' in lobby and "vuelve a entrar. Tus fichas están a salvo." in lobby
        fresh = await (await client.get("/")).text()
        assert 'id="ended"' not in fresh  # a first visit is not told anything ended

    serve(body)
