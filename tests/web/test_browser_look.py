"""How the pages look and whether they are accessible, in Debian's headless Chromium: the
lobby (a visitor's and a member's), the register and log-in pages, the member's page, a
Hold'em table and a dominoes table, in Spanish and English, at a phone's size (390×844) and a
desktop's (1440×900). axe-core 4.x finds nothing, and each screenshot
matches its baseline in ``docs/screenshots`` within a pixel threshold
(``CASINO_UPDATE_SCREENSHOTS=1`` writes the baseline). Seeded tables, a seeded store (the
member's games at fixed times), long clocks, the DejaVu fonts, no animation (reduced
motion). The numbers the server writes are the browser's ``Intl.NumberFormat``'s."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from casino.web.databases import sqlite_store
from casino.web.words import money, number

from .browser import (
    SIZES,
    casino_web,
    casino_web_on,
    click_when,
    emulate,
    join,
    register,
    shown,
)
from .tables import DOMINO, HOLDEM, audit, compare, showdown, state, wait_for

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
