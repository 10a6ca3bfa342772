"""How the tables look in the states members really reach (issue 44), through a real ``casino
web`` process and real members, in headless Chromium at 390×844, 500×757, 1024×640 and
1366×768: a member at their turn with a long name (bets, blinds, the dealer button, their
clock), another member's lobby while the first is at a table, a member arriving mid-hand,
a member sitting out, a showdown with a long winner line, the connection lost (Hold'em and
dominoes), the table page after a server restart. In each state, at each size, no two text
boxes collide and none is covered or cut (:mod:`.overlap`), axe-core finds nothing, and the
words shown are checked; the members' story runs on SQLite and on PostgreSQL (the restart
keeps its database). No pixel baselines here (``test_browser_look.py`` keeps those).

The words are those issue 44 found wrong: an arriving member is told they play from the next
hand, a sitting-out seat shows the chips its member would sit with (never ``0 fichas``), a
member back in is not told their wallet is empty, a restarted server's page keeps no button."""

from __future__ import annotations

import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .browser import _casino_web, click_when, emulate, join, register
from .overlap import overlaps
from .tables import DOMINO, HOLDEM, POLL, audit, showdown, state, wait_for

SIZES = [(390, 844), (500, 757), (1024, 640), (1366, 768)]
LONG = "Maximiliana Bartolomea"  # 22 of the 24 characters a name may have
OPTIONS = ("--seats", "4", "--seed", "7", "--think", "0.05", "--timeout", "600")
SEATS = """
return [...document.querySelectorAll('.seat')].map((s) => ({seat: Number(s.dataset.seat),
  name: s.querySelector('.name').textContent, stack: s.querySelector('.stack').textContent,
  last: s.querySelector('.last').textContent, you: s.classList.contains('you'),
  cards: s.querySelectorAll('.card').length}));
"""
TEXTS = """
const text = (id) => { const n = document.getElementById(id); return n && !n.hidden
  && !n.closest('[hidden]') ? n.textContent : null; };
return {turn: text('turn'), banner: text('connection'), refused: text('refused'),
  buttons: [...document.querySelectorAll('#buttons button')].filter((b) => !b.disabled)
    .map((b) => b.textContent)};
"""
DEAD_SOCKETS = """
// The connection lost and not coming back while the page is looked at: every new socket
// closes at once (the page keeps retrying), and the open one is closed under the page.
window.WebSocket = class extends EventTarget {
  constructor() {
    super();
    this.readyState = 3;
    setTimeout(() => this.dispatchEvent(new Event('close')), 20);
  }
  send() {}
  close() {}
};
socket.socket.close();
"""
EMPTY = "Tu cartera está vacía"
OFFLINE = "Se perdió la conexión: reconectando…"


def looks_right(driver: Any, what: str) -> None:
    """At each size, nothing overlaps in the page; axe-core finds nothing (at the phone's)."""
    for size in SIZES:
        emulate(driver, size)
        driver.execute_script("return new Promise((done) => requestAnimationFrame(done))")
        found = overlaps(driver)
        assert found == [], (what, size, found)
    emulate(driver, SIZES[0])
    found = audit(driver)
    assert found == [], (what, found)


def seats(driver: Any) -> list[dict[str, Any]]:
    """The seats as drawn."""
    found: list[dict[str, Any]] = driver.execute_script(SEATS)
    return found


def texts(driver: Any) -> dict[str, Any]:
    """The turn line, the connection banner, the refusal line and the live buttons."""
    found: dict[str, Any] = driver.execute_script(TEXTS)
    return found


def until(driver: Any, script: str, test: Callable[[Any], bool], seconds: float = 120.0) -> Any:
    """Poll ``script`` in the page until ``test`` holds of what it returns (bounded)."""
    from selenium.common.exceptions import JavascriptException

    end = time.monotonic() + seconds
    seen: Any = None
    while time.monotonic() < end:
        try:
            seen = driver.execute_script(script)
        except JavascriptException:  # still loading
            seen = None
        if seen is not None and test(seen):
            return seen
        time.sleep(POLL)
    raise AssertionError(f"the page never got there: {seen}")


def free_port() -> int:
    """A loopback port free now (for a server started twice on the same address)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def server(database: Path | str, port: int, *options: str) -> Iterator[str]:
    """A ``casino web`` process on ``port`` with its members in ``database``."""
    with _casino_web(*options, "--database", str(database), "--port", str(port)) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database of each kind (PostgreSQL: on the web tests' server, skipped without it)."""
    if request.param == "sqlite":
        return str(tmp_path / "casino.db")
    from . import postgres_server

    return postgres_server.fresh_database(request.getfixturevalue("postgres"))


def test_holdem_in_the_states_members_reach(browsers: Callable[[], Any], database: str) -> None:
    ana, bo = browsers(), browsers()
    port = free_port()
    with server(database, port, *OPTIONS) as url:
        join(ana, url, LONG, "es", "holdem")
        wait_for(ana, HOLDEM, lambda v: bool(v["buttons"]))
        assert texts(ana)["turn"] == "Tu turno"
        drawn = seats(ana)
        assert [s["name"] for s in drawn if s["you"]] == [LONG]
        assert all(s["stack"] != "0 fichas" for s in drawn), drawn
        looks_right(ana, "a long-named member's turn")

        register(bo, url, "Bo", "es")  # the lobby while Ana is at a table
        line = bo.find_element("css selector", f'#wallets li[data-member="{LONG}"]').text
        assert " ".join(line.split()) == f"{LONG}: 0 US$ (y 1000 US$ en una mesa)"
        assert bo.find_elements("id", "broke") == []  # Bo has his $1,000
        looks_right(bo, "the lobby while a member is at a table")
        click_when(bo, "#member")  # Bo's page: the leaderboard, drawn by the same code
        leaders = [
            " ".join(li.text.split()) for li in bo.find_elements("css selector", "#leaders li")
        ]
        assert leaders == ["Bo: 1000 US$", f"{LONG}: 0 US$ (y 1000 US$ en una mesa)"]
        looks_right(bo, "the member's page while a member is at a table")
        bo.back()

        click_when(bo, "#sit")  # mid-hand: Ana has not acted yet
        mine = until(bo, SEATS, lambda s: any(seat["you"] for seat in s))
        you = next(seat for seat in mine if seat["you"])
        assert you["name"].endswith(" (bot)")  # its computer player plays this hand out
        assert texts(bo)["turn"] == "Tienes asiento para la próxima mano."
        looks_right(bo, "a member arriving mid-hand")

        click_when(bo, "#sit-out")
        pressed = "return document.getElementById('sit-out').ariaPressed"
        until(bo, pressed, lambda p: p == "true")
        hand = state(ana, HOLDEM)["hand"]
        click_when(ana, '#buttons [data-verb="fold"]')
        wait_for(ana, HOLDEM, lambda v: v["hand"] > hand and bool(v["buttons"]))
        resting = [s for s in seats(ana) if s["name"] == "Bo"]
        assert len(resting) == 1 and resting[0]["cards"] == 0, resting
        assert resting[0]["stack"] == "1000 fichas"  # what he would sit with, not 0
        looks_right(ana, "a member sitting out")
        assert texts(bo)["turn"] == "Descansas desde la próxima mano."
        looks_right(bo, "sitting out, as the member sees it")
        click_when(bo, "#sit-out")  # back in, with his $1,000
        until(bo, pressed, lambda p: p == "false")
        hand = state(ana, HOLDEM)["hand"]
        click_when(ana, '#buttons [data-verb="fold"]')
        until(bo, SEATS, lambda s: any(seat["you"] and seat["cards"] == 2 for seat in s))
        assert EMPTY not in bo.find_element("tag name", "body").text
        looks_right(bo, "back from sitting out")

        ana.execute_script(DEAD_SOCKETS)
        until(ana, TEXTS, lambda t: t["banner"] is not None)
        said = texts(ana)
        assert said["banner"] == OFFLINE, said
        assert said["buttons"] == []  # nothing to press while the connection is down
        looks_right(ana, "Hold'em, the connection lost")
        ana.refresh()  # a real socket again
        wait_for(ana, HOLDEM, lambda v: bool(v["buttons"]))
    with server(database, port, *OPTIONS) as url:  # restarted: the hand voided
        said = until(ana, TEXTS, lambda t: t["banner"] not in (None, OFFLINE))
        assert said["banner"] == said["refused"] == "no hay sesión: entra desde el vestíbulo"
        assert said["buttons"] == [] and said["turn"] == "", said  # nothing to play
        assert (
            ana.execute_script(
                "return [...document.querySelectorAll('.seat .seconds')]"
                ".filter((s) => s.offsetParent).length"
            )
            == 0
        )  # no clock of the voided hand
        looks_right(ana, "the table page after a restart")


def test_a_showdown_with_a_long_winner_line(browsers: Callable[[], Any]) -> None:
    """Checked and called to a showdown (the table then rests) where the pot is split, one of
    the two winners the long-named member: the winners' line, the lifted cards and the long
    names clear of each other."""
    driver = browsers()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "casino.db"
        options = ("--seats", "3", "--seed", "1", "--think", "0.05", "--pause", "600")
        with server(database, 0, *options) as url:
            join(driver, url, LONG, "es", "holdem")
            view = showdown(driver)
            assert view["winner"] == (  # a split pot: the longest of lines
                "Bruno (bot) gana 35 con Doble pareja de cincos y damas · "
                f"{LONG} gana 35 con Doble pareja de cincos y damas"
            )
            looks_right(driver, "a showdown")


def test_dominoes_at_a_turn_and_with_the_connection_lost(browsers: Callable[[], Any]) -> None:
    driver = browsers()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "casino.db"
        with server(database, 0, *OPTIONS, "--move-seconds", "600") as url:
            join(driver, url, LONG, "es", "domino")
            wait_for(driver, DOMINO, lambda v: v["overlay"])
            click_when(driver, "#next", lambda: bool(state(driver, DOMINO)["overlay"]))
            wait_for(driver, DOMINO, lambda v: v["turn"] == "you" and v["playable"] > 0)
            looks_right(driver, "dominoes, the member's turn")
            driver.execute_script(DEAD_SOCKETS)
            said = until(driver, TEXTS, lambda t: t["banner"] is not None)
            assert said["banner"] == OFFLINE, said
            looks_right(driver, "dominoes, the connection lost")
