"""Members in ``casino web``: their pages (the lobby, the member's page, logging in and out),
tables that wait for people, a member seated during a hand, and every chip in the store."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientWebSocketResponse, DummyCookieJar
from aiohttp.test_utils import TestClient, TestServer

from casino.clock import FakeClock
from casino.web.app import WebServer
from casino.web.holdemseats import TableSettings
from casino.web.sessions import COOKIE
from casino.web.store import LOGIN_FAILURES, Store
from casino.web.words import money

from .forms import PASSWORD, join, post_form, register, temporary_store

SETTINGS = TableSettings(seats=4, stack=500, pause=0, bot_delay=0, samples=10)
Body = Callable[[TestClient[Any, Any], WebServer, Store], Awaitable[None]]


def serve(
    body: Body, settings: TableSettings = SETTINGS, after: Callable[[Store], None] | None = None
) -> None:
    """Run ``body`` against a server on a FakeClock; the store's books must balance after,
    and once the hand the server stopped in is voided, ``after(store)``."""
    with temporary_store() as store:
        server = WebServer(settings, 1, 3, FakeClock(), secret=b"m" * 32, store=store)

        async def run() -> None:
            async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as c:
                await asyncio.wait_for(body(c, server, store), 60)

        asyncio.run(run())
        issued, accounted = store.audit()
        assert issued == accounted == 1000 * len(store.leaderboard(100))
        store.void_open_games()
        if after is not None:
            after(store)


def wallet_is_its_history(store: Store, name: str) -> None:
    """The member's wallet is the house's 1000 plus what each of their games paid."""
    member = store.login(name, PASSWORD)
    games = store.history(member.id)
    assert member.balance == 1000 + sum(game.net for game in games)


async def socket(client: TestClient[Any, Any], cookie: str) -> ClientWebSocketResponse:
    return await client.ws_connect("/ws/holdem", headers={"Cookie": f"{COOKIE}={cookie}"})


async def state(ws: ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        data: dict[str, Any] = json.loads(await ws.receive_str())
        if data["type"] == "state":
            return data


async def play(ws: ClientWebSocketResponse, name: str, hands: int) -> list[dict[str, Any]]:
    """Check or call until ``hands`` hands have been played in the member's seat."""
    views = []
    while True:
        view = await state(ws)
        views.append(view)
        mine = view["seats"][view["you"]]["name"] == name
        if mine and view["hand"] > hands:
            return views
        if view["legal"] is not None:
            verb = "check" if view["legal"]["call"] == 0 else "call"
            await ws.send_json({"type": "act", "verb": verb})


def open_games(store: Store) -> int:
    """How many games hold stakes now."""
    with store.transaction() as run:
        return int(run("SELECT COUNT(*) FROM games WHERE state = 'open'").fetchone()[0])


async def page(client: TestClient[Any, Any], cookie: str, where: str) -> str:
    response = await client.get(where, headers={"Cookie": f"{COOKIE}={cookie}"})
    assert response.status == 200
    text: str = await response.text()
    return text


def test_two_members_sit_within_a_second_the_table_waits_for_both_and_both_play() -> None:
    waiting = TableSettings(seats=4, stack=500, pause=0, bot_delay=0, samples=10, wait=2)

    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        table = server.tables[0]
        ana = await socket(client, await join(client, "Zoe", "es"))
        alone = await state(ana)
        assert alone["hand"] == 0 and alone["can_start"]
        assert alone["notice"] == "Esperando jugadores: 1 de 2 sentados."
        for _ in range(50):  # one member of the two: nothing is dealt
            await asyncio.sleep(0)
        assert table.table.number == 0
        bo = await socket(client, await join(client, "Bo"))
        zoe_views, bo_views = await asyncio.gather(play(ana, "Zoe", 3), play(bo, "Bo", 3))
        for views, name in [(zoe_views, "Zoe"), (bo_views, "Bo")]:
            acted = [v for v in views if v["legal"] is not None]
            assert acted and all(v["seats"][v["you"]]["name"] == name for v in acted)
        first = next(v for v in bo_views if v["hand"] == 1)
        assert sorted(s["name"] for s in first["seats"] if s["human"]) == ["Bo", "Zoe"]
        await ana.close()
        await bo.close()
        zoe = store.login("Zoe", PASSWORD)
        assert len(store.history(zoe.id)) >= 3

    serve(body, waiting, lambda store: wallet_is_its_history(store, "Zoe"))


def test_the_first_member_may_start_a_waiting_table_and_a_late_one_plays_the_next_hand() -> None:
    waiting = TableSettings(seats=3, stack=500, pause=0, bot_delay=0, samples=10, wait=3)

    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        table = server.tables[0]
        zoe = await socket(client, await join(client, "Zoe"))
        assert (await state(zoe))["notice"] == "Waiting for players: 1 of 3 seated."
        await zoe.send_json({"type": "start"})
        view = await state(zoe)
        while view["hand"] == 0 or view["legal"] is None:  # dealt: her turn comes
            view = await state(zoe)
        assert "Zoe starts the table." in view["log"] and not view["can_start"]
        hand = view["hand"]
        late = await socket(client, await join(client, "Bo"))
        seen = await state(late)
        assert seen["hand"] == hand and seen["notice"] == "You are seated for the next hand."
        replaced = seen["seats"][seen["you"]]
        assert replaced["name"] == table.bot_names[seen["you"]]  # its computer player plays on
        assert set(replaced.get("cards", [None])) == {None}  # whose cards Bo never sees
        await zoe.send_json({"type": "act", "verb": "fold"})
        views = await play(late, "Bo", hand)
        seated = views[-1]
        assert seated["notice"] is None and seated["seats"][seated["you"]]["human"]
        while seated["legal"] is None:
            seated = await state(late)
        await late.send_json({"type": "act", "verb": "fold"})
        told = await state(late)
        while told["log"] == seated["log"]:  # a view of the same moment, sent before the fold
            told = await state(late)
        assert told["log"][-1] == "Bo: folds" and "Bo" not in table.bot_names
        await zoe.close()
        await late.close()

    serve(body, waiting)


def test_a_waiting_table_fills_with_computer_players_after_its_time() -> None:
    filling = TableSettings(seats=3, stack=500, pause=0, bot_delay=0, samples=10, wait=3)
    filling.fill_after = 20.0

    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        zoe = await socket(client, await join(client, "Zoe"))
        view = await state(zoe)
        while view["hand"] == 0:  # the fake clock's 20 s pass: the table deals
            view = await state(zoe)
        assert [s["human"] for s in view["seats"]].count(True) == 1
        await zoe.close()

    serve(body, filling)


def test_the_member_page_the_lobby_logging_out_and_in_and_the_login_limit() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        zoe = await join(client, "Zoe", "en")
        ws = await socket(client, zoe)
        await play(ws, "Zoe", 2)
        await ws.close()
        assert isinstance(server.clock, FakeClock)
        server.clock.advance(SETTINGS.seat_timeout + 1)  # her seat is freed: the table waits
        table = server.tables[0]
        for seated in table.everyone:  # her turn, if it is, is out of time (a FakeClock
            seated.inbox.put_nowait(None)  # wakes nobody by itself: the turn is nudged)
        while table.everyone or table.dealing or open_games(store):
            await asyncio.sleep(0.01)
        other = await join(client, "Bo", "es", game="domino")
        mine = await page(client, zoe, "/member")
        member = store.login("Zoe", PASSWORD)
        assert f'<data id="balance" value="{member.balance}">{money(member.balance, "en")}<' in mine
        rows = re.findall(r"<tr><td>.*?</td><td>Texas Hold&#x27;em</td>(.*?)</tr>", mine)
        assert len(rows) == len(store.history(member.id)) >= 2
        for row, game in zip(rows, store.history(member.id), strict=True):
            replay = f' <a href="/hand/{game.game}" class="replay">Replay</a>'
            assert game.recorded and replay in row  # a settled hand links to its replay
            stake, paid, result = re.findall(r"<td[^>]*>([^<]*)</td>", row.replace(replay, ""))
            assert (stake, paid) == (money(game.stake, "en"), money(game.payout, "en"))
            net = money(abs(game.net), "en")
            words = {1: f"won {net}", -1: f"lost {net}", 0: "even"}
            assert result == words[(game.net > 0) - (game.net < 0)]
        leaders = [re.sub("<[^>]+>", "", li) for li in re.findall(r"<li[^>]*>(.+)</li>", mine)]
        assert sorted(leaders) == sorted([f"Zoe: {money(member.balance, 'en')}", "Bo: $1,000"])
        spanish = await page(client, other, "/member")
        assert "Aún no hay partidas." in spanish and "Clasificación" in spanish
        lobby = await page(client, zoe, "/")
        assert '<b id="who">Zoe</b>' in lobby and re.search(
            r'<data id="balance" value="\d+">\$', lobby
        )
        out = await post_form(client, "/logout", {}, zoe)
        assert (out.status, out.headers["Location"]) == (303, "/")
        gone = await client.get("/member", headers={"Cookie": f"{COOKIE}={zoe}"})
        assert gone.url.path == "/login"
        wrong = {"name": "Zoe", "password": "not her password", "lang": "en"}
        for _ in range(LOGIN_FAILURES):
            assert (await post_form(client, "/login", wrong)).status == 401
        locked = await post_form(client, "/login", {**wrong, "password": PASSWORD})
        assert locked.status == 401 and "too many failed logins" in await locked.text()
        assert await register(client, "Bo", action="/login")  # another name is not locked

    serve(body)


def test_logging_in_over_another_members_session_starts_a_new_one() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        zoe = await join(client, "Zoe", game="domino")
        match = await client.ws_connect("/ws/domino", headers={"Cookie": f"{COOKIE}={zoe}"})
        assert json.loads(await match.receive_str())["type"] == "domino"
        await register(client, "Bo")
        form = {"name": "Bo", "password": PASSWORD, "lang": "en"}
        bo = await post_form(client, "/login", form, zoe)  # in Zoe's browser
        cookie = bo.cookies[COOKIE].value
        assert bo.status == 303 and cookie != zoe
        assert server.sessions.profile_of(zoe) is None and server.dominoes == {}
        assert server.sessions.profile_of(cookie).name == "Bo"  # type: ignore[union-attr]
        await match.close()

    serve(body)


def test_a_member_sitting_out_shows_the_chips_they_would_sit_with() -> None:
    """Sat out from the next hand, Bo is dealt nothing and his seat shows what his wallet lets
    him sit with (the table's stack), never the nothing staked for him (issue 44: ``0 chips``
    on a sitting-out seat)."""
    waiting = TableSettings(seats=3, stack=500, pause=0, bot_delay=0, samples=10)

    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        zoe = await socket(client, await join(client, "Zoe"))
        bo = await socket(client, await join(client, "Bo"))
        await bo.send_json({"type": "sitout", "out": True})
        view = await state(bo)
        while not view["sitting_out"]:
            view = await state(bo)
        hand = view["hand"] + 1  # (the hand being dealt as he asked may include him)
        reading = asyncio.ensure_future(play(bo, "Bo", 1_000))  # his page reads on
        views = await play(zoe, "Zoe", hand)
        while views[-1]["hand"] <= hand or views[-1]["legal"] is None:
            views.append(await state(zoe))
        resting = next(s for s in views[-1]["seats"] if s["name"] == "Bo")
        assert "cards" not in resting and resting["chips"] == 500, (views[-1]["hand"], resting)
        reading.cancel()
        await zoe.close()
        await bo.close()

    serve(body, waiting)
