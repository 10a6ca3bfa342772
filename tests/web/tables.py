"""What the browser tests of the tables share: reading a page's state, playing a member's
turn by clicks or by keys, the accessibility audit (axe-core, shipped by the PyPI package
``selenium-axe-python``, injected into the page; nothing is fetched) and the screenshots
compared with their baseline in ``docs/screenshots`` (``CASINO_UPDATE_SCREENSHOTS=1``
writes the baseline instead, deliberately, as syrupy's ``--snapshot-update``)."""

from __future__ import annotations

import os
import time
from base64 import b64decode
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from .browser import ROOT, click_when

SHOTS = ROOT / "docs" / "screenshots"
UPDATE = os.environ.get("CASINO_UPDATE_SCREENSHOTS") == "1"
TOLERANCE = 0.002
"""The share of pixels that may differ from the baseline: a digit of a clock, a caret (about
0.05%); the Spanish and English Hold'em tables differ by 0.95%."""
CHANNEL = 40
"""How far (0-255, any channel) a pixel may move before it counts as different."""
LIMIT = 120.0
POLL = 0.2
"""Seconds between two looks at a page that is not there yet: each look is a few milliseconds
of CPU (Python, chromedriver and Chromium), and what the tests wait for stays (a turn, a line
of the log, another hand)."""

HOLDEM = """
const buttons = [...document.querySelectorAll('#buttons button')];
return {hand: Number(document.body.dataset.hand || 0),
  buttons: buttons.map((b) => b.dataset.verb),
  focused: document.activeElement && document.activeElement.dataset.verb || null,
  winner: document.getElementById('winner').textContent,
  board: document.querySelectorAll('#board .card').length,
  lifted: document.querySelectorAll('.card.win').length,
  chips: document.querySelectorAll('#chips .chip').length,
  seats: document.querySelectorAll('#seats .seat').length,
  lang: document.documentElement.lang,
  log: [...document.querySelectorAll('#log li')].map((li) => li.textContent)};
"""
DOMINO = """
return {over: document.body.dataset.over === 'true', turn: document.body.dataset.turn,
  overlay: !document.getElementById('overlay').hidden,
  title: document.getElementById('result-title').textContent,
  playable: document.querySelectorAll('#hand .playable').length,
  targets: [...document.querySelectorAll('.ends .target')].map((b) => b.dataset.end),
  buttons: [...document.querySelectorAll('#buttons button')].map((b) => b.dataset.type),
  line: document.querySelectorAll('#line g g').length,
  focused: document.activeElement && (document.activeElement.dataset.tile
    || document.activeElement.dataset.end || document.activeElement.dataset.type) || null,
  log: [...document.querySelectorAll('#log li')].map((li) => li.textContent)};
"""


def state(driver: Any, script: str) -> dict[str, Any]:
    """The page's state as ``script`` reads it."""
    data: dict[str, Any] = driver.execute_script(script)
    return data


def wait_for(driver: Any, script: str, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Poll the page (a generous deadline) until ``test`` holds; its state then."""
    from selenium.common.exceptions import JavascriptException

    end = time.monotonic() + LIMIT
    while time.monotonic() < end:
        try:
            view = state(driver, script)
        except JavascriptException:  # the page is still loading (the lobby, a redirect)
            time.sleep(POLL)
            continue
        if test(view):
            return view
        time.sleep(POLL)
    raise AssertionError(f"the page never got there: {state(driver, script)}")


def keys(driver: Any, *sequence: str) -> None:
    """Press keys on whatever has the focus (the keyboard alone)."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(*sequence).perform()


def audit(driver: Any) -> list[str]:
    """Every finding of a current axe-core (4.x, shipped by the PyPI package
    ``selenium-axe-python``) on the page as it is now, whatever its impact."""
    spec = find_spec("selenium_axe_python")
    if spec is None or spec.origin is None:
        pytest.skip("selenium-axe-python (the test extra) is not installed")
    source = Path(spec.origin).parent / "axe-core" / "axe.min.js"
    if not driver.execute_script("return typeof axe !== 'undefined'"):  # once a page
        driver.execute_script(source.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations));"
    )
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}" for v in found]


def compare(driver: Any, name: str, tmp_path: Path) -> None:
    """The page's screenshot against ``docs/screenshots/<name>.png``; updating, a screenshot
    that differs from it (beyond the noise) replaces it. The first screenshot of the still
    page (:func:`settle`) that matches the baseline ends it; one that does not is taken again
    until two in a row are alike (:func:`settled_screenshot`), and that one is judged."""
    shot = tmp_path / f"{name}.png"
    baseline = SHOTS / f"{name}.png"
    if not UPDATE:  # a still page that already looks like its baseline needs no second shot
        settle(driver)
        shot.write_bytes(screenshot(driver))
        if difference(shot, baseline) is None:
            return
    settled_screenshot(driver, shot)
    problem = difference(shot, baseline)
    if UPDATE and problem is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        baseline.write_bytes(shot.read_bytes())
        return
    assert problem is None, problem


STILL = """
const done = arguments[arguments.length - 1];
const sheet = document.styleSheets[0];
if (sheet && !document.body.dataset.still) {  // CSSOM: the page's CSP forbids a <style>
  document.body.dataset.still = 'true';
  sheet.insertRule('*, *::before, *::after { caret-color: transparent !important; '
    + 'animation: none !important; transition: none !important; }', sheet.cssRules.length);
  // A scrollbar comes and goes (it shows while a page scrolls, then fades): none at all.
  sheet.insertRule('html { scrollbar-width: none !important; }', sheet.cssRules.length);
}
if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
const frame = () => new Promise((next) => requestAnimationFrame(next));
document.fonts.ready.then(frame).then(frame).then(() => done(true));
"""
"""Makes a page still for its screenshot: its fonts loaded, no caret, animation, transition or
scrollbar (a scrollbar shown while the page scrolls, then faded, made a baseline 1% off on a
busy machine), nothing focused (a focus ring), two frames drawn."""


def settle(driver: Any) -> None:
    """The page still (:data:`STILL`): what a screenshot of it shows is the same each run."""
    driver.execute_async_script(STILL)


SETTLE_TRIES = 5
"""Screenshots taken at most, until two in a row are the same (counted, never timed)."""


def screenshot(driver: Any) -> bytes:
    """The page's viewport as PNG, as WebDriver's screenshot but encoded for speed (the same
    pixels for about half the CPU)."""
    options = {"format": "png", "optimizeForSpeed": True}
    return b64decode(driver.execute_cdp_cmd("Page.captureScreenshot", options)["data"])


def settled_screenshot(driver: Any, shot: Path) -> None:
    """A screenshot of the page once it stands still (:func:`settle`) and two screenshots in a
    row are the same (at most :data:`SETTLE_TRIES`; the last one is kept either way, and then
    judged against the baseline as usual). A busy machine only makes this take longer, never
    differ."""
    settle(driver)
    previous = screenshot(driver)
    for _ in range(SETTLE_TRIES - 1):
        settle(driver)
        current = screenshot(driver)
        if current == previous:
            break
        previous = current
    shot.write_bytes(previous)


def difference(shot: Path, baseline: Path) -> str | None:
    """Why ``shot`` is not ``baseline`` (within :data:`TOLERANCE`), or ``None``."""
    from PIL import Image, ImageChops

    if not baseline.exists():
        return f"no baseline {baseline}: run with CASINO_UPDATE_SCREENSHOTS=1"
    with Image.open(shot) as new, Image.open(baseline) as old:
        if new.size != old.size:
            return f"{shot.name}: {new.size} is not the baseline's {old.size}"
        new_rgb, old_rgb = new.convert("RGB"), old.convert("RGB")
        if new_rgb.tobytes() == old_rgb.tobytes():
            return None  # the same pixels
        red, green, blue = ImageChops.difference(new_rgb, old_rgb).split()
        diff = ImageChops.lighter(ImageChops.lighter(red, green), blue)
        changed = sum(diff.point(lambda v: 255 if v > CHANNEL else 0).histogram()[255:])
    share = changed / (new.size[0] * new.size[1])
    if share > TOLERANCE:
        return f"{shot.name}: {share:.2%} of the pixels differ from the baseline (see {shot})"
    return None


def changed(log: list[str], hand: int | None) -> Callable[[dict[str, Any]], bool]:
    """Whether a page's state moved on from ``log`` (another line, the hand over or another)."""
    return lambda v: v["log"] != log or v.get("overlay", False) or v.get("hand", hand) != hand


def showdown(driver: Any) -> dict[str, Any]:
    """Check or call at each of the member's turns until the hand's winner is shown; the
    Hold'em page's state (:data:`HOLDEM`) then."""
    while True:
        view = wait_for(driver, HOLDEM, lambda v: bool(v["winner"] or v["buttons"]))
        if view["winner"]:
            return view
        check_or_call(driver, view)


def check_or_call(driver: Any, view: dict[str, Any]) -> None:
    """At the member's turn (``view``, the Hold'em page's state): check where they may, else
    call; back once the page has shown the play."""
    verb = "check" if "check" in view["buttons"] else "call"
    click_when(
        driver,
        f'#buttons [data-verb="{verb}"]',
        lambda: bool(state(driver, HOLDEM)["buttons"]),
    )
    wait_for(driver, HOLDEM, changed(view["log"], view["hand"]))
