"""A sit-and-go served by :class:`casino.web.app.WebServer` (``--sit-and-go 1``): listed in
the lobby with its buy-in, two members playing over their sockets with two computer players
to the end, the prize in their wallets; a wallet smaller than the buy-in is refused."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient

from casino.web.app import WebServer
from casino.web.holdemseats import TableSettings
from casino.web.sessions import COOKIE
from casino.web.sitgo import SitGoTable
from casino.web.store import Store

from .forms import register
from .test_members import serve

SETTINGS = TableSettings(seats=4, pause=2, bot_delay=0.5, samples=10, wait=2, sitgos=1, buy_in=100)
"""Seconds between hands and for a bot to think, on the FakeClock: the sockets' message
budgets refill as it moves."""


async def sitgo_socket(client: TestClient[Any, Any], cookie: str) -> ClientWebSocketResponse:
    """The sit-and-go's socket (table 2: after the one Hold'em table)."""
    return await client.ws_connect("/ws/holdem?table=2", headers={"Cookie": f"{COOKIE}={cookie}"})


async def play(ws: ClientWebSocketResponse, verb: str) -> dict[str, Any]:
    """Play ``verb`` (``allin``, or ``call``: check or call) at every turn until the views say
    the tournament is over; its last view."""
    while True:
        data: dict[str, Any] = json.loads(await ws.receive_str())
        if data["type"] != "state":
            continue
        if data["tournament"]["results"]:
            return data
        if data["legal"] is not None and data["actor"] == data["you"]:
            move = verb
            if verb == "call":
                move = "check" if data["legal"]["call"] == 0 else "call"
            await ws.send_json({"type": "act", "verb": move})


def test_two_members_and_two_bots_play_a_served_sit_and_go_to_its_end_and_are_paid() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        watcher = await register(client, "Ana")

        async def lobby() -> str:
            page = await client.get("/?lang=en", headers={"Cookie": f"{COOKIE}={watcher}"})
            return await page.text()

        row = re.compile(r'<tr data-table="2">.*?</tr>', re.S)
        waiting = row.findall(await lobby())
        assert len(waiting) == 1 and "Sit-and-go: buy-in $100" in waiting[0]
        assert "10/20" in waiting[0] and "disabled" not in waiting[0]
        ana = await sitgo_socket(client, await register(client, "Ana2"))
        bruno = await sitgo_socket(client, await register(client, "Bruno"))
        playing = asyncio.gather(play(ana, "allin"), play(bruno, "call"))
        sitgo = server.tables[1]
        assert isinstance(sitgo, SitGoTable)
        while not sitgo.started:
            await asyncio.sleep(0)
        during = row.findall(await lobby())[0]  # nobody sits down in the middle of one
        assert 'id="table-2" class="quiet" disabled' in during and "Ana2, Bruno" in during
        ends = await playing
        assert row.findall(await lobby())[0] == waiting[0]  # waiting for the next one
        results = ends[0]["tournament"]["results"]
        assert results == ends[1]["tournament"]["results"]
        assert sorted(place for _, place, _ in results) == [1, 2, 3, 4]
        assert [prize for _, _, prize in results] == [260, 140, 0, 0]
        prize = {name: paid for name, _, paid in results}
        for name in ("Ana2", "Bruno"):
            (member,) = [m for m in store.leaderboard(20) if m.name == name]
            assert member.balance == 1000 - 100 + prize[name]
        assert store.holdings() == {}
        await ana.close()
        await bruno.close()

    serve(body, SETTINGS)


def test_a_member_whose_wallet_is_smaller_than_the_buy_in_is_told_so() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer, store: Store) -> None:
        cookie = await register(client, "Carla")
        (carla,) = [m for m in store.leaderboard(20) if m.name == "Carla"]
        store.open_game("holdem", "table 1", {carla.id: 950})  # $50 left
        ws = await sitgo_socket(client, cookie)
        data = json.loads(await ws.receive_str())
        assert data == {"type": "error", "reason": "your wallet is smaller than the buy-in"}
        assert not server.tables[1].everyone
        await ws.close()

    serve(body, SETTINGS)
