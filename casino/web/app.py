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
``GET /holdem``        the Hold'em page (back to the lobby without a session)
``GET /ws/holdem``     the table's WebSocket: JSON views out, ``{"type": "act", …}`` in
``GET /domino``        the dominoes page (the member against the computer)
``GET /ws/domino``     the match's WebSocket: views out, ``play``/``draw``/``pass``/``next`` in
``GET /static/…``      the page's CSS and JavaScript, from the package
=====================  ===================================================================

Every response (pages, redirects, errors, the sockets' handshakes) carries :data:`HEADERS`;
every error is a page in the member's language (:meth:`WebServer._errors`: the ``text`` a
refusal is raised with is a ``web`` catalog id), and so is a socket's ``error``;
every ``POST`` must carry the lobby's CSRF token (else 403, logged). What one client may
cost is in :class:`casino.web.guard.Limits`. Nobody plays without logging in: the games'
pages send a visitor to the lobby, and their sockets refuse a session without a member. The
members, their wallets and every game's money are in :class:`casino.web.store.Store`; on
start the games a stopped server left open are voided (their stakes returned).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from importlib import resources
from socket import SO_SNDBUF, SOL_SOCKET
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from casino.clock import Clock, MonotonicClock
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES
from casino.stopping import TaskFailed, failure_of
from casino.web import pages
from casino.web.bank import Bank
from casino.web.domino import DominoGame
from casino.web.guard import LOG, Bucket, Flooding, Limits, Outbox, QuietLog
from casino.web.holdem import WebTable
from casino.web.holdemseats import Member, TableSettings
from casino.web.sessions import (
    COOKIE,
    FORM_COOKIE,
    FORM_FIELD,
    Profile,
    Sessions,
    SessionsFull,
    name_problem,
)
from casino.web.store import Member as StoreMember
from casino.web.store import Store, StoreError

STATIC = resources.files("casino.web") / "static"
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
STATIC_CACHE = "public, max-age=300"
LANG_COOKIE = "casino_lang"
"""The language a visitor not logged in chose (``?lang=en`` on any page)."""
MOST_MESSAGE = 4096
HEARTBEAT = 20.0
CLOSE_SECONDS = 2.0
"""Real seconds to wait for a closing socket's peer (then its connection is aborted)."""

Handle = Callable[[Any], Awaitable[None]]


class WebServer:
    """The tables and the members' sessions behind one aiohttp application."""

    def __init__(
        self,
        settings: TableSettings,
        tables: int = 1,
        seed: int | None = None,
        clock: Clock | None = None,
        secret: bytes | None = None,
        limits: Limits | None = None,
        *,
        store: Store,
        instance: str = "",
    ) -> None:
        self.settings = settings
        self.store = store
        self.prefix = f"{instance}/" if instance else ""
        """What this server's games' names start with in the store (``--instance``)."""
        self.bank = Bank(store)
        self.clock: Clock = clock or MonotonicClock()
        self.limits = limits or Limits()
        self.sessions = Sessions(secret, self.clock, self.limits)
        self.sessions.on_end = self.session_ended
        master = random.Random(seed)
        self.tables = [
            WebTable(k + 1, settings, self.clock, master.getrandbits(64), self.bank, self.prefix)
            for k in range(tables)
        ]
        self.tasks: list[asyncio.Task[None]] = []
        self.failure: asyncio.Future[TaskFailed] | None = None
        self.dominoes: dict[str, tuple[DominoGame, asyncio.Task[None]]] = {}
        self.leaving: set[asyncio.Task[None]] = set()
        """The matches of ended sessions, their hands being played out."""
        self.buckets: dict[str, Bucket] = {}
        self.joins: dict[str, Bucket] = {}
        """The join budget of each address."""
        self.outboxes: dict[str, set[Outbox]] = {}
        """The open sockets of each session."""
        self.seeds = random.Random(master.getrandbits(64))
        self.quiet = QuietLog(self.clock, self.limits)

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
        app.router.add_post("/join", self.join)
        app.router.add_post("/refill", self.refill)
        app.router.add_get("/holdem", self.holdem_page)
        app.router.add_get("/ws/holdem", self.holdem_socket)
        app.router.add_get("/domino", self.domino_page)
        app.router.add_get("/ws/domino", self.domino_socket)
        app.router.add_get("/static/{name}", self.static)
        app.on_response_prepare.append(_headers)
        app.on_startup.append(self._start)
        app.on_cleanup.append(self._stop)
        return app

    async def _start(self, app: web.Application) -> None:
        LOG.addFilter(self.quiet)
        voided = await self.bank.call(self.store.void_open_games, self.prefix)
        if voided:
            LOG.warning("%d games left open by a stopped server voided", len(voided))
        self.failure = asyncio.get_running_loop().create_future()
        self.tasks = [
            self._watched(table.run(), f"table {number}")
            for number, table in enumerate(self.tables, 1)
        ]

    def _watched(self, work: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]:
        """``work`` as a task whose failure ends the server (see :meth:`serve_until`)."""
        task = asyncio.create_task(work)
        task.add_done_callback(lambda done: self._task_done(done, what))
        return task

    def _task_done(self, task: asyncio.Task[None], what: str) -> None:
        failed = failure_of(task, what)
        if failed is not None and self.failure is not None and not self.failure.done():
            self.failure.set_result(failed)

    async def serve_until(self, waiting: Awaitable[Any]) -> None:
        """Serve until ``waiting`` is done, or until a task of the server (a table, a dominoes
        match) fails: its :class:`~casino.stopping.TaskFailed` is raised then, for the caller
        to end the server cleanly and say it (no task dies unseen)."""
        assert self.failure is not None, "the application has not started"
        ending = asyncio.ensure_future(waiting)
        try:
            await asyncio.wait([ending, self.failure], return_when=asyncio.FIRST_COMPLETED)
        finally:
            ending.cancel()
        if self.failure.done():
            raise self.failure.result()

    async def _stop(self, app: web.Application) -> None:
        tasks = [*self.tasks, *self.leaving, *(task for _, task in self.dominoes.values())]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)  # a failure is said by serve_until
        LOG.removeFilter(self.quiet)

    def session_ended(self, token: str) -> None:
        """A session ended: its sockets close, its budget goes, its dominoes match ends
        once its hand under way is played out (:meth:`DominoGame.leave`)."""
        for outbox in self.outboxes.pop(token, set()):
            outbox.drop("its session ended")
        self.buckets.pop(token, None)
        game = self.dominoes.pop(token, None)
        if game is not None:
            game[0].leave()
            self.leaving.add(game[1])
            game[1].add_done_callback(self.leaving.discard)

    # --- pages ------------------------------------------------------------------------

    def form_cookie(self, request: web.Request) -> str:
        """The request's ``casino_form`` cookie, or a new one."""
        form_cookie = request.cookies.get(FORM_COOKIE, "")
        if not (20 <= len(form_cookie) <= 100 and form_cookie.isascii()):
            form_cookie = secrets.token_urlsafe(18)
        return form_cookie

    def lang_of(self, request: web.Request) -> str:
        """The page's language: ``?lang=``, else the member's, else the visitor's cookie."""
        asked = request.query.get("lang")
        profile = self.sessions.profile_of(request.cookies.get(COOKIE))
        if asked in LANGUAGES:
            if profile is not None:
                profile.lang = asked
            return asked
        if profile is not None:
            return profile.lang
        kept = request.cookies.get(LANG_COOKIE)
        return kept if kept in LANGUAGES else DEFAULT_LANGUAGE

    def respond(
        self, request: web.Request, write: Callable[[str, str], str], status: int = 200
    ) -> web.Response:
        """A page written by ``write(lang, csrf)``, with the form's and the language's cookies."""
        form_cookie = self.form_cookie(request)
        lang = self.lang_of(request)
        text = write(lang, self.sessions.form_token(form_cookie))
        response = web.Response(text=text, status=status, content_type="text/html", charset="utf-8")
        response.set_cookie(FORM_COOKIE, form_cookie, httponly=True, samesite="Strict")
        response.set_cookie(LANG_COOKIE, lang, httponly=True, samesite="Strict")
        return response

    async def lobby(self, request: web.Request) -> web.StreamResponse:
        """The lobby page: who is logged in, their money (to spend, at a table; the house's
        refill when they have none), the tables, the games, the members' wallets. A session
        cookie the server does not know (a restart, an ended session) is told so."""
        cookie = request.cookies.get(COOKIE)
        profile = self.sessions.profile_of(cookie)
        member = None if profile is None else await self.bank.member(profile.member)
        if member is None:
            ended = bool(cookie)
            return self.respond(
                request, lambda lang, csrf: pages.lobby(lang, csrf, None, ended=ended)
            )
        cash, leaders = await self.bank.call(self._money, member)
        tables = [self._row(table) for table in self.tables]
        return self.respond(
            request,
            lambda lang, csrf: pages.lobby(
                lang, csrf, member, money_of=cash, tables=tables, leaders=leaders
            ),
        )

    def _money(self, member: StoreMember) -> tuple[pages.Money, list[tuple[StoreMember, int]]]:
        """The member's money and the members' wallets with what each has at a table (the
        store's, in a worker thread)."""
        holdings = self.store.holdings()
        held = holdings.get(member.id, 0)
        later = self.store.refill_at(member.id)
        refill = self.store.starting_bankroll if later is None else 0
        cash = pages.Money(member.balance, held, refill, later)
        leaders = [(m, holdings.get(m.id, 0)) for m in self.store.leaderboard()]
        return cash, leaders

    def _row(self, table: WebTable) -> pages.TableRow:
        """A table as the lobby lists it."""
        settings = table.settings
        names = tuple(m.name for m in table.everyone if not m.leaving)
        return pages.TableRow(
            table.number, settings.rules.blinds, settings.seats, names, settings.stack
        )

    async def refill(self, request: web.Request) -> web.StreamResponse:
        """The house's refill of the member's empty wallet (its rule: :meth:`Store.refill`);
        back to the lobby, or the page saying why not."""
        profile = self.sessions.profile_of(request.cookies.get(COOKIE))
        if profile is None:
            raise web.HTTPSeeOther("/login")
        try:
            amount = await self.bank.call(self.store.refill, profile.member)
        except StoreError as error:
            LOG.warning("refill refused to %r: %s", profile.name, error)
            raise web.HTTPBadRequest(text=error.template) from None
        LOG.info("%r refilled with %d", profile.name, amount)
        raise web.HTTPSeeOther("/")

    async def register_page(self, request: web.Request) -> web.StreamResponse:
        """The form to become a member."""
        return self.respond(
            request, lambda lang, csrf: pages.account_form(lang, csrf, "register", None)
        )

    async def login_page(self, request: web.Request) -> web.StreamResponse:
        """The form to log in."""
        return self.respond(
            request, lambda lang, csrf: pages.account_form(lang, csrf, "login", None)
        )

    async def register(self, request: web.Request) -> web.StreamResponse:
        """A new member with the house's starting bankroll, logged in at once."""
        return await self._account(request, "register")

    async def login(self, request: web.Request) -> web.StreamResponse:
        """Log a member in (the store limits the failed attempts on a name)."""
        return await self._account(request, "login")

    async def _account(self, request: web.Request, action: str) -> web.StreamResponse:
        """Register or log in; the form again, saying why, when the store refuses."""
        self.count_join(str(request.remote))
        form = await request.post()
        name = str(form.get("name", ""))[:200]
        password = str(form.get("password", ""))[:1000]
        lang = str(form.get("lang", DEFAULT_LANGUAGE))
        lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        problem = name_problem(name.strip()) if action == "register" else None
        try:
            if problem is not None:
                raise StoreError(problem)
            call = self.store.register if action == "register" else self.store.login
            member = await self.bank.call(call, name, password)
        except StoreError as error:
            LOG.warning("%s refused from %s: %s", action, request.remote, error)
            why = pages.tr_of(lang).gettext(error.template).format(**error.values)
            return self.respond(
                request,
                lambda _lang, csrf: pages.account_form(lang, csrf, action, why, name),
                401 if action == "login" else 400,
            )
        old = self.sessions.token_of(request.cookies.get(COOKIE))
        if old is not None:  # a new session for every log-in: nothing of the last one's
            self.sessions.end(old)  # (its sockets, its dominoes match) passes to this one
        try:
            cookie = self.sessions.start(Profile(member.name, member.id, lang))
        except SessionsFull:
            LOG.warning("a new session refused: %s", "the limit of sessions is reached")
            raise web.HTTPServiceUnavailable(text="the casino is full: try again later") from None
        response = web.HTTPSeeOther("/")
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict")
        raise response

    async def logout(self, request: web.Request) -> web.StreamResponse:
        """End the session (its sockets close; the member's seat waits for them as when a
        page closes)."""
        token = self.sessions.token_of(request.cookies.get(COOKIE))
        if token is not None:
            self.sessions.end(token)
        response = web.HTTPSeeOther("/")
        response.del_cookie(COOKIE)
        raise response

    async def member_page(self, request: web.Request) -> web.StreamResponse:
        """The member's bankroll, games and results, and the leaderboard."""
        profile = self.sessions.profile_of(request.cookies.get(COOKIE))
        member = None if profile is None else await self.bank.member(profile.member)
        if profile is None or member is None:
            raise web.HTTPSeeOther("/login")
        history = await self.bank.history(member.id)
        leaders = await self.bank.call(self.store.leaderboard)
        holdings = await self.bank.call(self.store.holdings)
        return self.respond(
            request,
            lambda lang, _csrf: pages.member_page(lang, member, history, leaders, holdings),
        )

    async def static(self, request: web.Request) -> web.StreamResponse:
        """A file of the page (CSS, JavaScript) from the package."""
        name = request.match_info["name"]
        kinds = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
        kind = next((v for k, v in kinds.items() if name.endswith(k)), None)
        item = STATIC / name
        if kind is None or "/" in name or name.startswith(".") or not item.is_file():
            raise web.HTTPNotFound()
        response = web.Response(body=item.read_bytes(), content_type=kind)
        response.headers["Cache-Control"] = STATIC_CACHE
        return response

    async def join(self, request: web.Request) -> web.StreamResponse:
        """A logged-in member goes to the game they chose (a visitor: to log in)."""
        if self.sessions.profile_of(request.cookies.get(COOKIE)) is None:
            raise web.HTTPSeeOther("/login")
        form = await request.post()
        if form.get("game") == "domino":
            raise web.HTTPSeeOther("/domino")
        table = str(form.get("table", ""))
        chosen = table.isdigit() and 1 <= int(table) <= len(self.tables)
        raise web.HTTPSeeOther(f"/holdem?table={int(table)}" if chosen else "/holdem")

    def count_join(self, address: str) -> None:
        """Count a join from ``address``; 429 (logged) if it is over its budget."""
        if len(self.joins) >= self.limits.sessions and address not in self.joins:
            self.joins.clear()  # bounded: a fresh budget for everybody
        bucket = self.joins.setdefault(
            address, Bucket(self.clock, self.limits.join_rate, self.limits.join_burst)
        )
        if not bucket.take():
            LOG.warning("too many joins from %s", address)
            raise web.HTTPTooManyRequests(text="too many joins from your address: wait a minute")

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

    @web.middleware
    async def _errors(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """An error as a page in the request's language: the refusal's ``text`` when it is a
        ``web`` catalog id, else (aiohttp's own: a page that is not, a method a page does not
        take, a form too big) what the status means."""
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as error:
            if error.status < 400:
                raise
            return self._refused(request, error)
        except Exception:
            if _is_socket(request):  # aiohttp ends a socket itself: no page follows a handshake
                raise
            LOG.exception("%s %s failed", request.method, request.path)
            return self._page(request, 500, "Internal Server Error", SORRY)
        return response

    def _refused(self, request: web.Request, error: web.HTTPException) -> web.StreamResponse:
        """A refusal (400 or more) as a page: its ``text`` when that is a ``web`` catalog id,
        else what its status means."""
        if _said("es", error.text or "") != error.text:
            message = str(error.text)
        elif error.status == 404:
            message = "There is no such page."
        else:
            message = "The casino cannot do that: go back to the lobby."
        response = self._page(request, error.status, error.reason, message)
        if "Allow" in error.headers:
            response.headers["Allow"] = error.headers["Allow"]
        return response

    def _page(self, request: web.Request, status: int, reason: str, message: str) -> web.Response:
        """The error page saying ``message`` (a ``web`` catalog id) in the request's language."""
        page = pages.refusal(self.lang_of(request), message)
        return web.Response(status=status, reason=reason, text=page, content_type="text/html")

    @web.middleware
    async def _forms(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Every POST carries the token of its ``casino_form`` cookie, or is refused (403)."""
        if request.method == "POST":
            form = await request.post()
            token = form.get(FORM_FIELD)
            cookie = request.cookies.get(FORM_COOKIE)
            if not self.sessions.form_ok(cookie, token if isinstance(token, str) else None):
                LOG.warning("form refused (no valid CSRF token) from %s", request.remote)
                raise web.HTTPForbidden(text="the form has expired: open the lobby again")
        response: web.StreamResponse = await handler(request)
        return response

    # --- sockets ----------------------------------------------------------------------

    async def domino_socket(self, request: web.Request) -> web.StreamResponse:
        """One dominoes page's WebSocket; the match goes on (its clock too) while it is away."""
        return await self._socket(request, self._domino)

    async def holdem_socket(self, request: web.Request) -> web.StreamResponse:
        """One page's WebSocket: views out, intentions in, until the page closes (``?table=N``:
        the table the member chose in the lobby)."""
        text = request.query.get("table", "")
        asked = int(text) if text.isdigit() and len(text) < 4 else None

        async def serve(
            socket: web.WebSocketResponse, outbox: Outbox, key: str, profile: Profile
        ) -> None:
            await self._holdem(socket, outbox, key, profile, asked)

        return await self._socket(request, serve)

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
                reason = _said(self.lang_of(request), "no session: join in the lobby")
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
            await self._flood_checked(socket, outbox, key, game.receive)
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
        tables = self.tables
        if chosen is not None and 1 <= chosen <= len(self.tables):
            tables = [self.tables[chosen - 1]]
        for table in tables:
            table.sweep()
            member = table.sit(profile.member, profile.name, profile.lang)
            if member is not None:
                return table, member
        return None

    async def _holdem(
        self,
        socket: web.WebSocketResponse,
        outbox: Outbox,
        key: str,
        profile: Profile,
        asked: int | None = None,
    ) -> None:
        place = self.seat(profile, asked)
        if place is None:
            outbox.post({"type": "error", "reason": _said(profile.lang, "no free seat")})
            return
        table, member = place

        async def send(data: dict[str, Any]) -> None:
            outbox.post(data)

        await table.connect(member, send)  # at once: a seat with no page is an away one
        wallet = await self.bank.balance(profile.member)
        if wallet != member.wallet:  # what the seat shows out of a hand (no more than that)
            member.wallet = wallet
            await table.show(member)
        flooded = False
        try:
            flooded = await self._flood_checked(
                socket, outbox, key, lambda data: table.receive(member, data)
            )
        finally:
            table.leave(member, send)
            if flooded and member.send is None:  # dropped for flooding: not waited for
                table.depart(member, grace=False)


SORRY = "Something went wrong in the casino. Try again."
"""The page of a request that failed unexpectedly (500; the failure is logged)."""


def _is_socket(request: web.Request) -> bool:
    """Whether ``request`` opens a WebSocket (its errors are the socket's, not a page)."""
    return request.headers.get("Upgrade", "").lower() == "websocket"


def _said(lang: str, message: str) -> str:
    """``message`` (a ``web`` catalog id) in ``lang``."""
    return pages.tr_of(lang).gettext(message)


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


def _decoded(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text[:200]


def _page(name: str) -> web.Response:
    return web.Response(
        body=(STATIC / name).read_bytes(), content_type="text/html", charset="utf-8"
    )


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response, errors and redirects too: the security headers, and no caching of
    anything but the static files."""
    response.headers.update(HEADERS)
    response.headers.setdefault("Cache-Control", PRIVATE)
