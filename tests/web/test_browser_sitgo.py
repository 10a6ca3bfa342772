"""Two members in two headless Chromiums at a sit-and-go of four (two computer players), from
the lobby's *Sit here* to the end: the level shown on the Hold'em page, the places and the
winner in the log, the lobby's wallets what the prizes say. A real ``casino web --sit-and-go
1`` process, real time (short pauses); every wait is bounded."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from .browser import casino_web, click_if, click_when, register, shown
from .tables import POLL

PAGE = """
return {buttons: [...document.querySelectorAll('#buttons button')].map((b) => b.dataset.verb),
  level: document.getElementById('level').hidden ? null
    : document.getElementById('level').textContent,
  sitout: !document.getElementById('sit-out').hidden,
  log: [...document.querySelectorAll('#log li')].map((li) => li.textContent)};
"""
LIMIT = 400.0


def test_two_members_and_two_bots_play_a_sit_and_go_in_the_browser(
    browsers: Callable[[], Any],
) -> None:
    options = ("--tables", "1", "--sit-and-go", "1", "--seats", "4", "--wait", "2")
    with casino_web(*options, "--pause", "0.05", "--think", "0.02", "--seed", "3") as url:
        ana, bo = browsers(), browsers()
        for driver, name, lang in ((ana, "Ana", "es"), (bo, "Bo", "en")):
            register(driver, url, name, lang)
            listed = {"es": "Sit & Go: inscripción 100", "en": "Sit-and-go: buy-in $100"}
            assert listed[lang] in driver.find_element("css selector", 'tr[data-table="2"]').text
            click_when(driver, "#table-2")
            shown(driver, "seats")
        levels: set[str] = set()
        sitouts: set[bool] = set()
        won: dict[str, str] = {}
        end = time.monotonic() + LIMIT
        while len(won) < 2 and time.monotonic() < end:
            for key, driver in (("ana", ana), ("bo", bo)):
                view: dict[str, Any] = driver.execute_script(PAGE)
                if view["level"]:
                    levels.add(view["level"])
                sitouts.add(view["sitout"])
                line = next((x for x in view["log"] if "sit-and-go" in x and "$" in x), None)
                if line is not None:
                    won[key] = line
                for verb in ("check", "call"):
                    if verb in view["buttons"]:
                        click_if(driver, f'#buttons button[data-verb="{verb}"]')
                        break
            time.sleep(POLL)
        assert len(won) == 2, f"the sit-and-go never ended: {levels}"
        assert re.fullmatch(r".+ gana el sit-and-go y 260\xa0US\$\.", won["ana"]), won
        assert re.fullmatch(r".+ wins the sit-and-go and \$260\.", won["bo"]), won
        assert "Sit & Go · nivel 1: ciegas 10/20" in levels
        assert "Sit-and-go · level 1: blinds 10/20" in levels
        assert sitouts == {False}  # nobody sits out of a tournament
        winner = won["bo"].split(" wins ")[0]
        told = bo.execute_script(PAGE)["log"]  # the last hand's lines
        for driver, name in ((ana, "Ana"), (bo, "Bo")):
            prize = 260 if name == winner else 140 if f"{name} is out in place 2." in told else 0
            driver.get(url + "?lang=en")
            balance = shown(driver, "balance").get_attribute("value")
            assert int(balance) == 900 + prize, (name, winner, told[-6:])
