"""What the web tests share across modules: the browsers (started once, lent to each test)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .browser import Browsers, need_browser


@pytest.fixture(scope="session")
def browser_pool() -> Iterator[Browsers]:
    """The session's headless Chromiums (skipped where there is none)."""
    need_browser()
    pool = Browsers()
    yield pool
    pool.close()


@pytest.fixture
def browsers(browser_pool: Browsers) -> Iterator[Callable[[], Any]]:
    """Gives the test a clean headless Chromium at each call; all are taken back after it."""
    lent: list[Any] = []

    def take() -> Any:
        lent.append(browser_pool.take())
        return lent[-1]

    yield take
    for driver in lent:
        browser_pool.give_back(driver)
