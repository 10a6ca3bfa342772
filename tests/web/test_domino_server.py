"""The dominoes page's WebSocket without a browser, on a :class:`FakeClock`: a whole hand,
a time-out made by moving the fake clock, refused moves logged."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientWebSocketResponse, DummyCookieJar
from aiohttp.test_utils import TestClient, TestServer

from casino.clock import FakeClock
from casino.domino.rules import COMPUTER, MEMBER, End, Finish, HandState
from casino.domino.tiles import parse_tile as T
from casino.web.app import WebServer
from casino.web.bank import Bank
from casino.web.domino import DominoGame
from casino.web.holdemseats import TableSettings
from casino.web.sessions import COOKIE

from .forms import PASSWORD, join, post_form, temporary_store


async def receive(ws: ClientWebSocketResponse) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(await ws.receive_str())
    return data


async def refused(ws: ClientWebSocketResponse) -> str:
    """The reason of the next refusal the page is told."""
    while True:
        data = await receive(ws)
        if data["type"] == "refused":
            reason: str = data["reason"]
            return reason


async def until_mine(ws: ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        view = await receive(ws)
        if view["type"] == "domino" and (view.get("turn") == "you" or view["over"]):
            return view


def move_of(view: dict[str, Any]) -> dict[str, Any]:
    if view["moves"]:
        return {"type": "play", "tile": view["moves"][0]["tile"], "end": view["moves"][0]["end"]}
    return {"type": "draw" if view["can_draw"] else "pass"}


def test_a_hand_a_time_out_and_refused_moves(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()

    async def body(client: TestClient[Any, Any]) -> dict[str, Any]:
        cookie = await join(client, "Zoe", game="domino")
        ws = await client.ws_connect("/ws/domino", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert (await receive(ws))["over"]
        await ws.send_json({"type": "play", "tile": [6, 6], "end": "left"})
        assert await refused(ws) == "Not your turn, or not a move."  # no hand yet
        await ws.send_json({"type": "next"})
        view = await until_mine(ws)
        while view["over"]:  # (a view of before the hand)
            view = await until_mine(ws)
        assert view["seconds"] == 15.0 and len(view["hand"]) >= 7
        await ws.send_json({"type": "play", "tile": [9, 9], "end": "left"})
        assert await refused(ws) == "Not a legal move."
        clock.advance(16)  # the member is late: their next message comes after the deadline
        await ws.send_json(move_of(view))
        timed_out = False
        while True:
            view = await until_mine(ws)
            timed_out = timed_out or any("automatic move" in line for line in view["log"])
            if view["over"]:
                break
            await ws.send_json(move_of(view))
        await ws.close()
        assert timed_out
        return view

    async def run() -> dict[str, Any]:
        async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as client:
            return await asyncio.wait_for(body(client), 20)

    with temporary_store(starting_bankroll=100) as store:
        server = WebServer(TableSettings(bot_delay=0.5), 1, 5, clock, b"s" * 32, store=store)
        with caplog.at_level(logging.WARNING, "casino.web"):
            end = asyncio.run(run())
        member = store.login("Zoe", PASSWORD)
        (game,) = store.history(member.id)
        assert store.audit()[0] == store.audit()[1]
    assert "Time is up (1 of 3 in a row): an automatic move." in end["log"]
    assert end["log"][-1] == "Bankrolls: you ${}, the computer ${}.".format(*end["bankrolls"])
    assert sum(end["bankrolls"]) == 200
    assert (game.kind, game.stake, game.state) == ("domino", 10, "settled")
    won = {-10: "The computer wins the hand and $10.", 0: "A drawn hand: no money moves."}
    assert won.get(game.net, "You win the hand and $10.") in end["log"]
    assert member.balance == end["bankrolls"][0] == 100 + game.net
    assert caplog.text.count("dominoes: refused from 'Zoe'") == 2
    assert "refused from 'Zoe': Not a legal move.: " in caplog.text
    # The end of the hand for the page's overlay: who won, why, in words.
    result = end["result"]
    titles = {
        "you": "You win the hand",
        "computer": "The computer wins the hand",
        None: "A drawn hand",
    }
    assert result["title"] == titles[result["winner"]]
    whys = {
        ("domino", "you"): "You played your last tile.",
        ("domino", "computer"): "The computer played its last tile.",
        ("timeouts", "computer"): "Three time-outs in a row.",
    }
    why = whys.get((result["finish"], result["winner"]))
    if why is None:  # blocked: the pips
        assert result["finish"] == "blocked"
        assert result["why"].startswith("The game is blocked: the fewer pips win (you ")
    else:
        assert result["why"] == why


def test_a_time_out_with_nothing_playable_draws_and_places_the_tile_it_drew() -> None:
    with temporary_store() as store:  # (the bank is not asked: no hand is staked here)
        game = DominoGame("Ana", "en", 1, Bank(store), FakeClock(), seed=0)
    state = HandState(([T("6-6"), T("1-2")], [T("0-6"), T("3-3")]), [T("4-4"), T("1-6")], MEMBER)
    state.play(MEMBER, T("6-6"), End.LEFT)
    state.play(COMPUTER, T("0-6"), End.LEFT)  # ends 0 and 6: nothing of the member's fits
    game.timed_out(state)
    assert game.log == [
        "Time is up (1 of 3 in a row): an automatic move.",
        "You draw [4|4] [1|6].",
        "You play [6|1] on the right.",
    ]
    assert state.turn == COMPUTER and state.timeouts[MEMBER] == 1


def test_a_member_who_cannot_stake_is_told_why_and_plays_once_refilled() -> None:
    async def body(store: Any) -> list[tuple[str | None, bool]]:
        zoe = store.register("Zoe", PASSWORD)
        game = DominoGame("Zoe", "en", zoe.id, Bank(store), FakeClock(), seed=0, think=0)
        views: list[dict[str, Any]] = []

        async def send(data: dict[str, Any]) -> None:
            views.append(data)

        game.send = send
        table = store.open_game("holdem", "table 1", {zoe.id: zoe.balance, store.house: 0})
        task = asyncio.create_task(game.run())
        seen = []
        while len(views) < 1:
            await asyncio.sleep(0)
        seen.append((views[-1]["notice"], views[-1]["over"]))  # all at a Hold'em table
        store.settle(table, {store.house: zoe.balance})  # lost there: an empty wallet
        game.inbox.put_nowait({"type": "next"})
        while len(views) < 2:
            await asyncio.sleep(0)
        seen.append((views[-1]["notice"], views[-1]["over"]))
        store.refill(zoe.id)
        game.inbox.put_nowait({"type": "next"})
        while "hand" not in views[-1]:  # a hand is dealt
            await asyncio.sleep(0)
        seen.append((views[-1]["notice"], views[-1]["over"]))
        task.cancel()
        return seen

    with temporary_store() as store:
        seen = asyncio.run(asyncio.wait_for(body(store), 20))
        opened = store.audit()
    assert seen == [
        (
            "Your chips are at a Hold'em table: they are back in your wallet when its hand ends.",
            True,
        ),
        ("Your wallet is empty: the house refills it from the lobby (once a day).", True),
        (None, False),
    ]
    assert opened[0] == opened[1]


def test_a_member_who_logs_out_mid_hand_loses_it_by_time_outs_and_the_books_balance() -> None:
    """Issue 39: a log-out at the member's turn no longer drops the hand (for the next start
    to void, returning the stake): it is played out with each of the member's turns timed
    out, lost at the third, settled; a restart voids nothing; the ledger says the wallet."""
    clock = FakeClock()

    async def body(client: TestClient[Any, Any]) -> DominoGame:
        cookie = await join(client, "Zoe", game="domino")
        ws = await client.ws_connect("/ws/domino", headers={"Cookie": f"{COOKIE}={cookie}"})
        await receive(ws)
        await ws.send_json({"type": "next"})
        view = await until_mine(ws)
        while view["over"]:  # (a view of before the hand)
            view = await until_mine(ws)
        ((game, task),) = server.dominoes.values()
        assert game.state is not None and game.state.result is None
        out = await post_form(client, "/logout", {}, cookie)
        assert out.status == 303
        await asyncio.wait_for(task, 20)  # played out without anybody moving the clock
        await ws.close()
        return game

    async def run(app: WebServer) -> DominoGame:
        async with TestClient(TestServer(app.app()), cookie_jar=DummyCookieJar()) as client:
            return await asyncio.wait_for(body(client), 60)

    async def restart() -> None:
        again = WebServer(TableSettings(bot_delay=0.5), 1, 5, FakeClock(), b"s" * 32, store=store)
        async with TestClient(TestServer(again.app()), cookie_jar=DummyCookieJar()):
            pass

    with temporary_store(starting_bankroll=100) as store:
        server = WebServer(TableSettings(bot_delay=0.5), 1, 5, clock, b"s" * 32, store=store)
        game = asyncio.run(run(server))
        asyncio.run(restart())
        zoe = store.login("Zoe", PASSWORD)
        history = store.history(zoe.id)
        with store.transaction() as sql:
            ledger = sql("SELECT SUM(amount) FROM ledger WHERE account = ?", zoe.id).fetchone()[0]
            still_open = sql("SELECT COUNT(*) FROM games WHERE state = 'open'").fetchone()[0]
        issued, accounted = store.audit()
    assert game.state is not None and game.state.result is not None
    assert (game.state.result.finish, game.state.result.winner) == (Finish.TIMEOUTS, COMPUTER)
    assert "Time is up for the third time in a row: you lose the hand." in game.log
    assert [(entry.kind, entry.state, entry.net) for entry in history] == [
        ("domino", "settled", -10)
    ]
    assert still_open == 0 and issued == accounted
    assert zoe.balance == ledger == 90
    assert clock.now() == 0.0  # nobody waited out the member's clock
