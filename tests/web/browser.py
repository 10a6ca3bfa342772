"""Helpers for the browser tests: Debian's headless Chromium through Selenium, and a real
``casino web`` process on loopback. Nothing here downloads a browser."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ROOT = Path(__file__).resolve().parents[2]
WINDOW = (420, 900)
"""A new browser's window size."""
CLICK_LIMIT = 120.0
"""Seconds :func:`click_when` waits for its state and its element (a bound, not a timing)."""
CLICK_POLL = 0.1


def need_browser() -> None:
    """Skip, saying why, where Debian's chromium or chromium-driver is not installed."""
    pytest.importorskip("selenium", reason="selenium (the test extra) is not installed")
    for path, package in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")]:
        if not (os.access(path, os.X_OK) or shutil.which(Path(path).name)):
            pytest.skip(f"{path} is not installed (apt-get install {package})")


def browser(scratch: Path | None = None) -> Any:
    """A new headless Chromium (its own profile, so its own cookies); its temporary files (the
    folders of its profile and its single-instance socket, which a quit Chromium leaves behind)
    go in ``scratch`` when given."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
    ]:
        options.add_argument(flag)
    env = None if scratch is None else dict(os.environ, TMPDIR=str(scratch))
    return webdriver.Chrome(service=Service(CHROMEDRIVER, env=env), options=options)


class Browsers:
    """Headless Chromiums lent to tests and taken back clean, so that one start of Chromium
    (about a second of CPU) serves many tests: a returned browser keeps one tab on
    ``about:blank``, its window at :func:`browser`'s size, no emulated size or media, no
    cookies, no web storage (``localStorage``) and an empty cache."""

    def __init__(self) -> None:
        self._idle: list[Any] = []
        self._scratch = Path(tempfile.mkdtemp(prefix="casino-chromium-"))

    def take(self) -> Any:
        """A clean browser: an idle one, or a new one."""
        return self._idle.pop() if self._idle else browser(self._scratch)

    def give_back(self, driver: Any) -> None:
        """Clean ``driver`` and keep it for the next test; one that cannot be cleaned (it
        crashed, say) is quit instead."""
        try:
            clean(driver)
        except Exception:  # whatever broke it, it is not lent again
            driver.quit()
            return
        self._idle.append(driver)

    def close(self) -> None:
        """Quit every idle browser and remove what they left in their temporary folder."""
        while self._idle:
            self._idle.pop().quit()
        shutil.rmtree(self._scratch, ignore_errors=True)


def clean(driver: Any) -> None:
    """Bring ``driver`` back to a new browser's state (see :class:`Browsers`): besides, the web
    storage (``localStorage``: the sound choice, the cues' test hook) of every origin its tabs
    went to is cleared, since a later server may get the same port (the same origin)."""
    handles = driver.window_handles
    origins = set()
    for handle in handles:
        driver.switch_to.window(handle)
        history = driver.execute_cdp_cmd("Page.getNavigationHistory", {})
        for entry in history["entries"]:
            parts = urlsplit(entry["url"])
            if parts.scheme in ("http", "https"):
                origins.add(f"{parts.scheme}://{parts.netloc}")
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])
    driver.get("about:blank")
    for origin in sorted(origins):
        driver.execute_cdp_cmd(
            "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"}
        )
    driver.execute_cdp_cmd("Page.resetNavigationHistory", {})
    for command in [
        "Emulation.clearDeviceMetricsOverride",
        "Network.clearBrowserCookies",
        "Network.clearBrowserCache",
    ]:
        driver.execute_cdp_cmd(command, {})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    driver.set_window_size(*WINDOW)


def register(driver: Any, url: str, name: str, lang: str, action: str = "register") -> None:
    """Register (or log in, ``action="login"``) as ``name`` in the page's form: the lobby."""
    driver.get(url + action)
    driver.find_element("id", "name").send_keys(name)
    driver.find_element("id", "password").send_keys(f"{name} password")
    click_when(driver, f"#lang option[value={lang}]")
    click_when(driver, "#submit")
    shown(driver, "who")  # the lobby says who is logged in


def shown(driver: Any, element_id: str, seconds: float = 60.0) -> Any:
    """The element once the page that has it is loaded (a bounded wait)."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    located = expected_conditions.presence_of_element_located(("id", element_id))
    return WebDriverWait(driver, seconds).until(located)


def click_if(driver: Any, css: str) -> bool:
    """Click the first element matching ``css``, found afresh now; whether the click landed.
    ``False`` when nothing matches, or when the page redrew the element away (stale), or
    something covers it or it is not yet interactable: the caller looks at the page again."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        ElementNotInteractableException,
        StaleElementReferenceException,
    )

    try:
        nodes = driver.find_elements("css selector", css)
        if not nodes:
            return False
        nodes[0].click()
    except (
        StaleElementReferenceException,
        ElementNotInteractableException,
        ElementClickInterceptedException,
    ):
        return False
    return True


def click_when(
    driver: Any, css: str, ready: Callable[[], bool] | None = None, seconds: float = CLICK_LIMIT
) -> None:
    """Wait until ``ready()`` holds (the state the click acts on; always, when ``None``) and
    click the first element matching ``css``, re-found at each try: a page that redraws under
    the test (a clock's tick, a move pushed by the server) makes a found element stale, and
    the click is tried again only while the state still holds. A ``ready`` that cannot read
    the page yet (it is loading) counts as not ready. Bounded: an :class:`AssertionError`
    after ``seconds``."""
    from selenium.common.exceptions import JavascriptException

    end = time.monotonic() + seconds
    while True:
        try:
            holds = ready is None or ready()
        except JavascriptException:
            holds = False
        if holds and click_if(driver, css):
            return
        if time.monotonic() > end:
            raise AssertionError(f"never clicked {css!r} (its state held: {holds})")
        time.sleep(CLICK_POLL)


@contextmanager
def casino_web(*args: str) -> Iterator[str]:
    """A ``casino web`` process on a free loopback port (its members in a temporary
    database); its base URL."""
    with (
        tempfile.TemporaryDirectory() as folder,
        _casino_web(*args, "--database", str(Path(folder) / "casino.db")) as url,
    ):
        yield url


@contextmanager
def casino_web_on(database: Path, *args: str) -> Iterator[str]:
    """A ``casino web`` process on a free loopback port, its members in ``database``; its
    base URL."""
    with _casino_web(*args, "--database", str(database)) as url:
        yield url


@contextmanager
def _casino_web(*args: str) -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "casino.web", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://[0-9.]+:[0-9]+/", line)
        assert match, line + (process.stderr.read() if process.stderr else "")
        yield match.group(0)
    finally:
        process.terminate()
        process.wait(timeout=30)


PHONE = (390, 844)
DESKTOP = (1440, 900)
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def emulate(driver: Any, size: tuple[int, int]) -> None:
    """Give the page exactly ``size`` CSS pixels (a phone's is a touch screen) and ask it for
    reduced motion (no animation: screenshots are the same each run)."""
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]},
    )


def join(driver: Any, url: str, name: str, lang: str, game: str) -> None:
    """Register ``name`` (speaking ``lang``) and sit at ``game`` (``holdem`` or ``domino``)
    from the lobby."""
    register(driver, url, name, lang)
    click_when(driver, "#sit" if game == "holdem" else "#dominoes")
