"""What the web tests share across modules, each started once: the browsers (lent to each test)
and a PostgreSQL server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .browser import Browsers, need_browser


@pytest.fixture(scope="package")
def postgres() -> Iterator[str]:
    """A real PostgreSQL server for every web test (skipped with its reason): each test makes
    its own database on it (:func:`.postgres_server.fresh_database`)."""
    pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg (the postgres extra)")
    from . import postgres_server

    try:
        with postgres_server.start() as url:
            yield url
    except postgres_server.Unavailable as why:
        pytest.skip(str(why))


@pytest.fixture(scope="package")
def browser_pool() -> Iterator[Browsers]:
    """The web tests' headless Chromiums, quit after the last of them (skipped where there is
    none)."""
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
