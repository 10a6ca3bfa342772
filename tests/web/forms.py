"""The members' forms as a test fills them: the lobby's CSRF token and cookie, then
``POST /register``, ``/login`` or ``/join``; and a store in a temporary folder.

The test clients keep no cookies (``DummyCookieJar``), so each request says its own."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient

from casino.web.databases import sqlite_store
from casino.web.sessions import COOKIE, FORM_COOKIE
from casino.web.store import Store

PASSWORD = "correct horse battery"


@contextmanager
def temporary_store(**options: Any) -> Iterator[Store]:
    """A store in an SQLite file of a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        store = sqlite_store(str(Path(folder) / "casino.db"), **options)
        try:
            yield store
        finally:
            store.close()


async def lobby(client: TestClient[Any, Any], page: str = "/register") -> tuple[str, str]:
    """A page's ``casino_form`` cookie and its forms' token."""
    response = await client.get(page)
    assert response.status == 200
    found = re.search(r'name="csrf" value="([^"]+)"', await response.text())
    assert found is not None
    return response.cookies[FORM_COOKIE].value, found.group(1)


async def post_form(
    client: TestClient[Any, Any], action: str, form: dict[str, str], session: str | None = None
) -> Any:
    """``POST action`` with the token of the register page's form (the response, not
    followed)."""
    cookie, token = await lobby(client, "/register")
    cookies = f"{FORM_COOKIE}={cookie}" + (f"; {COOKIE}={session}" if session else "")
    return await client.post(
        action, data={**form, "csrf": token}, headers={"Cookie": cookies}, allow_redirects=False
    )


async def register(
    client: TestClient[Any, Any], name: str, lang: str = "en", action: str = "/register"
) -> str:
    """Register (or, with ``action="/login"``, log in) as ``name``; the session cookie."""
    form = {"name": name, "password": PASSWORD, "lang": lang}
    response = await post_form(client, action, form)
    assert response.status == 303 and response.headers["Location"] == "/", await response.text()
    value: str = response.cookies[COOKIE].value
    return value


async def post_join(client: TestClient[Any, Any], session: str | None, game: str = "holdem") -> Any:
    """``POST /join`` for a game (the response, not followed)."""
    return await post_form(client, "/join", {"game": game}, session)


async def join(
    client: TestClient[Any, Any], name: str, lang: str = "en", game: str = "holdem"
) -> str:
    """Register as ``name`` and go to ``game``; the session cookie's value."""
    cookie = await register(client, name, lang)
    response = await post_join(client, cookie, game)
    assert response.status == 303 and response.headers["Location"] == f"/{game}"
    return cookie


async def until(
    ws: ClientWebSocketResponse, test: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The socket's first message (JSON) that passes ``test`` (the ones before: skipped)."""
    while True:
        data: dict[str, Any] = json.loads(await ws.receive_str())
        if test(data):
            return data
