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

import os
import re
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .browser import _casino_web, click_if, click_when, emulate, join, register
from .overlap import overlaps
from .tables import DOMINO, HOLDEM, POLL, audit, screenshot, showdown, state, wait_for
from .test_browser_chat import HOSTILE, LINES, type_line
from .test_browser_watch import PAGE as WATCH

SIZES = [(390, 844), (500, 757), (1024, 640), (1366, 768)]
SHOTS = os.environ.get("CASINO_LOOK_SHOTS")
"""A folder to write each state's screenshot at each size in, to look at (none by default)."""
ANA, BO, CARLA = (1366, 768), (390, 844), (1024, 640)
"""The size each member keeps through the story (each state is also looked at in all four)."""
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
CLOCKS = (
    "return [...document.querySelectorAll('.seat .seconds')].filter((s) => s.offsetParent).length"
)
WATCHING = "You are watching table 1: no hole cards are shown before the showdown."
SAID = "<i>hi</i> & all"
OWN_LINE = """
const list = document.getElementById('chat-lines').getBoundingClientRect();
const own = document.querySelector('#chat-lines li.mine .speaker').getBoundingClientRect();
return own.left - list.left;
"""
"""How far the member's own chat line starts from the box's left edge (where every line does)."""
EMPTY = "Tu cartera está vacía"
OFFLINE = "Se perdió la conexión: reconectando…"


def looks_right(driver: Any, what: str, home: tuple[int, int]) -> None:
    """At each size, nothing overlaps in the page; axe-core finds nothing (at the phone's and
    at the member's own size, ``home``, where the page is left)."""
    for size in SIZES:
        emulate(driver, size)
        driver.execute_script("return new Promise((done) => requestAnimationFrame(done))")
        if SHOTS:  # to be looked at by a person (no baseline)
            name = re.sub(r"\W+", "-", what).strip("-")
            Path(SHOTS, f"{name}-{size[0]}x{size[1]}.png").write_bytes(screenshot(driver))
        found = overlaps(driver)
        assert found == [], (what, size, found)
    for size in dict.fromkeys([SIZES[0], home]):
        emulate(driver, size)
        found = audit(driver)
        assert found == [], (what, size, found)


def seats(driver: Any) -> list[dict[str, Any]]:
    """The seats as drawn."""
    found: list[dict[str, Any]] = driver.execute_script(SEATS)
    return found


def texts(driver: Any) -> dict[str, Any]:
    """The turn line, the connection banner, the refusal line and the live buttons."""
    found: dict[str, Any] = driver.execute_script(TEXTS)
    return found


def until(
    driver: Any,
    script: str,
    test: Callable[[Any], bool],
    meanwhile: Sequence[Any] = (),
    seconds: float = 120.0,
) -> Any:
    """Poll ``script`` in the page until ``test`` holds of what it returns (bounded); the
    members ``meanwhile`` play their turns as they come (:func:`play_along`)."""
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
        for other in meanwhile:
            play_along(other)
        time.sleep(POLL)
    raise AssertionError(f"the page never got there: {seen}")


def play_along(driver: Any) -> None:
    """The member checks where they may, else folds, if it is their turn now (one look): the
    hands go on without waiting for their clock."""
    from selenium.common.exceptions import JavascriptException

    try:
        verbs = state(driver, HOLDEM)["buttons"]
    except JavascriptException:  # still loading
        return
    verb = next((v for v in ("check", "fold") if v in verbs), None)
    if verb is not None:
        click_if(driver, f'#buttons [data-verb="{verb}"]')


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


def test_the_members_story(browsers: Callable[[], Any], database: str) -> None:
    """Ana (a 22-letter name, 1366×768), Bo (a phone, 390×844) and Carla (a small laptop,
    1024×640, in English) through one server run and its restart: Ana at her turn; Carla's
    line in the lobby read by Bo; Bo arriving mid-hand; Carla watching the hand (counted on
    the players' pages, no hole card shown), then taking a seat for the next hand and saying
    a line at the table; Bo sitting out and back; Ana's connection lost; the three pages
    after the restart."""
    ana, bo, carla = browsers(), browsers(), browsers()
    for driver, size in ((ana, ANA), (bo, BO), (carla, CARLA)):
        emulate(driver, size)
    port = free_port()
    with server(database, port, *OPTIONS) as url:
        join(ana, url, LONG, "es", "holdem")
        wait_for(ana, HOLDEM, lambda v: bool(v["buttons"]))
        assert texts(ana)["turn"] == "Tu turno"
        drawn = seats(ana)
        assert [s["name"] for s in drawn if s["you"]] == [LONG]
        assert all(s["stack"] != "0 fichas" for s in drawn), drawn
        looks_right(ana, "a long-named member's turn", ANA)

        register(bo, url, "Bo", "es")  # the lobby while Ana is at a table
        register(carla, url, "Carla", "en")
        type_line(carla, HOSTILE)  # the lobby's chat: read as typed, never run
        until(bo, LINES, lambda lines: lines == [["Carla", HOSTILE]])
        assert bo.execute_script("return document.querySelectorAll('#chat script').length") == 0
        assert "owned" not in bo.title
        line = bo.find_element("css selector", f'#wallets li[data-member="{LONG}"]').text
        assert " ".join(line.split()) == f"{LONG}: 0 US$ (y 1000 US$ en una mesa)"
        assert bo.find_elements("id", "broke") == []  # Bo has his $1,000
        looks_right(bo, "the lobby while a member is at a table", BO)
        click_when(bo, "#member")  # Bo's page: the leaderboard, drawn by the same code
        leaders = [
            " ".join(li.text.split()) for li in bo.find_elements("css selector", "#leaders li")
        ]
        assert leaders == [
            "Bo: 1000 US$",
            "Carla: 1000 US$",
            f"{LONG}: 0 US$ (y 1000 US$ en una mesa)",
        ]
        looks_right(bo, "the member's page while a member is at a table", BO)
        bo.back()

        click_when(bo, "#sit")  # mid-hand: Ana has not acted yet
        mine = until(bo, SEATS, lambda s: any(seat["you"] for seat in s))
        you = next(seat for seat in mine if seat["you"])
        assert you["name"].endswith(" (bot)")  # its computer player plays this hand out
        assert texts(bo)["turn"] == "Tienes asiento para la próxima mano."
        looks_right(bo, "a member arriving mid-hand", BO)

        click_when(carla, "#watch-1")  # the same hand, still Ana's turn
        seen = until(carla, WATCH, lambda w: w["take"] and w["watchers"] == "1 watching")
        assert seen["turn"] == WATCHING and seen["you"] == 0, seen
        assert seen["faceup"] == 0 and not seen["winner"], seen  # no hole card face up
        assert not carla.find_element("id", "chat-form").is_displayed()  # a watcher reads
        for player, cards in ((ana, 2), (bo, 0)):  # Bo is dealt in from the next hand
            counted = until(player, WATCH, lambda w: w["watchers"] == "1 mirando")
            assert counted["faceup"] == counted["mine"] == cards, counted
        looks_right(carla, "watching a hand", CARLA)
        looks_right(ana, "a member's turn, watched", ANA)
        click_when(carla, "#take-seat")
        seated = until(carla, WATCH, lambda w: w["you"] == 1)
        assert seated["turn"] == "You are seated for the next hand." and not seated["take"]
        for player in (ana, bo):
            until(player, WATCH, lambda w: w["watchers"] == "")
        type_line(carla, SAID)  # at the table now: the players read her line
        for player in (ana, bo, carla):
            until(player, LINES, lambda lines: lines[-1:] == [["Carla", SAID]])
            assert player.execute_script("return document.querySelectorAll('#chat i').length") == 0
        assert carla.execute_script(OWN_LINE) < 1, "her own line is not where the others are"
        looks_right(carla, "seated for the next hand", CARLA)

        click_when(bo, "#sit-out")
        pressed = "return document.getElementById('sit-out').ariaPressed"
        until(bo, pressed, lambda p: p == "true")
        hand = state(ana, HOLDEM)["hand"]
        click_when(ana, '#buttons [data-verb="fold"]')
        dealt = until(carla, WATCH, lambda w: w["hand"] > hand and w["mine"] == 2)
        assert dealt["faceup"] == 2 or dealt["winner"], dealt  # hers only
        looks_right(carla, "dealt in at the next hand", CARLA)
        until(ana, HOLDEM, lambda v: v["hand"] > hand and bool(v["buttons"]), (carla,))
        resting = [s for s in seats(ana) if s["name"] == "Bo"]
        assert len(resting) == 1 and resting[0]["cards"] == 0, resting
        assert resting[0]["stack"] == "1000 fichas"  # what he would sit with, not 0
        looks_right(ana, "a member sitting out", ANA)
        assert texts(bo)["turn"] == "Descansas desde la próxima mano."
        looks_right(bo, "sitting out, as the member sees it", BO)
        click_when(bo, "#sit-out")  # back in, with his $1,000
        until(bo, pressed, lambda p: p == "false")
        click_when(ana, '#buttons [data-verb="fold"]')
        until(bo, SEATS, lambda s: any(seat["you"] and seat["cards"] == 2 for seat in s), (carla,))
        assert EMPTY not in bo.find_element("tag name", "body").text
        looks_right(bo, "back from sitting out", BO)

        ana.execute_script(DEAD_SOCKETS)
        until(ana, TEXTS, lambda t: t["banner"] is not None)
        said = texts(ana)
        assert said["banner"] == OFFLINE, said
        assert said["buttons"] == []  # nothing to press while the connection is down
        looks_right(ana, "Hold'em, the connection lost", ANA)
        ana.refresh()  # a real socket again
        until(ana, HOLDEM, lambda v: bool(v["buttons"]), (bo, carla))
    with server(database, port, *OPTIONS) as url:  # restarted: the hand voided
        for driver, size, refused in (
            (ana, ANA, "no hay sesión: entra desde el vestíbulo"),
            (bo, BO, "no hay sesión: entra desde el vestíbulo"),
            (carla, CARLA, "no session: join in the lobby"),
        ):
            said = until(driver, TEXTS, lambda t: t["banner"] not in (None, OFFLINE))
            assert said["banner"] == said["refused"] == refused, said
            assert said["buttons"] == [] and said["turn"] == "", said  # nothing to play
            assert driver.execute_script(CLOCKS) == 0  # no clock of the voided hand
            looks_right(driver, f"after a restart, the page kept at {size[0]}", size)


def test_a_showdown_with_a_long_winner_line(browsers: Callable[[], Any], database: str) -> None:
    """Checked and called to a showdown (the table then rests) where the pot is split, one of
    the two winners the long-named member: the winners' line, the lifted cards and the long
    names clear of each other."""
    driver = browsers()
    options = ("--seats", "3", "--seed", "1", "--think", "0.05", "--pause", "600")
    with server(database, 0, *options) as url:
        join(driver, url, LONG, "es", "holdem")
        view = showdown(driver)
        assert view["winner"] == (  # a split pot: the longest of lines
            "Bruno (bot) gana 35 con Doble pareja de cincos y damas · "
            f"{LONG} gana 35 con Doble pareja de cincos y damas"
        )
        looks_right(driver, "a showdown", ANA)


def test_dominoes_at_a_turn_and_with_the_connection_lost(
    browsers: Callable[[], Any], database: str
) -> None:
    driver = browsers()
    with server(database, 0, *OPTIONS, "--move-seconds", "600") as url:
        join(driver, url, LONG, "es", "domino")
        wait_for(driver, DOMINO, lambda v: v["overlay"])
        click_when(driver, "#next", lambda: bool(state(driver, DOMINO)["overlay"]))
        wait_for(driver, DOMINO, lambda v: v["turn"] == "you" and v["playable"] > 0)
        looks_right(driver, "dominoes, the member's turn", CARLA)
        driver.execute_script(DEAD_SOCKETS)
        said = until(driver, TEXTS, lambda t: t["banner"] is not None)
        assert said["banner"] == OFFLINE, said
        looks_right(driver, "dominoes, the connection lost", CARLA)
