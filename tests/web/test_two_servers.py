"""Two ``casino web`` servers on one database (SQLite and a real PostgreSQL): a member
registered on one logs in on the other to one wallet, plays at a table of each at once, and
no chip is lost or doubled; each server voids only its own unfinished games."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import DummyCookieJar
from aiohttp.test_utils import TestClient, TestServer

from casino.clock import FakeClock
from casino.web.app import WebServer
from casino.web.databases import open_store
from casino.web.holdemseats import TableSettings
from casino.web.store import Store

from .forms import PASSWORD, register
from .test_members import play, socket
from .test_store import make, new_database, where  # noqa: F401  # the fixtures

SETTINGS = TableSettings(seats=3, stack=100, pause=0, bot_delay=0, samples=10)
"""Both tables staked at once from one wallet of 1000; at most ten stakes of 100 (hands 1 to 5
at each) before she leaves, so however the bots play, her wallet is never empty: an empty
wallet sits her out, the table deals no hand 5 and she would wait for it."""


@pytest.fixture
def two_stores(where: str) -> Iterator[tuple[Store, Store]]:  # noqa: F811
    """Two stores on one database, as two processes would have."""
    first, second = open_store(where), open_store(where)
    yield first, second
    first.close()
    second.close()


def test_one_member_on_two_servers_has_one_wallet_and_no_chip_is_lost(
    two_stores: tuple[Store, Store],
) -> None:
    stores = two_stores
    servers = [
        WebServer(SETTINGS, 1, seed, FakeClock(), b"s" * 32, store=store, instance=name)
        for seed, store, name in zip((1, 2), stores, ("a", "b"), strict=True)
    ]

    async def body(clients: list[TestClient[Any, Any]]) -> None:
        here = await register(clients[0], "Zoe")  # registered on a, logged in on b
        there = await register(clients[1], "zoe", action="/login")
        sockets = [await socket(clients[0], here), await socket(clients[1], there)]
        await asyncio.gather(*(play(ws, "Zoe", 4) for ws in sockets))
        for ws in sockets:
            await ws.close()

    async def run() -> None:
        async with (
            TestClient(TestServer(servers[0].app()), cookie_jar=DummyCookieJar()) as a,
            TestClient(TestServer(servers[1].app()), cookie_jar=DummyCookieJar()) as b,
        ):
            await asyncio.wait_for(body([a, b]), 60)

    asyncio.run(run())
    first, second = stores
    zoe = first.login("Zoe", PASSWORD)
    tables = {game.table for game in first.history(zoe.id)}
    assert {"a/table 1", "b/table 1"} <= tables  # she played on both servers
    assert first.audit()[0] == first.audit()[1] == 1000
    second.void_open_games("b/")  # b restarts: a's open hand (if any) is still held
    assert second.audit()[0] == second.audit()[1] == 1000
    first.void_open_games("a/")
    zoe = second.login("Zoe", PASSWORD)
    assert zoe.balance == 1000 + sum(game.net for game in second.history(zoe.id))
    with first.transaction() as run_sql:
        assert run_sql("SELECT COUNT(*) FROM games WHERE state = 'open'").fetchone()[0] == 0
