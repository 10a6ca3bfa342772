"""The lobby's form as a test fills it: its CSRF token and cookie, then ``POST /join``.

The test clients keep no cookies (``DummyCookieJar``), so each request says its own."""

from __future__ import annotations

import re
from typing import Any

from aiohttp.test_utils import TestClient

from casino.web.sessions import COOKIE, FORM_COOKIE


async def lobby(client: TestClient[Any, Any]) -> tuple[str, str]:
    """The lobby's ``casino_form`` cookie and its form's token."""
    page = await client.get("/")
    assert page.status == 200
    found = re.search(r'name="csrf" value="([^"]+)"', await page.text())
    assert found is not None
    return page.cookies[FORM_COOKIE].value, found.group(1)


async def post_join(
    client: TestClient[Any, Any], form: dict[str, str], session: str | None = None
) -> Any:
    """``POST /join`` with the lobby's token (the response, not followed)."""
    cookie, token = await lobby(client)
    cookies = f"{FORM_COOKIE}={cookie}" + (f"; {COOKIE}={session}" if session else "")
    return await client.post(
        "/join",
        data={**form, "csrf": token},
        headers={"Cookie": cookies},
        allow_redirects=False,
    )


async def join(
    client: TestClient[Any, Any], name: str, lang: str = "en", game: str = "holdem"
) -> str:
    """Join as ``name`` (a bankroll of 500); the session cookie's value."""
    form = {"name": name, "bankroll": "500", "lang": lang, "game": game}
    response = await post_join(client, form)
    assert response.status == 303 and response.headers["Location"] == f"/{game}"
    value: str = response.cookies[COOKIE].value
    return value
