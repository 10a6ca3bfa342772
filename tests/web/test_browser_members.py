"""Two members in two headless Chromiums: they register, sit at one Hold'em table (it waits
for both), play hands; the server is killed with SIGKILL and started again on its database;
they log in again and find the bankrolls and the history the ledger says.

A real ``casino web`` process, real time (short pauses); every wait is bounded."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from casino.web.databases import sqlite_store

from .browser import click_when, register, shown
from .tables import POLL
from .test_browser_holdem import play, snapshot
from .test_restart import casino_web

LIMIT = 150.0
OPTIONS = ("--seats", "3", "--wait", "2", "--think", "0.05", "--pause", "0.3", "--seed", "8")
MEMBERS = {"Zoe": "es", "Bo": "en"}


def test_two_members_play_the_server_is_killed_and_they_find_their_money(
    tmp_path: Path, browsers: Callable[[], Any]
) -> None:
    database = tmp_path / "casino.db"
    drivers = {name: browsers() for name in MEMBERS}
    with casino_web(database, *OPTIONS) as (process, url):
        for name, driver in drivers.items():
            register(driver, url, name, MEMBERS[name])
            click_when(driver, "#sit")
        views = play_hands(drivers, 3)
        os.kill(process.pid, signal.SIGKILL)
        assert process.wait(60) == -signal.SIGKILL
    for view in views.values():
        assert sorted(s["name"] for s in view["seats"] if s["name"] in MEMBERS) == ["Bo", "Zoe"]
    with casino_web(database, *OPTIONS) as (process, url):
        found = {name: come_back(driver, url, name) for name, driver in drivers.items()}
        drivers["Zoe"].save_screenshot(str(tmp_path / "member-page-zoe.png"))
    store = sqlite_store(str(database))
    try:
        assert store.audit()[0] == store.audit()[1]
        for name, (lobby, page, rows) in found.items():
            member = store.login(name, f"{name} password")
            history = store.history(member.id)
            assert lobby == page == member.balance == 1000 + sum(g.net for g in history)
            assert rows == len(history) >= 3
    finally:
        store.close()


def play_hands(drivers: dict[str, Any], hands: int) -> dict[str, dict[str, Any]]:
    """Both members check or call until each page has shown ``hands`` hands; the last views."""
    last: dict[str, dict[str, Any]] = {}
    end = time.monotonic() + LIMIT
    while time.monotonic() < end:
        for name, driver in drivers.items():
            view = snapshot(driver)
            if view["seats"]:
                last[name] = view
                play(driver, view, keyboard=name == "Zoe")
        if len(last) == len(drivers) and all(v["hand"] > hands for v in last.values()):
            return last
        time.sleep(POLL)
    raise AssertionError(f"the table did not play {hands} hands: {last}")


def come_back(driver: Any, url: str, name: str) -> tuple[int, int, int]:
    """Log in again: the lobby's bankroll, the member page's, and its rows of games."""
    register(driver, url, name, MEMBERS[name], action="login")
    lobby = int(shown(driver, "balance").get_attribute("value"))
    click_when(driver, "#member")
    shown(driver, "history")
    page = int(driver.find_element("id", "balance").get_attribute("value"))
    source: str = driver.page_source
    return lobby, page, len(re.findall(r"<tr><td>", source))
