"""A real ``casino web --sit-and-go 1`` killed with SIGKILL in the middle of a tournament of
two members and two computer players, restarted on the same SQLite file: the tournament is
void, every buy-in back in its wallet (the bots' in the house's), and the books balance before
and after."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientSession, CookieJar

from casino.web.databases import sqlite_store
from casino.web.store import Store

from .forms import PASSWORD
from .test_restart import casino_web, log_in

OPTIONS: tuple[str, ...] = ("--tables", "1", "--sit-and-go", "1", "--seats", "4", "--wait")
OPTIONS += ("2", "--think", "0.01", "--pause", "0.01", "--seed", "5")


async def play_until(url: str, name: str, hand: int) -> dict[str, Any]:
    """``name`` registers, sits at the sit-and-go (table 2) and checks or calls until hand
    ``hand`` of the tournament; the view then."""
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:
        await log_in(session, url, "register", name)
        async with session.ws_connect(url.replace("http", "ws") + "ws/holdem?table=2") as ws:
            while True:
                view: dict[str, Any] = json.loads(await ws.receive_str())
                if view["type"] != "state":
                    continue
                if view["tournament"]["started"] and view["hand"] >= hand:
                    return view
                if view["legal"] is not None and view["actor"] == view["you"]:
                    verb = "check" if view["legal"]["call"] == 0 else "call"
                    await ws.send_json({"type": "act", "verb": verb})


async def lobby(url: str) -> str:
    """The lobby as Ana sees it after logging in again."""
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:
        await log_in(session, url, "login", "Ana")
        async with session.get(url + "?lang=en") as page:
            return await page.text()


def books(store: Store) -> tuple[dict[str, int], int, list[tuple[str, str]]]:
    """Each member's wallet, the house's balance, and every game's kind and state."""
    with store.transaction() as run:
        wallets = dict(run("SELECT name, balance FROM accounts WHERE kind = 'member'").fetchall())
        house = run("SELECT balance FROM accounts WHERE kind = 'house'").fetchone()[0]
        games = run("SELECT kind, state FROM games ORDER BY id").fetchall()
    return wallets, int(house), [(str(k), str(s)) for k, s in games]


def test_kill_9_mid_tournament_and_a_restart_refund_every_buy_in(tmp_path: Path) -> None:
    database = tmp_path / "casino.db"
    with casino_web(database, *OPTIONS) as (process, url):

        async def both() -> list[dict[str, Any]]:
            return list(
                await asyncio.gather(play_until(url, "Ana", 3), play_until(url, "Bruno", 3))
            )

        views = asyncio.run(asyncio.wait_for(both(), 120))
        assert all(view["tournament"]["buy_in"] == 100 for view in views)
        os.kill(process.pid, signal.SIGKILL)
        assert process.wait(60) == -signal.SIGKILL
    store = sqlite_store(str(database))
    wallets, house, games = books(store)
    assert wallets == {"Ana": 900, "Bruno": 900} and house == -200  # the buy-ins held
    assert games == [("sitgo", "open")]  # no hand of a tournament is a game of the store
    assert store.audit() == (2000, 2000)
    store.close()
    with casino_web(database, *OPTIONS) as (process, url):
        page = asyncio.run(asyncio.wait_for(lobby(url), 120))
        process.send_signal(signal.SIGTERM)
    assert "Sit-and-go: buy-in $100" in page
    store = sqlite_store(str(database))
    wallets, house, games = books(store)
    assert wallets == {"Ana": 1000, "Bruno": 1000} and house == 0
    assert games == [("sitgo", "void")]
    assert store.audit() == (2000, 2000)
    ana = store.login("Ana", PASSWORD)
    (entry,) = store.history(ana.id)
    assert (entry.kind, entry.state, entry.stake, entry.payout) == ("sitgo", "void", 100, 100)
    store.close()
