"""How the pages look and whether they are accessible, in Debian's headless Chromium: the
lobby (a visitor's and a member's), the register and log-in pages, the member's page, a
Hold'em table and a dominoes table, in Spanish and English, at a phone's size (390×844) and a
desktop's (1440×900). axe-core 4.x finds nothing, and each screenshot
matches its baseline in ``docs/screenshots`` within a pixel threshold
(``CASINO_UPDATE_SCREENSHOTS=1`` writes the baseline). Seeded tables, a seeded store (the
member's games at fixed times), long clocks, the DejaVu fonts, no animation (reduced
motion). The numbers the server writes are the browser's ``Intl.NumberFormat``'s."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from casino.web.databases import sqlite_store
from casino.web.words import money, number

from .browser import (
    PHONE,
    SIZES,
    casino_web,
    casino_web_on,
    click_if,
    click_when,
    emulate,
    join,
    register,
    shown,
)
from .overlap import overlaps
from .tables import DOMINO, HOLDEM, POLL, audit, compare, keys, showdown, state, wait_for

LAYOUT = """
const cards = document.querySelector('.seat.you .cards').getBoundingClientRect();
return {cards: Math.round(cards.bottom),
  bar: Math.round(document.getElementById('actions').getBoundingClientRect().top)};
"""
BAR_ON_TOP = """
const button = document.querySelector('#buttons button');
const box = button.getBoundingClientRect();
const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
return Boolean(hit && button.contains(hit));
"""
CLEAR_STACKS = """
const over = [];
for (const seat of document.querySelectorAll('.seat')) {
  const stack = seat.querySelector('.stack').getBoundingClientRect();
  for (const card of seat.querySelectorAll('.card.win')) {
    if (card.getBoundingClientRect().top < stack.bottom - 1) over.push(seat.dataset.seat);
  }
}
return over;
"""
SERVER = ("--seats", "4", "--seed", "7", "--think", "0.05", "--timeout", "600")


@pytest.fixture()
def driver(browsers: Callable[[], Any]) -> Any:
    """A headless Chromium at a desktop's size first."""
    page = browsers()
    emulate(page, SIZES["desktop"])
    return page


def look(driver: Any, page: str, lang: str, tmp_path: Path) -> None:
    """The page as it is now at both sizes: audited and compared with its baseline."""
    for size in ("desktop", "phone"):
        emulate(driver, SIZES[size])
        driver.execute_script("return new Promise((done) => requestAnimationFrame(done))")
        assert audit(driver) == [], f"{page} {lang} {size}"
        compare(driver, f"{page}-{lang}-{size}", tmp_path)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_lobby(driver: Any, lang: str, tmp_path: Path) -> None:
    with casino_web(*SERVER) as url:
        driver.get(f"{url}?lang={lang}")
        assert driver.execute_script("return document.documentElement.lang") == lang
        look(driver, "lobby", lang, tmp_path)


def seeded(database: Path) -> None:
    """Three members and their games at fixed times (each step of the store's clock is seven
    minutes from 2026-11-20 18:00 UTC): Zoe's history has Hold'em hands and dominoes hands
    won, lost, even and void; the leaderboard is Carla 12,480, Zoe 1,090, Bo 990."""
    moments: Iterator[float] = iter(range(1_795_197_600, 1_800_000_000, 420))
    store = sqlite_store(str(database), now=lambda: float(next(moments)))
    try:
        house = store.house
        zoe, bo, carla = (store.register(n, f"{n} password").id for n in ["Zoe", "Bo", "Carla"])
        games = [
            ("holdem", {zoe: 1000, house: 3000}, {zoe: 1150, house: 2850}),
            ("domino", {zoe: 10, house: 10}, {house: 20}),
            ("domino", {bo: 10, house: 10}, {house: 20}),
            ("holdem", {carla: 1000, house: 20000}, {carla: 12480, house: 8520}),
            ("domino", {zoe: 10, house: 10}, {zoe: 20}),
            ("holdem", {zoe: 1000, house: 3000}, {zoe: 940, house: 3060}),
            ("domino", {zoe: 10, house: 10}, {zoe: 10, house: 10}),
        ]
        for kind, stakes, payouts in games:
            store.settle(store.open_game(kind, f"{kind} 1", stakes), payouts)
        store.open_game("holdem", "holdem 1", {zoe: 1000, house: 3000})
        store.void_open_games()
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_member_pages(driver: Any, lang: str, tmp_path: Path) -> None:
    """Register and log in (a refused try: its alert), the member's lobby and page."""
    seeded(tmp_path / "casino.db")
    with casino_web_on(tmp_path / "casino.db", *SERVER) as url:
        driver.get(f"{url}register?lang={lang}")
        shown(driver, "account")
        look(driver, "register", lang, tmp_path)
        driver.get(f"{url}login")
        driver.find_element("id", "name").send_keys("Zoe")
        driver.find_element("id", "password").send_keys("not Zoe's password")
        click_when(driver, "#submit")
        shown(driver, "problem")
        look(driver, "login", lang, tmp_path)
        register(driver, url, "Zoe", lang, action="login")
        balance = driver.find_element("id", "balance")
        assert (balance.get_attribute("value"), balance.get_attribute("textContent")) == (
            "1090",
            money(1090, lang),
        )
        look(driver, "lobby-member", lang, tmp_path)
        click_when(driver, "#member")
        rows = shown(driver, "history").find_elements("css selector", "tbody tr")
        assert len(rows) == 6 and {"es": "anulada", "en": "void"}[lang] in rows[0].text
        leaders = [
            li.get_attribute("textContent")
            for li in driver.find_elements("css selector", "#leaders li")
        ]
        assert leaders == [
            f"Carla: {money(12480, lang)}",
            f"Zoe: {money(1090, lang)}",
            f"Bo: {money(990, lang)}",
        ]
        look(driver, "member", lang, tmp_path)
        driver.get(f"{url}nowhere")  # an error page: audited, not kept
        assert (
            shown(driver, "problem").text
            == {"es": "Esa página no existe.", "en": "There is no such page."}[lang]
        )
        assert audit(driver) == []


def test_the_servers_numbers_are_the_browsers(driver: Any) -> None:
    """:func:`casino.web.words.number` and :func:`~casino.web.words.money` write what the
    pages' ``Intl.NumberFormat`` writes, in both languages."""
    values = [0, 7, 999, 1000, 1250, 9999, 10000, 123456, 1234567, -10, -1250, -12500]
    written = driver.execute_script(
        "const [values, langs] = arguments; const out = {};"
        "for (const lang of langs) out[lang] = values.map((v) => ["
        "  new Intl.NumberFormat(lang).format(v),"
        "  new Intl.NumberFormat(lang, {style: 'currency', currency: 'USD',"
        "    maximumFractionDigits: 0}).format(v)]);"
        "return out;",
        values,
        ["es", "en"],
    )
    for lang in ("es", "en"):
        assert written[lang] == [[number(v, lang), money(v, lang)] for v in values]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_holdem_table(driver: Any, lang: str, tmp_path: Path) -> None:
    with casino_web(*SERVER) as url:
        join(driver, url, "Zoe", lang, "holdem")
        view = wait_for(driver, HOLDEM, lambda v: bool(v["buttons"]))
        assert view["lang"] == lang and view["seats"] == 4 and view["chips"] >= 2
        look(driver, "holdem", lang, tmp_path)
        for size in [(1280, 757), SIZES["desktop"], SIZES["phone"]]:
            emulate(driver, size)
            layout = driver.execute_script(LAYOUT)
            assert layout["cards"] <= layout["bar"], (size, layout)  # clear of the action bar
        emulate(driver, SIZES["phone"])
        click_when(driver, "#history-toggle")  # the drawer, open on a phone
        assert driver.execute_script(BAR_ON_TOP), "the history drawer covers the action bar"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_dominoes_table(driver: Any, lang: str, tmp_path: Path) -> None:
    with casino_web(*SERVER, "--move-seconds", "600") as url:
        join(driver, url, "Zoe", lang, "domino")
        wait_for(driver, DOMINO, lambda v: v["overlay"])
        click_when(driver, "#next", lambda: bool(state(driver, DOMINO)["overlay"]))
        wait_for(driver, DOMINO, lambda v: v["turn"] == "you" and v["playable"] > 0)
        look(driver, "domino", lang, tmp_path)


def test_a_holdem_showdown(driver: Any, tmp_path: Path) -> None:
    """The member checks and calls to a showdown: the winner's five cards are lifted and the
    hand named in Spanish (the table then rests: a long pause between hands)."""
    with casino_web("--seats", "3", "--seed", "5", "--think", "0.05", "--pause", "600") as url:
        join(driver, url, "Zoe", "es", "holdem")
        view = showdown(driver)
        assert view["winner"] == "Carla (bot) gana 90 con Pareja de nueves"
        assert view["board"] == 5 and view["lifted"] == 5
        emulate(driver, SIZES["phone"])
        assert driver.execute_script(CLEAR_STACKS) == []  # no lifted card over its stack
        assert driver.find_elements("css selector", "#pot .chip") == []  # paid: no pot left
        look(driver, "holdem-showdown", "es", tmp_path)


# The states of issue 44's later items, each with its baselines at a phone's size and a small
# laptop's: a sit-and-go mid-tournament, a member spending their time bank, a winner's choice
# to show or muck. In each, the overlap check of test_browser_look_states.py too.
PLAY_SIZES = {"phone": PHONE, "laptop": (1024, 640)}
PLAYED = """
const level = document.getElementById('level');
return {buttons: [...document.querySelectorAll('#buttons button')].filter((b) => !b.disabled)
    .map((b) => b.dataset.verb),
  turn: document.getElementById('turn').textContent,
  level: level.hidden ? null : level.textContent,
  outs: [...document.querySelectorAll('.seat .last')].map((n) => n.textContent)
    .filter((t) => t.startsWith('fuera')),
  banks: [...document.querySelectorAll('.seat .seconds')].filter((n) => !n.hidden)
    .map((n) => n.textContent),
  hand: Number(document.body.dataset.hand || 0),
  winner: document.getElementById('winner').textContent};
"""
STILL_CLOCK = """
// The clock made still once the seat's time bank reads ``arguments[0]`` s: the ticker stopped
// between two of its ticks (a page looked at still, as the long clocks of the other shots).
const [bank, done] = arguments;
const poll = setInterval(() => {
  const shown = document.querySelector('.seat.banking .seconds');
  if (shown && shown.dataset.bank === String(bank)) {
    clearInterval(ticker); clearInterval(poll); done(shown.textContent);
  }
}, 20);
"""
PREFER = {
    "calls": ["check", "call"],
    "shoves": ["raise", "bet", "allin", "check", "call"],
}
"""What a scripted member presses at their turn, the first there."""


def played(driver: Any) -> dict[str, Any]:
    """The Hold'em page's turn, level, places, clocks and live buttons (:data:`PLAYED`); all
    empty while the page is loading."""
    from selenium.common.exceptions import JavascriptException

    try:
        found: dict[str, Any] = driver.execute_script(PLAYED)
    except JavascriptException:
        return {
            "buttons": [],
            "turn": "",
            "level": None,
            "outs": [],
            "banks": [],
            "hand": 0,
            "winner": "",
        }
    return found


def play_until(
    driver: Any, done: Callable[[dict[str, Any]], bool], style: str = "calls"
) -> dict[str, Any]:
    """Play the member's turns in ``style`` (:data:`PREFER`) until ``done`` holds of the page
    (bounded); the page then."""
    end = time.monotonic() + 300.0
    while time.monotonic() < end:
        page = played(driver)
        if done(page):
            return page
        verb = next((v for v in PREFER[style] if v in page["buttons"]), None)
        if verb in ("raise", "bet"):
            keys(driver, "a")  # the slider to its top and raised: all-in
        elif verb is not None:
            click_if(driver, f'#buttons button[data-verb="{verb}"]')
        time.sleep(POLL)
    raise AssertionError(f"the table never got there: {played(driver)}")


def look_played(driver: Any, name: str, tmp_path: Path) -> None:
    """The table as it is now at both sizes: nothing overlaps, axe-core finds nothing, each
    screenshot its baseline's."""
    for size, pixels in PLAY_SIZES.items():
        emulate(driver, pixels)
        driver.execute_script("return new Promise((done) => requestAnimationFrame(done))")
        assert overlaps(driver) == [], (name, size, overlaps(driver))
        assert audit(driver) == [], (name, size)
        compare(driver, f"{name}-{size}", tmp_path)


def test_a_sit_and_go_mid_tournament(driver: Any, tmp_path: Path) -> None:
    """Zoe checks and calls through a sit-and-go of four (three computer players) to level 2
    with a player out: the level line, the place on the out seat's box."""
    # seed 6: the bots' play since their exact turn and river equity knocks a bot out by
    # level 2 (with seed 3, Zoe calling was out first)
    options = ("--tables", "1", "--sit-and-go", "1", "--seats", "4", "--seed", "6")
    with casino_web(*options, "--think", "0.02", "--pause", "0.05", "--timeout", "600") as url:
        register(driver, url, "Zoe", "es")
        click_when(driver, "#table-2")
        page = play_until(
            driver, lambda p: bool(p["buttons"] and p["outs"] and "nivel 2" in (p["level"] or ""))
        )
        assert page["level"] == "Sit & Go · nivel 2: ciegas 15/30", page
        assert page["outs"] == ["fuera: puesto\xa04"], page
        assert page["turn"] == "Tu turno"
        look_played(driver, "sitgo-es", tmp_path)


def test_a_member_spending_their_time_bank(browsers: Callable[[], Any], tmp_path: Path) -> None:
    """Ana lets her 2-second clock run out at her turn: her seat's clock says the time bank
    she is spending, on Bo's page as on hers (each page made still at the same second)."""
    ana, bo = browsers(), browsers()
    options = ("--seats", "3", "--wait", "2", "--seed", "7", "--think", "0.05")
    with casino_web(*options, "--timeout", "2", "--time-bank", "600") as url:
        join(ana, url, "Ana", "es", "holdem")
        join(bo, url, "Bo", "es", "holdem")
        end = time.monotonic() + 120.0
        while not any("reserva" in b for b in played(bo)["banks"]):
            assert time.monotonic() < end, played(bo)
            if played(bo)["buttons"]:  # Bo plays his turns; Ana lets hers run
                click_if(bo, '#buttons button[data-verb="call"], #buttons [data-verb="check"]')
            time.sleep(POLL)
        for driver, bank in ((bo, 590), (ana, 588)):
            emulate(driver, PLAY_SIZES["phone"])
            said = driver.execute_async_script(STILL_CLOCK, bank)
            assert said == f"quedan 0 s · reserva {bank} s", said
        assert played(ana)["turn"] == "Tu turno"
        look_played(bo, "timebank-es", tmp_path)
        look_played(ana, "timebank-own-es", tmp_path)


def test_a_winner_chooses_to_show_or_muck(driver: Any, tmp_path: Path) -> None:
    """Zoe goes all-in until everybody folds to her (``--show-muck``): the winner of an uncontested
    pot is asked whether to show, Muck and Show the buttons (Show focused, blurred for the
    shot)."""
    options = ("--seats", "3", "--seed", "5", "--think", "0.05", "--pause", "0.3")
    with casino_web(*options, "--timeout", "600", "--show-muck") as url:
        join(driver, url, "Zoe", "es", "holdem")
        page = play_until(driver, lambda p: "muck" in p["buttons"], "shoves")
        assert page["buttons"] == ["muck", "show"] and page["turn"] == "¿Muestras tus cartas?"
        assert page["winner"].startswith("Zoe gana"), page
        look_played(driver, "showmuck-es", tmp_path)
