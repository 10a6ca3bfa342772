"""The aiohttp application: the lobby, the Hold'em page, static files and the WebSocket.

=====================  ===================================================================
route                  what
=====================  ===================================================================
``GET /``              the lobby (name, bankroll, language)
``POST /join``         remember the member, set the signed session cookie, go to the table
``GET /holdem``        the Hold'em page (back to the lobby without a session)
``GET /ws/holdem``     the table's WebSocket: JSON views out, ``{"type": "act", …}`` in
``GET /domino``        the dominoes page (the member against the computer)
``GET /ws/domino``     the match's WebSocket: views out, ``play``/``draw``/``pass``/``next`` in
``GET /static/…``      the page's CSS and JavaScript, from the package
=====================  ===================================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from casino.clock import Clock, MonotonicClock
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES
from casino.web.domino import DominoGame
from casino.web.holdem import LOG, Member, TableSettings, WebTable
from casino.web.sessions import COOKIE, MOST_BANKROLL, Profile, Sessions, clean_name

STATIC = resources.files("casino.web") / "static"
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
MOST_MESSAGE = 4096


class WebServer:
    """The tables and the members' sessions behind one aiohttp application."""

    def __init__(
        self,
        settings: TableSettings,
        tables: int = 1,
        seed: int | None = None,
        clock: Clock | None = None,
        secret: bytes | None = None,
    ) -> None:
        self.settings = settings
        self.clock: Clock = clock or MonotonicClock()
        self.sessions = Sessions(secret)
        master = random.Random(seed)
        self.tables = [
            WebTable(k + 1, settings, self.clock, master.getrandbits(64)) for k in range(tables)
        ]
        self.tasks: list[asyncio.Task[None]] = []
        self.dominoes: dict[str, DominoGame] = {}
        self.seeds = random.Random(master.getrandbits(64))

    def app(self) -> web.Application:
        """The application, its tables started with it and stopped with it."""
        app = web.Application(middlewares=[_headers])
        app.router.add_get("/", self.lobby)
        app.router.add_post("/join", self.join)
        app.router.add_get("/holdem", self.holdem_page)
        app.router.add_get("/ws/holdem", self.holdem_socket)
        app.router.add_get("/domino", self.domino_page)
        app.router.add_get("/ws/domino", self.domino_socket)
        app.router.add_get("/static/{name}", self.static)
        app.on_startup.append(self._start)
        app.on_cleanup.append(self._stop)
        return app

    async def _start(self, app: web.Application) -> None:
        self.tasks = [asyncio.create_task(table.run()) for table in self.tables]

    async def _stop(self, app: web.Application) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # --- pages ------------------------------------------------------------------------

    async def lobby(self, request: web.Request) -> web.StreamResponse:
        """The lobby page."""
        return _page("index.html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        """A file of the page (CSS, JavaScript) from the package."""
        name = request.match_info["name"]
        kinds = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
        kind = next((v for k, v in kinds.items() if name.endswith(k)), None)
        item = STATIC / name
        if kind is None or "/" in name or name.startswith(".") or not item.is_file():
            raise web.HTTPNotFound()
        return web.Response(body=item.read_bytes(), content_type=kind)

    async def join(self, request: web.Request) -> web.StreamResponse:
        """The lobby's form: remember the member and send them to the table."""
        form = await request.post()
        name = clean_name(str(form.get("name", "")))
        lang = str(form.get("lang", DEFAULT_LANGUAGE))
        bankroll_text = str(form.get("bankroll", "1000")).strip()
        if not name or lang not in LANGUAGES:
            raise web.HTTPBadRequest(text="a name and a language (es, en) are needed")
        bankroll = int(bankroll_text) if bankroll_text.isdigit() and len(bankroll_text) < 8 else 0
        if not 1 <= bankroll <= MOST_BANKROLL:
            raise web.HTTPBadRequest(text=f"the bankroll is a whole number, 1 to {MOST_BANKROLL}")
        game = "domino" if form.get("game") == "domino" else "holdem"
        cookie = self.sessions.start(Profile(name, bankroll, lang), request.cookies.get(COOKIE))
        response = web.HTTPSeeOther(f"/{game}")
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict")
        raise response

    async def holdem_page(self, request: web.Request) -> web.StreamResponse:
        """The Hold'em table's page."""
        if self.sessions.profile_of(request.cookies.get(COOKIE)) is None:
            raise web.HTTPSeeOther("/")
        return _page("holdem.html")

    async def domino_page(self, request: web.Request) -> web.StreamResponse:
        """The dominoes page."""
        if self.sessions.profile_of(request.cookies.get(COOKIE)) is None:
            raise web.HTTPSeeOther("/")
        return _page("domino.html")

    async def domino_socket(self, request: web.Request) -> web.StreamResponse:
        """One dominoes page's WebSocket; the match goes on (its clock too) while it is away."""
        _same_origin(request)
        socket = web.WebSocketResponse(heartbeat=20, max_msg_size=MOST_MESSAGE)
        await socket.prepare(request)
        cookie = request.cookies.get(COOKIE)
        key, profile = self.sessions.token_of(cookie), self.sessions.profile_of(cookie)
        if key is None or profile is None:
            LOG.warning("socket without a valid session from %s", request.remote)
            await socket.send_json({"type": "error", "reason": "no session: join in the lobby"})
            await socket.close()
            return socket
        game = self.dominoes.get(key)
        if game is None:
            game = self.dominoes[key] = DominoGame(
                profile.name,
                profile.lang,
                profile.bankroll,
                self.clock,
                self.seeds.getrandbits(64),
                self.settings.move_seconds,
                self.settings.bot_delay,
            )
            self.tasks.append(asyncio.create_task(game.run()))

        async def send(data: dict[str, Any]) -> None:
            await socket.send_json(data)

        game.send = send
        await game.show()
        try:
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    break
                await game.receive(_decoded(message.data))
        finally:
            if game.send is send:
                game.send = None
        return socket

    # --- the table's socket -----------------------------------------------------------

    def seat(self, key: str, profile: Profile) -> tuple[WebTable, Member] | None:
        """The member's seat: the one they had, else a free one."""
        for table in self.tables:
            member = table.seat_of(key)
            if member is not None:
                return table, member
        for table in self.tables:
            member = table.sit(key, profile.name, profile.lang, profile.bankroll)
            if member is not None:
                return table, member
        return None

    async def holdem_socket(self, request: web.Request) -> web.StreamResponse:
        """One page's WebSocket: views out, intentions in, until the page closes."""
        _same_origin(request)
        socket = web.WebSocketResponse(heartbeat=20, max_msg_size=MOST_MESSAGE)
        await socket.prepare(request)
        cookie = request.cookies.get(COOKIE)
        key, profile = self.sessions.token_of(cookie), self.sessions.profile_of(cookie)
        if key is None or profile is None:
            LOG.warning("socket without a valid session from %s", request.remote)
            await socket.send_json({"type": "error", "reason": "no session: join in the lobby"})
            await socket.close()
            return socket
        place = self.seat(key, profile)
        if place is None:
            await socket.send_json({"type": "error", "reason": "no free seat"})
            await socket.close()
            return socket
        table, member = place

        async def send(data: dict[str, Any]) -> None:
            await socket.send_json(data)

        await table.connect(member, send)
        try:
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    break
                await table.receive(member, _decoded(message.data))
        finally:
            table.leave(member, send)
        return socket


def _same_origin(request: web.Request) -> None:
    """Refuse (403, logged) a socket opened by a page of another site."""
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        LOG.warning("socket from another site refused: %.100r", origin)
        raise web.HTTPForbidden(text="another site's page may not open this socket")


def _decoded(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text[:200]


def _page(name: str) -> web.Response:
    return web.Response(
        body=(STATIC / name).read_bytes(), content_type="text/html", charset="utf-8"
    )


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    response.headers.update(HEADERS)
    return response
