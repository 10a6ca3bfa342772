"""Two members in two headless Chromiums and a computer player at one Hold'em table.

They play hands to showdown with the keyboard and the buttons; neither page ever shows the
other's hole cards before a showdown; one tab is closed mid-hand and reopened to the same
seat. A real ``casino web`` process, real time (short pauses); every wait is bounded.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .browser import casino_web, click_if, click_when, register
from .tables import POLL

SNAPSHOT = """
const seats = [...document.querySelectorAll('#seats .seat')].map((s) => ({
  name: s.querySelector('.name').textContent, you: s.classList.contains('you'),
  folded: s.classList.contains('folded'),
  cards: [...s.querySelectorAll('.card')].map((c) => c.dataset.card || null)}));
return {hand: Number(document.body.dataset.hand || 0), seats: seats,
  board: document.querySelectorAll('#board .card').length,
  buttons: [...document.querySelectorAll('#buttons button')].map((b) => b.dataset.verb),
  italic: document.querySelectorAll('#seats i').length};
"""
LIMIT = 150.0


def sit(driver: Any, url: str, name: str, lang: str) -> None:
    register(driver, url, name, lang)
    click_when(driver, "#sit")


def snapshot(driver: Any) -> dict[str, Any]:
    data: dict[str, Any] = driver.execute_script(SNAPSHOT)
    return data


def play(driver: Any, view: dict[str, Any], keyboard: bool) -> None:
    """Check or call: A with the keyboard, B with the mouse."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.action_chains import ActionChains

    verb = "check" if "check" in view["buttons"] else "call"
    if verb not in view["buttons"]:
        return
    if not keyboard:
        click_if(driver, f'#buttons button[data-verb="{verb}"]')  # re-found; else looked again
        return
    with contextlib.suppress(WebDriverException):  # the page changed: the next snapshot says
        ActionChains(driver).send_keys("k" if verb == "check" else "c").perform()


def you(view: dict[str, Any]) -> int:
    return next(k for k, seat in enumerate(view["seats"]) if seat["you"])


def test_two_members_and_a_computer_play_and_a_closed_tab_comes_back(
    tmp_path: Path, browsers: Callable[[], Any]
) -> None:
    with casino_web(
        "--seats", "3", "--tables", "1", "--pause", "0.6", "--think", "0.05", "--seed", "11"
    ) as url:
        run_table(browsers(), browsers(), url, tmp_path)


def run_table(a: Any, b: Any, url: str, tmp_path: Path) -> None:
    sit(a, url, "<i>Ana</i>", "es")
    sit(b, url, "Bo", "en")
    seen: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    own: dict[tuple[str, int], list[str]] = {}
    closed_at: int | None = None
    seat_before: int | None = None
    end = time.monotonic() + LIMIT
    while time.monotonic() < end:
        for key, driver in (("a", a), ("b", b)):
            view = snapshot(driver)
            if not view["seats"]:
                continue
            seen[key].append(view)
            mine = view["seats"][you(view)]["cards"]
            if mine and None not in mine:
                own[(key, view["hand"])] = mine
            play(driver, view, keyboard=key == "a")
        last_b = seen["b"][-1] if seen["b"] else None
        if closed_at is None and last_b and last_b["hand"] >= 2 and last_b["board"] < 5:
            closed_at, seat_before = last_b["hand"], you(last_b)
            b.save_screenshot(str(tmp_path / "holdem-bo-before-closing.png"))
            b.get("about:blank")  # the tab's page is gone: its socket closes mid-hand
            time.sleep(1.0)
            b.get(url + "holdem")
            time.sleep(0.5)
        if closed_at is not None and min(v["hand"] for v in seen["b"][-1:]) >= closed_at + 2:
            break
        time.sleep(POLL)
    a.save_screenshot(str(tmp_path / "holdem-ana.png"))
    b.save_screenshot(str(tmp_path / "holdem-bo.png"))
    assert closed_at is not None, "the table never reached a second hand"
    back = [v for v in seen["b"] if v["hand"] >= closed_at + 1]
    assert back and all(you(v) == seat_before for v in back), "Bo came back to another seat"
    assert seen["b"][-1]["hand"] >= closed_at + 2, "the table did not keep running"
    check_privacy(seen, own)
    names = [seat["name"] for seat in seen["a"][-1]["seats"]]
    assert "<i>Ana</i>" in names and "Bo" in names and len(names) == 3
    assert all(view["italic"] == 0 for view in seen["a"] + seen["b"])  # shown as text


def check_privacy(
    seen: dict[str, list[dict[str, Any]]], own: dict[tuple[str, int], list[str]]
) -> None:
    """Neither page shows the other's hole cards, except both at a showdown (five cards out)."""
    showdowns = 0
    for key, other in (("a", "b"), ("b", "a")):
        for view in seen[key]:
            theirs = own.get((other, view["hand"]))
            for seat in view["seats"]:
                if seat["you"] or not seat["cards"] or None in seat["cards"]:
                    continue
                assert view["board"] == 5, f"{key} saw {seat['name']}'s cards before showdown"
                showdowns += 1
            if theirs is None:
                continue
            shown = [c for s in view["seats"] if not s["you"] for c in s["cards"] if c]
            if view["board"] < 5:
                assert not set(theirs) & set(shown)
    assert showdowns > 0, "no hand reached a showdown"
