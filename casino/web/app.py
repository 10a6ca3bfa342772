"""The aiohttp application: the lobby, the Hold'em page, static files and the WebSocket.

=====================  ===================================================================
route                  what
=====================  ===================================================================
``GET /``              the lobby: who is logged in, their wallet and what is at a table, the
                       tables (blinds, seats taken, stake), the games, the members' wallets
                       (or the way in, saying so when a session has ended)
``GET|POST /register`` a new member (name, password, language): logged in at once
``GET|POST /login``    log in (rate-limited per name in the store); the signed session cookie
``POST /logout``       end the session
``GET /member``        the member's page: bankroll, their games and results, the leaderboard
``POST /join``         a logged-in member goes to a game (``game=holdem|domino``; ``table=N``:
                       the Hold'em table chosen in the lobby's list)
``POST /refill``       the house's refill of an empty wallet (once a day, written to the ledger)
``GET /holdem``        the Hold'em page (back to the lobby without a session); ``?table=N``:
                       that table; ``&watch=1``: watching it (no seat, no hole cards)
``GET /ws/holdem``     the table's WebSocket: JSON views out, ``{"type": "act", …}`` in
                       (``?table=N&watch=1``: a watcher's, views out only)
``GET /domino``        the dominoes page (the member against the computer)
``GET /ws/domino``     the match's WebSocket: views out, ``play``/``draw``/``pass``/``next`` in
``GET /ws/lobby``      the lobby's WebSocket: its chat (:mod:`casino.web.chat`; the tables'
                       sockets carry their room's chat too: ``{"type": "chat", …}``)
``GET /static/…``      the page's CSS and JavaScript, from the package
=====================  ===================================================================

Every response (pages, redirects, errors, the sockets' handshakes) carries :data:`HEADERS`;
every error is a page in the member's language (:meth:`casino.web.handlers.PageServer._errors`:
the ``text`` a refusal is raised with is a ``web`` catalog id), and so is a socket's ``error``;
every ``POST`` must carry the lobby's CSRF token (else 403, logged). What one client may
cost is in :class:`casino.web.guard.Limits`. Nobody plays without logging in: the games'
pages send a visitor to the lobby, and their sockets refuse a session without a member. The
members, their wallets and every game's money are in :class:`casino.web.store.Store`; on
start the games a stopped server left open are voided (their stakes returned).

:class:`WebServer` is this module's sockets over :class:`casino.web.handlers.PageServer`'s
pages, over :class:`casino.web.serving.ServerCore`'s state, start and stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from socket import SO_SNDBUF, SOL_SOCKET
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from casino.web.chat import DOMINOES, LOBBY, Viewer, holdem_room
from casino.web.domino import DominoGame
from casino.web.guard import LOG, Bucket, Flooding, Outbox
from casino.web.handlers import PageServer
from casino.web.holdem import WebTable
from casino.web.holdemseats import Member
from casino.web.serving import said
from casino.web.sessions import (
    COOKIE,
    Profile,
)
from casino.web.words import fill

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
        "form-action 'self'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
PRIVATE = "no-store"
"""Cache-Control of every response but the static files (pages carry session data)."""
MOST_MESSAGE = 4096
HEARTBEAT = 20.0
CLOSE_SECONDS = 2.0
"""Real seconds to wait for a closing socket's peer (then its connection is aborted)."""

Handle = Callable[[Any], Awaitable[None]]
TOO_MANY = "too many are watching this table: try again later"
HELD_SEAT = (
    "Your seat at table {held} is held until its hand ends: then you can sit at table {asked}."
)
OTHER_SEAT = "You have a seat at table {held}: leave it (its Lobby link) to sit at table {asked}."


class WebServer(PageServer):
    """The tables and the members' sessions behind one aiohttp application."""

    def app(self) -> web.Application:
        """The application, its tables started with it and stopped with it."""
        app = web.Application(middlewares=[self._errors, self._forms])
        app.router.add_get("/", self.lobby)
        app.router.add_get("/register", self.register_page)
        app.router.add_post("/register", self.register)
        app.router.add_get("/login", self.login_page)
        app.router.add_post("/login", self.login)
        app.router.add_post("/logout", self.logout)
        app.router.add_get("/member", self.member_page)
        app.router.add_get(r"/hand/{game:\d{1,18}}", self.hand_page)
        app.router.add_get(r"/hand/{game:\d{1,18}}.phh", self.hand_phh)
        app.router.add_post("/join", self.join)
        app.router.add_post("/refill", self.refill)
        app.router.add_get("/holdem", self.holdem_page)
        app.router.add_get("/ws/holdem", self.holdem_socket)
        app.router.add_get("/domino", self.domino_page)
        app.router.add_get("/ws/domino", self.domino_socket)
        app.router.add_get("/ws/lobby", self.lobby_socket)
        app.router.add_get("/static/{name}", self.static)
        app.on_response_prepare.append(_headers)
        app.on_startup.append(self._start)
        app.on_cleanup.append(self._stop)
        return app

    # --- sockets ----------------------------------------------------------------------

    async def domino_socket(self, request: web.Request) -> web.StreamResponse:
        """One dominoes page's WebSocket; the match goes on (its clock too) while it is away."""
        return await self._socket(request, self._domino)

    async def holdem_socket(self, request: web.Request) -> web.StreamResponse:
        """One page's WebSocket: views out, intentions in, until the page closes (``?table=N``:
        the table the member chose in the lobby)."""
        text = request.query.get("table", "")
        asked = int(text) if text.isdigit() and len(text) < 4 else None
        watch = request.query.get("watch") == "1"

        async def serve(
            socket: web.WebSocketResponse, outbox: Outbox, key: str, profile: Profile
        ) -> None:
            if watch:
                await self._watch(socket, outbox, key, profile, asked)
            else:
                await self._holdem(socket, outbox, key, profile, asked)

        return await self._socket(request, serve)

    async def lobby_socket(self, request: web.Request) -> web.StreamResponse:
        """The lobby page's WebSocket: the lobby's chat."""

        async def serve(
            socket: web.WebSocketResponse, outbox: Outbox, key: str, profile: Profile
        ) -> None:
            await self._chatting(socket, outbox, key, profile, LOBBY, _ignored)

        return await self._socket(request, serve)

    async def _chatting(
        self,
        socket: web.WebSocketResponse,
        outbox: Outbox,
        key: str,
        profile: Profile,
        room: str,
        handle: Handle,
        game: Callable[[], int | None] = lambda: None,
        *,
        reads_only: bool = False,
    ) -> bool:
        """Serve the socket's messages, in ``room``'s chat too: a ``chat`` message is the
        chat's (said in the hand ``game()`` names), any other ``handle``'s; whether the socket
        was dropped for flooding. ``reads_only``: the socket's member sees the room's lines
        and may not post (a watcher of a table)."""
        post = outbox.post
        member = None if reads_only else profile.member
        await self.chat.join(room, Viewer(member, profile.lang), post)

        async def routed(data: Any) -> None:
            if isinstance(data, dict) and data.get("type") == "chat":
                await self.chat.receive(room, post, data, game())
            else:
                await handle(data)

        try:
            return await self._flood_checked(socket, outbox, key, routed)
        finally:
            self.chat.leave(room, post)

    async def _socket(
        self,
        request: web.Request,
        serve: Callable[[web.WebSocketResponse, Outbox, str, Profile], Awaitable[None]],
    ) -> web.StreamResponse:
        """Open the socket, check the session, serve the game through an :class:`Outbox`."""
        _same_origin(request)
        socket = web.WebSocketResponse(
            heartbeat=HEARTBEAT,
            max_msg_size=MOST_MESSAGE,
            timeout=CLOSE_SECONDS,
            writer_limit=self.limits.socket_buffer,
        )
        transport = request.transport
        if transport is not None:
            _small_buffer(transport, self.limits.socket_buffer)
        await socket.prepare(request)
        cookie = request.cookies.get(COOKIE)
        key, profile = self.sessions.token_of(cookie), self.sessions.profile_of(cookie)
        outbox = Outbox(
            socket,
            profile.name if profile else str(request.remote),
            self.limits,
            lambda: transport.abort() if transport is not None else None,
        )
        try:
            if key is None or profile is None:
                LOG.warning("socket without a valid session from %s", request.remote)
                reason = said(self.lang_of(request), "no session: join in the lobby")
                outbox.post({"type": "error", "reason": reason})
            else:
                self.outboxes.setdefault(key, set()).add(outbox)
                await serve(socket, outbox, key, profile)
        except ConnectionError:
            pass  # dropped: its reason is logged
        finally:
            if key is not None:
                self.outboxes.get(key, set()).discard(outbox)
                if not self.outboxes.get(key, True):
                    del self.outboxes[key]
            await self._close(socket, outbox)
        return socket

    async def _close(self, socket: web.WebSocketResponse, outbox: Outbox) -> None:
        """Send what is waiting and close, within the send deadline; else abort."""
        try:
            async with asyncio.timeout(self.limits.send_seconds):
                await outbox.flush()
                if outbox.dropped is None:
                    await socket.close()
        except TimeoutError:
            outbox.drop("does not read (closing)")
        await outbox.stop()

    async def _messages(self, socket: web.WebSocketResponse, key: str, handle: Handle) -> None:
        """Hand each message to ``handle`` while the session lives and the client keeps to
        its budget (over it: ignored; far over it: dropped, logged once)."""
        bucket = self.buckets.setdefault(
            key, Bucket(self.clock, self.limits.rate, self.limits.burst)
        )
        async for message in socket:
            if message.type is not WSMsgType.TEXT or not self.sessions.use(key):
                return
            if bucket.take():
                await handle(_decoded(message.data))
            elif bucket.flooding:
                raise Flooding()

    async def _domino(
        self, socket: web.WebSocketResponse, outbox: Outbox, key: str, profile: Profile
    ) -> None:
        game = self.game_of(key, profile)

        async def send(data: dict[str, Any]) -> None:
            outbox.post(data)

        game.send = send
        await game.show()
        try:
            await self._chatting(
                socket, outbox, key, profile, DOMINOES, game.receive, lambda: game.game
            )
        finally:
            if game.send is send:
                game.send = None

    async def _flood_checked(
        self, socket: web.WebSocketResponse, outbox: Outbox, key: str, handle: Handle
    ) -> bool:
        """Serve the socket's messages; whether it was dropped for flooding."""
        try:
            await self._messages(socket, key, handle)
        except Flooding:
            outbox.drop(f"floods (over {self.limits.burst} messages past its budget)")
            return True
        return False

    def game_of(self, key: str, profile: Profile) -> DominoGame:
        """The session's dominoes match (a new one the first time)."""
        if key not in self.dominoes:
            game = DominoGame(
                profile.name,
                profile.lang,
                profile.member,
                self.bank,
                self.clock,
                self.seeds.getrandbits(64),
                self.settings.move_seconds,
                self.settings.bot_delay,
                f"{self.prefix}dominoes",
            )
            self.dominoes[key] = (game, self._watched(game.run(), "a dominoes match"))
        return self.dominoes[key][0]

    def seat(self, profile: Profile, chosen: int | None = None) -> tuple[WebTable, Member] | None:
        """The member's seat: the one they had (whichever session), else a free one at the
        ``chosen`` table (1..), else at the first with one (seats long away are freed)."""
        for table in self.tables:
            member = table.seat_of(profile.member)
            if member is not None:
                member.lang = profile.lang
                return table, member
        tables = [t for t in self.tables if not t.chosen_only]
        if chosen is not None and 1 <= chosen <= len(self.tables):
            tables = [self.tables[chosen - 1]]
        for table in tables:
            table.sweep()
            member = table.sit(profile.member, profile.name, profile.lang)
            if member is not None:
                return table, member
        return None

    def held_elsewhere(self, profile: Profile, asked: int | None) -> str | None:
        """Why the member cannot sit at the ``asked`` table (1..), in their language: their
        seat at another table holds them (until its hand ends, when they left it during one;
        else until they leave it). ``None``: no other table holds them (or none was asked)."""
        if asked is None or not 1 <= asked <= len(self.tables):
            return None
        for table in self.tables:
            member = table.seat_of(profile.member)
            if member is None or table.number == asked:
                continue
            template = HELD_SEAT if member.leaving and table.dealing else OTHER_SEAT
            return fill(said(profile.lang, template), profile.lang, held=table.number, asked=asked)
        return None

    async def _holdem(
        self,
        socket: web.WebSocketResponse,
        outbox: Outbox,
        key: str,
        profile: Profile,
        asked: int | None = None,
    ) -> None:
        elsewhere = self.held_elsewhere(profile, asked)
        if elsewhere is not None:
            outbox.post({"type": "error", "reason": elsewhere})
            return
        # The wallet is read once, before the seat is taken: nothing may wait between taking
        # it and the page's connect (a seat with no page that is not away would be played for
        # nobody).
        wallet = await self.bank.balance(profile.member)
        refused = self._seat_refused(profile, asked, wallet)
        if refused is not None:
            outbox.post({"type": "error", "reason": said(profile.lang, refused)})
            return
        place = self.seat(profile, asked)
        if place is None:
            outbox.post({"type": "error", "reason": said(profile.lang, "no free seat")})
            return
        table, member = place

        async def send(data: dict[str, Any]) -> None:
            outbox.post(data)

        member.wallet = wallet  # what the seat shows out of a hand, whether it may start
        await table.connect(member, send)  # the page's first view says both
        flooded = False
        try:
            flooded = await self._chatting(
                socket,
                outbox,
                key,
                profile,
                holdem_room(table.number),
                lambda data: table.receive(member, data),
                lambda: table.game,
            )
        finally:
            table.leave(member, send)
            if flooded and member.send is None:  # dropped for flooding: not waited for
                table.depart(member, grace=False)

    def _seat_refused(self, profile: Profile, asked: int | None, wallet: int) -> str | None:
        """Why the member, ``wallet`` in their wallet, may not sit down at table ``asked``
        (the table's answer, :meth:`WebTable.refuses`: a ``web`` message id), or ``None``
        (no table asked, or seated already anywhere: back there)."""
        if asked is None or not 1 <= asked <= len(self.tables):
            return None
        if any(t.seat_of(profile.member) is not None for t in self.tables):
            return None
        table = self.tables[asked - 1]
        refused = table.refuses(wallet)
        if refused is not None:
            LOG.info("table %d: %r may not sit down: %s", table.number, profile.name, refused)
        return refused

    async def _watch(
        self,
        socket: web.WebSocketResponse,
        outbox: Outbox,
        key: str,
        profile: Profile,
        asked: int | None,
    ) -> None:
        """A member watches table ``asked`` (``?watch=1``): its views without hole cards,
        counted while the socket is open; no money moves (no seat, no stake)."""
        if asked is None or not 1 <= asked <= len(self.tables):
            outbox.post({"type": "error", "reason": said(profile.lang, "no such table")})
            return
        table = self.tables[asked - 1]
        if len(table.watchers) >= table.settings.watchers:
            LOG.warning("table %d: watch refused to %r: full", table.number, profile.name)
            outbox.post({"type": "error", "reason": said(profile.lang, TOO_MANY)})
            return
        watcher = table.watch(profile.member, profile.name, profile.lang)

        async def send(data: dict[str, Any]) -> None:
            outbox.post(data)

        try:
            await table.open_watch(watcher, send)
            await self._chatting(
                socket,
                outbox,
                key,
                profile,
                holdem_room(table.number),
                lambda data: table.hear(watcher, data),
                reads_only=True,
            )
        finally:
            await table.close_watch(watcher)


def _same_origin(request: web.Request) -> None:
    """Refuse (403, logged) a socket opened by a page of another site."""
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        LOG.warning("socket from another site refused: %.100r", origin)
        raise web.HTTPForbidden(text="another site's page may not open this socket")


def _small_buffer(transport: asyncio.Transport, size: int) -> None:
    """Keep the kernel's send buffer of the connection, and what it keeps unwritten, to
    ``size`` bytes (a send then waits, and its deadline runs)."""
    transport.set_write_buffer_limits(high=size)
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(SOL_SOCKET, SO_SNDBUF, size)


async def _ignored(data: Any) -> None:
    """What the lobby's socket does with anything but chat: nothing."""


def _decoded(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text[:200]


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response, errors and redirects too: the security headers, and no caching of
    anything but the static files."""
    response.headers.update(HEADERS)
    response.headers.setdefault("Cache-Control", PRIVATE)
