"""A real ``casino web`` killed with SIGKILL while a member's hand is open, restarted on the
same SQLite file: every wallet is what the ledger says, the open hand is void (its stakes
returned), and the books balance."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientSession, CookieJar

from casino.web.databases import sqlite_store

from .forms import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+/)")


@contextmanager
def casino_web(database: Path, *options: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A ``casino web`` process on a free port (killed at the end if still running)."""
    options = options or ("--seats", "3", "--think", "0.01", "--pause", "0.01", "--seed", "5")
    process = subprocess.Popen(
        [sys.executable, "-m", "casino.web", "--port", "0", "--database", str(database), *options],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        found = LISTENING.search(process.stdout.readline())
        assert found is not None, "casino web did not start"
        yield process, found.group(1)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(60)
        if process.stdout is not None:
            process.stdout.close()


async def log_in(session: ClientSession, url: str, action: str, name: str = "Zoe") -> None:
    """Register or log in as ``name`` through the form (its CSRF token)."""
    async with session.get(url + action) as page:
        found = re.search(r'name="csrf" value="([^"]+)"', await page.text())
    assert found is not None
    form = {"name": name, "password": PASSWORD, "lang": "en", "csrf": found.group(1)}
    async with session.post(url + action, data=form, allow_redirects=False) as done:
        assert done.status == 303, await done.text()


async def play_until_a_hand_is_open(url: str) -> None:
    """Zoe plays two hands, and stops at her turn in the third (its stakes held)."""
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:
        await log_in(session, url, "register")
        async with session.ws_connect(url.replace("http", "ws") + "ws/holdem") as ws:
            while True:
                view: dict[str, Any] = json.loads(await ws.receive_str())
                if view["type"] != "state" or view["legal"] is None:
                    continue
                if view["hand"] >= 3:
                    return  # her turn: the hand is open
                verb = "check" if view["legal"]["call"] == 0 else "call"
                await ws.send_json({"type": "act", "verb": verb})


async def lobby_and_page(url: str) -> tuple[str, str]:
    """Zoe logs in again: the lobby's and her page's text."""
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:
        await log_in(session, url, "login")
        async with session.get(url) as lobby, session.get(url + "member") as page:
            return await lobby.text(), await page.text()


def test_kill_9_mid_hand_and_a_restart_give_every_member_what_the_ledger_says(
    tmp_path: Path,
) -> None:
    database = tmp_path / "casino.db"
    with casino_web(database) as (process, url):
        asyncio.run(asyncio.wait_for(play_until_a_hand_is_open(url), 120))
        os.kill(process.pid, signal.SIGKILL)
        assert process.wait(60) == -signal.SIGKILL
    store = sqlite_store(str(database))
    zoe = store.login("Zoe", PASSWORD)
    with store.transaction() as run:
        held = run("SELECT COUNT(*) FROM games WHERE state = 'open'").fetchone()[0]
    assert held >= 1 and store.audit()[0] == store.audit()[1]
    store.close()
    with casino_web(database) as (process, url):
        lobby, page = asyncio.run(asyncio.wait_for(lobby_and_page(url), 120))
        process.send_signal(signal.SIGTERM)
    store = sqlite_store(str(database))
    zoe = store.login("Zoe", PASSWORD)
    with store.transaction() as run:
        ledger = run("SELECT SUM(amount) FROM ledger WHERE account = ?", zoe.id).fetchone()[0]
        still_open = run("SELECT COUNT(*) FROM games WHERE state = 'open'").fetchone()[0]
    history = store.history(zoe.id)
    issued, accounted = store.audit()
    store.close()
    assert still_open == 0 and issued == accounted
    assert zoe.balance == ledger == 1000 + sum(game.net for game in history)
    assert f'<data id="balance" value="{zoe.balance}">' in lobby
    assert f'<data id="balance" value="{zoe.balance}">' in page
    assert [game.state for game in history].count("void") == 1
    assert page.count("void: the server stopped, the stake returned") == 1
    assert len(re.findall(r"<tr><td>", page)) == len(history) >= 3
