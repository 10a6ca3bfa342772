"""A member plays a whole Hold'em hand and a whole dominoes hand in headless Chromium, by
clicks alone and by the keyboard alone, at a phone's size and a desktop's. Real ``casino web``
processes (seeded, long clocks so nothing times out); every wait is bounded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .browser import SIZES, casino_web, click_when, emulate, join
from .tables import DOMINO, HOLDEM, changed, keys, state, wait_for

CLICK_TRIES = 50
"""How many times :func:`drag` finds its tile again after a redraw made it stale."""


@pytest.fixture(params=sorted(SIZES))
def driver(request: pytest.FixtureRequest, browsers: Callable[[], Any]) -> Any:
    """A headless Chromium at a phone's or a desktop's size."""
    page = browsers()
    emulate(page, SIZES[request.param])
    return page


def test_holdem_hands_by_clicks_then_by_keys(driver: Any) -> None:
    args = ("--seats", "3", "--seed", "5", "--think", "0.05", "--pause", "1.5", "--timeout", "600")
    with casino_web(*args) as url:
        join(driver, url, "Zoe", "es", "holdem")
        wait_for(driver, HOLDEM, lambda v: bool(v["buttons"]))
        assert every_control_reached_by_tab(driver)
        hand = wait_for(driver, HOLDEM, lambda v: v["hand"] >= 1)["hand"]
        for by_keys in (False, True):
            acted = 0
            for _ in range(3):  # a hand folded round to the member's blind asks nothing of it
                acted = holdem_hand(driver, hand, by_keys)
                hand = wait_for(driver, HOLDEM, after(hand))["hand"]
                if acted:
                    break
            assert acted > 0, "the member never had a turn"


CONTROLS = """
return [...document.querySelectorAll('button, input, a[href]')]
  .filter((node) => node.offsetParent !== null).map((node) => node.outerHTML);
"""


def every_control_reached_by_tab(driver: Any) -> bool:
    """Whether Tab, pressed round the page, reaches every visible control (none is skipped)."""
    controls = set(driver.execute_script(CONTROLS))
    reached = set()
    for _ in range(2 * len(controls) + 2):
        keys(driver, "\ue004")
        reached.add(driver.execute_script("return document.activeElement.outerHTML"))
    assert len(controls) >= 7  # the lobby link, history, slider, 3 presets, fold, call, raise
    assert controls <= reached, controls - reached
    return True


def holdem_hand(driver: Any, hand: int, by_keys: bool) -> int:
    """Act at each of the member's turns until ``hand`` ends; how many actions."""
    from selenium.common.exceptions import WebDriverException

    acted = raised = 0

    def turn() -> bool:
        """Still the member's turn in ``hand``."""
        now = state(driver, HOLDEM)
        return now["hand"] == hand and not now["winner"] and bool(now["buttons"])

    while True:
        view = wait_for(
            driver, HOLDEM, lambda v: v["hand"] != hand or bool(v["winner"]) or bool(v["buttons"])
        )
        if view["hand"] != hand or view["winner"]:
            break
        assert view["lang"] == "es" and view["seats"] == 3
        try:
            if by_keys:
                assert view["focused"] in ("check", "call")  # the focus is on the table
                keys(driver, "r" if not raised and "raise" in view["buttons"] else "\ue007")
            elif not raised and "raise" in view["buttons"]:
                click_when(driver, "#presets button", turn)
                click_when(driver, '#buttons [data-verb="raise"]', turn)
            else:
                verb = view["focused"]
                click_when(driver, f'#buttons [data-verb="{verb}"]', turn)
        except WebDriverException:
            continue  # the keys went to a page that changed under us
        raised += "raise" in view["buttons"]
        acted += 1
        wait_for(driver, HOLDEM, changed(view["log"], hand))
    if view["hand"] == hand:
        assert " gana " in view["winner"]  # '<name> gana 30 [con ...]'
        if view["board"] == 5 and "con" in view["winner"]:
            assert view["lifted"] >= 5  # the winning five cards are lifted
    return acted


def test_domino_hands_by_clicks_then_by_keys(driver: Any) -> None:
    args = ("--seed", "3", "--think", "0.05", "--move-seconds", "600")
    with casino_web(*args) as url:
        join(driver, url, "Zoe", "en", "domino")
        wait_for(driver, DOMINO, lambda v: v["overlay"])
        click_when(driver, "#next", lambda: bool(state(driver, DOMINO)["overlay"]))
        end = domino_hand(driver, by_keys=False)
        assert end["title"] in ("You win the hand", "The computer wins the hand", "A drawn hand")
        keys(driver, "n")
        end = domino_hand(driver, by_keys=True)
        assert end["log"][-1].startswith("Bankrolls: you $")


def domino_hand(driver: Any, by_keys: bool) -> dict[str, Any]:
    """Play the member's turns until the hand's overlay says how it ended."""
    played = dragged = 0

    def yours() -> bool:
        """Still the member's turn."""
        now = state(driver, DOMINO)
        return now["turn"] == "you" and not now["overlay"]

    wait_for(driver, DOMINO, lambda v: not v["overlay"])
    while True:
        view = wait_for(driver, DOMINO, lambda v: v["overlay"] or v["turn"] == "you")
        if view["overlay"]:
            assert played > 0
            assert dragged or by_keys or view["line"] <= 1  # a tile was dragged onto an end
            return view
        before = view["log"]
        if view["playable"] and view["line"] and not by_keys and not dragged:
            played, dragged = played + 1, 1
            drag(driver)
        elif view["playable"]:
            played += 1
            if by_keys:
                assert view["focused"] is not None  # the first playable tile has the focus
                keys(driver, "\ue007")
            else:
                click_when(driver, "#hand .playable", yours)
            view = state(driver, DOMINO)
            if view["targets"]:  # the tile fits both ends: now the end
                if by_keys:
                    keys(driver, *(["\ue004"] if view["targets"][0] == "right" else []), "\ue007")
                else:
                    click_when(driver, ".ends .target", yours)
        else:
            played += 1
            kind = view["buttons"][0]
            if by_keys:
                keys(driver, kind[0])
            else:
                click_when(driver, f'#buttons [data-type="{kind}"]', yours)
        wait_for(driver, DOMINO, changed(before, None))


def drag(driver: Any) -> None:
    """Drag the first playable tile onto an end it fits (pointer events, as a finger); both
    re-found while a redraw makes them stale (bounded)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.action_chains import ActionChains

    for _ in range(CLICK_TRIES):
        try:
            tile = driver.find_element("css selector", "#hand .playable")
            end = driver.find_element("id", "end-" + tile.get_attribute("data-ends").split()[0])
            chain = ActionChains(driver).click_and_hold(tile).move_by_offset(5, -20)
            chain.move_to_element(end).release().perform()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError("the tile to drag was redrawn at every try")


def after(hand: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a Hold'em page shows a hand after ``hand``."""
    return lambda v: int(v["hand"]) > hand
