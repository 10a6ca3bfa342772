"""How the pages look and whether they are accessible, in Debian's headless Chromium: the
lobby, a Hold'em table and a dominoes table, in Spanish and English, at a phone's size
(390×844) and a desktop's (1440×900). axe-core finds no serious or critical violation, and
each screenshot matches its baseline in ``docs/screenshots`` within a pixel threshold
(``CASINO_UPDATE_SCREENSHOTS=1`` writes the baseline). Seeded tables, long clocks, the DejaVu
fonts, no animation (reduced motion)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .browser import SIZES, browser, casino_web, emulate, join, need_browser
from .tables import DOMINO, HOLDEM, audit, changed, compare, wait_for

SERVER = ("--seats", "4", "--seed", "7", "--think", "0.05", "--timeout", "600")


@pytest.fixture()
def driver() -> Any:
    """A headless Chromium at a desktop's size first."""
    need_browser()
    page = browser()
    emulate(page, SIZES["desktop"])
    yield page
    page.quit()


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


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_holdem_table(driver: Any, lang: str, tmp_path: Path) -> None:
    with casino_web(*SERVER) as url:
        join(driver, url, "Zoe", lang, "holdem")
        view = wait_for(driver, HOLDEM, lambda v: bool(v["buttons"]))
        assert view["lang"] == lang and view["seats"] == 4 and view["chips"] >= 2
        look(driver, "holdem", lang, tmp_path)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_dominoes_table(driver: Any, lang: str, tmp_path: Path) -> None:
    with casino_web(*SERVER, "--move-seconds", "600") as url:
        join(driver, url, "Zoe", lang, "domino")
        wait_for(driver, DOMINO, lambda v: v["overlay"])
        driver.find_element("id", "next").click()
        wait_for(driver, DOMINO, lambda v: v["turn"] == "you" and v["playable"] > 0)
        look(driver, "domino", lang, tmp_path)


def test_a_holdem_showdown(driver: Any, tmp_path: Path) -> None:
    """The member checks and calls to a showdown: the winner's five cards are lifted and the
    hand named in Spanish (the table then rests: a long pause between hands)."""
    with casino_web("--seats", "3", "--seed", "5", "--think", "0.05", "--pause", "600") as url:
        join(driver, url, "Zoe", "es", "holdem")
        while True:
            view = wait_for(driver, HOLDEM, lambda v: bool(v["winner"] or v["buttons"]))
            if view["winner"]:
                break
            verb = "check" if "check" in view["buttons"] else "call"
            driver.find_element("css selector", f'#buttons [data-verb="{verb}"]').click()
            wait_for(driver, HOLDEM, changed(view["log"], view["hand"]))
        assert view["winner"] == "Carla gana 90 con Pareja de nueves"
        assert view["board"] == 5 and view["lifted"] == 5
        look(driver, "holdem-showdown", "es", tmp_path)
