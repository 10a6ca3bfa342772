"""Show or muck and the time bank in a headless Chromium: a member's clock runs out and the
page shows the time bank being spent; at the end of a hand the page offers Show (and Muck
where the rules allow it) and the log says which. A real ``casino web --show-muck`` process,
real time (short clocks); every wait is bounded."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .browser import casino_web, click_if
from .tables import POLL
from .test_browser_holdem import sit

LIMIT = 150.0
PAGE = """
const clock = document.querySelector('#seats .seat.you .seconds');
return {buttons: [...document.querySelectorAll('#buttons button')].map((b) => b.dataset.verb),
  seconds: clock && !clock.hidden ? clock.textContent : '',
  log: [...document.querySelectorAll('#log li')].map((li) => li.textContent).join('\\n')};
"""


def test_the_time_bank_is_shown_and_a_member_shows_or_mucks(browsers: Callable[[], Any]) -> None:
    server = ("--seats", "3", "--tables", "1", "--think", "0.05", "--pause", "0.6")
    clocks = ("--timeout", "4", "--time-bank", "8", "--show-muck", "--seed", "5")
    driver = browsers()
    with casino_web(*server, *clocks) as url:
        sit(driver, url, "Ana", "en")
        banked = ""
        chose: str | None = None
        view: dict[str, Any] = {"log": ""}
        end = time.monotonic() + LIMIT
        while time.monotonic() < end and not (banked and chose and "Ana: " + chose in view["log"]):
            view = driver.execute_script(PAGE)
            buttons = view["buttons"]
            if "show" in buttons:  # choose: muck where allowed, else show
                chose = "mucks" if "muck" in buttons else "shows"
                click_if(driver, f'#buttons button[data-verb="{chose[:-1]}"]')
            elif not banked and "time bank" in view["seconds"]:
                banked = view["seconds"]  # spent: now act
            if banked and ("check" in buttons or "call" in buttons):
                click_if(driver, '#buttons button[data-verb="check"], #buttons [data-verb="call"]')
            time.sleep(POLL)
    assert banked.startswith("0 s left · time bank "), banked
    assert chose is not None and "Ana: " + chose in view["log"], view["log"]
