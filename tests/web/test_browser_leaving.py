"""Members as they play (issue 29), in two real headless Chromiums, on SQLite and PostgreSQL:
Ana and Diego register (names the computer players once had) and choose table 1 in the
lobby; both see the seconds left to the member who must act; Diego loses his connection (the
page says so) and, reloading at his turn, is in his seat with his cards and his turn; Ana
closes her tab mid-hand and Diego's lobby shows her whole wallet by the end of that hand;
then Ana has lost everything, is told so in the lobby and refilled by the house's rule, with
a ledger row; the books balance.

A real ``casino web`` process, real time; every wait is for a condition, with a generous
bound, never for a time-out to pass (the turn's clock is long: nobody waits it out)."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from casino.web.databases import open_store
from casino.web.store import Store

from .browser import _casino_web, click_if, click_when, register
from .tables import POLL

LIMIT = 120.0
OPTIONS = (
    "--seats", "3", "--tables", "2", "--wait", "2", "--timeout", "90", "--think", "0.05",
    "--pause", "0.5", "--seed", "29",
)  # fmt: skip
TABLE = """
const seat = (node) => node && {seat: Number(node.dataset.seat),
  name: node.querySelector('.name').textContent,
  seconds: node.querySelector('.seconds') && !node.querySelector('.seconds').hidden
    ? node.querySelector('.seconds').textContent : null};
const mine = document.querySelector('.seat.you');
const banner = document.getElementById('connection');
return {hand: Number(document.body.dataset.hand || 0),
  turn: seat(document.querySelector('.seat.turn')),
  you: mine ? Number(mine.dataset.seat) : null,
  cards: mine ? [...mine.querySelectorAll('.card')].map((c) => c.dataset.card || null) : [],
  buttons: [...document.querySelectorAll('#buttons button')].map((b) => b.dataset.verb),
  offline: Boolean(banner && !banner.hidden), banner: banner ? banner.textContent : ''};
"""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A new database of each kind (on the web tests' PostgreSQL server)."""
    if request.param == "sqlite":
        return str(tmp_path_factory.mktemp("db") / "casino.db")
    from . import postgres_server

    return postgres_server.fresh_database(request.getfixturevalue("postgres"))


def test_members_leave_lose_the_connection_see_the_clock_and_are_refilled(
    database: str, browsers: Callable[[], Any]
) -> None:
    ana, diego = browsers(), browsers()
    with _casino_web("--database", database, *OPTIONS) as url:
        sit_at_table_one(ana, url, "Ana", "es")
        sit_at_table_one(diego, url, "Diego", "en")
        both_see_the_seconds(ana, diego)
        diego_loses_the_connection_and_reloads(diego, ana)
        ana_closes_her_tab(ana, diego, url, database)
        ana_is_broke_and_refilled(ana, url, database)
    store = open_store(database)
    try:
        issued, accounted = store.audit()
        assert issued == accounted
    finally:
        store.close()


def sit_at_table_one(driver: Any, url: str, name: str, lang: str) -> None:
    """Register, find table 1 in the lobby's list (blinds, seats taken), sit there."""
    register(driver, url, name, lang)
    row = driver.find_element("css selector", '#tables tr[data-table="1"]').text
    assert "5/10" in row
    click_when(driver, "#table-1")


def table(driver: Any) -> dict[str, Any]:
    """The Hold'em page as :data:`TABLE` reads it."""
    data: dict[str, Any] = driver.execute_script(TABLE)
    return data


def until(driver: Any, test: Callable[[dict[str, Any]], bool], act: Any = None) -> dict[str, Any]:
    """Poll the table page until ``test`` holds (``act``: a driver who checks or calls at
    its turn meanwhile)."""
    from selenium.common.exceptions import JavascriptException, WebDriverException

    end = time.monotonic() + LIMIT
    view: dict[str, Any] = {}
    while time.monotonic() < end:
        try:
            view = table(driver)
        except JavascriptException:  # still loading
            time.sleep(POLL)
            continue
        if test(view):
            return view
        if act is not None:
            with contextlib.suppress(WebDriverException):
                check_or_call(act)
        time.sleep(POLL)
    raise AssertionError(f"the page never got there: {view}")


def check_or_call(driver: Any) -> None:
    """Check or call if it is the page's turn."""
    buttons = table(driver)["buttons"]
    verb = "check" if "check" in buttons else "call" if "call" in buttons else None
    if verb is not None:
        click_if(driver, f'#buttons button[data-verb="{verb}"]')  # re-found; else looked again


def both_see_the_seconds(ana: Any, diego: Any) -> None:
    """At a member's turn, both pages show the seconds left under that member's seat."""
    members = {"Ana", "Diego"}
    view = until(ana, lambda v: v["turn"] is not None and v["turn"]["name"] in members)
    acting = view["turn"]["seat"]
    for driver in (ana, diego):
        shown = until(driver, lambda v: v["turn"] is not None and v["turn"]["seconds"] is not None)
        assert shown["turn"]["seat"] == acting
        assert re.search(r"\b\d+ s\b", shown["turn"]["seconds"]), shown["turn"]


def diego_loses_the_connection_and_reloads(diego: Any, ana: Any) -> None:
    """His connection lost at his turn, the page says so and reconnects by itself; reloaded,
    his seat, cards and turn are there."""
    turn = until(diego, lambda v: "check" in v["buttons"] or "call" in v["buttons"], act=ana)
    # The connection drops under the page (DevTools' offline mode leaves open sockets be, so
    # the socket is closed under the page's feet, without the word a leaving page sends).
    diego.execute_script("socket.socket.close();")
    said = until(diego, lambda v: v["offline"])
    assert said["banner"] == "Connection lost: reconnecting…"
    until(diego, lambda v: not v["offline"])  # reconnected by itself
    diego.refresh()
    back = until(diego, lambda v: bool(v["buttons"]) and v["hand"] == turn["hand"])
    assert (back["you"], back["cards"]) == (turn["you"], turn["cards"])
    assert None not in back["cards"] and len(back["cards"]) == 2
    assert "check" in back["buttons"] or "call" in back["buttons"]  # his turn: never folded


def ana_closes_her_tab(ana: Any, diego: Any, url: str, database: str) -> None:
    """Ana closes her table's tab mid-hand; Diego's lobby shows her whole wallet (nothing at
    a table) by the end of that hand."""
    playing = diego.current_window_handle
    view = until(diego, lambda v: v["hand"] >= 1 and bool(v["cards"]), act=diego)
    closed_in = view["hand"]
    table_tab = ana.current_window_handle
    ana.switch_to.new_window("tab")
    lobby_tab = ana.current_window_handle
    ana.switch_to.window(table_tab)
    ana.close()  # the tab: its page says it leaves
    ana.switch_to.window(lobby_tab)
    diego.switch_to.new_window("tab")
    lobby = diego.current_window_handle
    end = time.monotonic() + LIMIT
    while time.monotonic() < end:
        diego.switch_to.window(lobby)
        diego.get(url)
        wallet = diego.find_element("css selector", '#wallets li[data-member="Ana"]')
        whole = not wallet.find_elements("css selector", ".held")
        value = int(wallet.find_element("css selector", ".wallet").get_attribute("value"))
        at_table = diego.find_element("css selector", '#tables tr[data-table="1"]').text
        diego.switch_to.window(playing)
        hand = table(diego)["hand"]
        if whole and "Ana" not in at_table:
            store = open_store(database)
            try:
                ana_now = store.login("Ana", "Ana password")
                assert (value, store.held(ana_now.id)) == (ana_now.balance, 0)
            finally:
                store.close()
            assert hand <= closed_in + 1, "freed only after that hand"
            return
        check_or_call(diego)
        time.sleep(0.2)
    raise AssertionError("Ana's wallet was never whole in Diego's lobby")


def ana_is_broke_and_refilled(ana: Any, url: str, database: str) -> None:
    """Ana's wallet emptied (spent elsewhere): the lobby tells her, and the house's refill
    gives her the starting bankroll once, written to the ledger."""
    store = open_store(database)
    try:
        spend(store, "Ana")
    finally:
        store.close()
    ana.get(url)
    said = ana.find_element("id", "broke").text
    assert "Tu cartera está vacía" in said
    button = ana.find_element("id", "refill")
    button.click()  # a form: the lobby comes back as a new page
    # While the new page comes, Chromium may answer "Node with given id does not belong to the
    # document" rather than "stale element": the old page is going either way; ask again.
    going = WebDriverWait(ana, 60, ignored_exceptions=[WebDriverException])
    going.until(expected_conditions.staleness_of(button))
    balance = WebDriverWait(ana, 60).until(lambda page: page.find_element("id", "balance"))
    assert int(balance.get_attribute("value")) == 1000
    assert not ana.find_elements("id", "broke")
    store = open_store(database)
    try:
        member = store.login("Ana", "Ana password")
        with store.transaction() as run:
            last = run(
                "SELECT kind, amount FROM ledger WHERE account = ? ORDER BY id DESC LIMIT 1",
                member.id,
            ).fetchone()
            refills = run("SELECT COUNT(*) FROM refills WHERE account = ?", member.id).fetchone()
        assert (str(last[0]), int(last[1]), int(refills[0])) == ("issue", 1000, 1)
    finally:
        store.close()


def spend(store: Store, name: str) -> None:
    """Everything in the member's wallet lost elsewhere (a game the house wins)."""
    member = store.login(name, f"{name} password")
    game = store.open_game("elsewhere", "t", {member.id: member.balance, store.house: 0})
    store.settle(game, {store.house: member.balance})
