"""A member plays a whole dominoes hand in a headless Chromium, and once lets the clock run
out: the server makes the automatic move. A real ``casino web`` process with a 2-second clock
(the one test where the real clock runs); every wait is bounded."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .browser import casino_web, click_if, click_when, register
from .tables import wait_for as wait_for_script

SNAPSHOT = """
return {over: document.body.dataset.over === 'true', turn: document.body.dataset.turn,
  log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
  moves: document.querySelectorAll('#hand .playable').length,
  seconds: document.getElementById('seconds').textContent,
  clock: getComputedStyle(document.getElementById('clock')).display !== 'none',
  targets: document.querySelectorAll('.ends .target').length,
  tiles: document.querySelectorAll('#hand svg').length};
"""


def test_a_whole_hand_with_one_time_out(tmp_path: Path, browsers: Callable[[], Any]) -> None:
    with casino_web("--move-seconds", "2", "--think", "0.05", "--seed", "4") as url:
        play_hand(browsers(), url, tmp_path)


def play_hand(driver: Any, url: str, tmp_path: Path) -> None:
    register(driver, url, "Zoe", "en")
    click_when(driver, "#dominoes")
    wait_for(driver, lambda v: v["over"])
    click_when(driver, '#overlay button[data-type="next"]', lambda: snapshot(driver)["over"])
    view = wait_for(driver, lambda v: v["turn"] == "you")
    assert view["clock"] and view["seconds"] in ("1", "2") and view["tiles"] >= 7
    driver.save_screenshot(str(tmp_path / "domino-countdown.png"))
    view = wait_for(driver, lambda v: any("automatic move" in line for line in v["log"]))
    assert "Time is up (1 of 3 in a row): an automatic move." in view["log"]
    while not view["over"]:
        # Each click re-finds its element and is tried on the page as it is now: the 2-second
        # clock may redraw it (a stale element is just looked at again).
        if view["turn"] == "you":
            if not view["targets"]:  # else a tile that fits both ends was picked: the end
                click_if(driver, "#hand .playable, #buttons button")
            click_if(driver, ".ends .target")
        time.sleep(0.1)
        view = wait_for(driver, lambda v: True)
    driver.save_screenshot(str(tmp_path / "domino-end.png"))
    ends = (
        "You win the hand and $10.",
        "The computer wins the hand and $10.",
        "A drawn hand: no money moves.",
    )
    assert any(line in ends for line in view["log"]), view["log"]
    assert not view["clock"]  # no countdown once the hand is over
    assert view["log"][-1].startswith("Bankrolls: you $")  # the log runs oldest first
    assert sum(line.startswith("Time is up") for line in view["log"]) == 1


def snapshot(driver: Any) -> dict[str, Any]:
    """The page's state now."""
    data: dict[str, Any] = driver.execute_script(SNAPSHOT)
    return data


def wait_for(driver: Any, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The page's state once ``test`` holds (bounded; a page still loading is waited for)."""
    return wait_for_script(driver, SNAPSHOT, test)
