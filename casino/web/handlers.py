"""The pages of ``casino web`` (:mod:`casino.web.app`): the lobby, the forms to register and
log in, the member's page, the games' pages and the static files; every error as a page in
the member's language, and every form's CSRF token checked."""

from __future__ import annotations

from importlib import resources
from typing import Any

from aiohttp import web

from casino.errors import ParseError
from casino.holdem.record import HandRecord
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES
from casino.web import handpage, pages
from casino.web.chat import LOBBY
from casino.web.guard import LOG
from casino.web.holdem import WebTable
from casino.web.passwords import Busy
from casino.web.serving import ServerCore, said
from casino.web.sessions import (
    COOKIE,
    FORM_COOKIE,
    FORM_FIELD,
    Profile,
    SessionsFull,
    name_problem,
)
from casino.web.store import Member as StoreMember
from casino.web.store import StoreError

STATIC = resources.files("casino.web") / "static"
STATIC_CACHE = "public, max-age=300"

SORRY = "Something went wrong in the casino. Try again."
NO_HAND = "There is no such hand of yours."


class PageServer(ServerCore):
    """The pages' handlers (the sockets': :class:`casino.web.app.WebServer`)."""

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
        chat = await self.bank.call(self.chat.book.recent, LOBBY, member.id)
        tables = [self._row(table) for table in self.tables]
        return self.respond(
            request,
            lambda lang, csrf: pages.lobby(
                lang, csrf, member, money_of=cash, tables=tables, leaders=leaders, chat=chat
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
        names = tuple(m.name for m in table.everyone if not m.leaving)
        return pages.TableRow(
            table.number,
            table.blinds_now,
            table.settings.seats,
            names,
            table.chips_at_start,
            len(table.watchers),
            table.buy_in,
            table.closed,
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
            async with self.gate.permit():
                member = await self.bank.call(call, name, password)
        except Busy as busy:
            LOG.warning("%s from %s: %s", action, request.remote, busy)
            self.uncount_join(str(request.remote))
            raise web.HTTPServiceUnavailable(
                text="The casino is busy: try again in a moment.",  # when: Retry-After
                headers={"Retry-After": str(busy.seconds)},
            ) from None
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

    async def _hand(self, request: web.Request) -> tuple[int, HandRecord, str]:
        """The hand ``/hand/GAME`` names, for the member who asks (a visitor: to log in):
        its number, record and the member's name; 404 if there is no such hand or the member
        did not play it (another member's hand is not theirs to see)."""
        profile = self.sessions.profile_of(request.cookies.get(COOKIE))
        member = None if profile is None else await self.bank.member(profile.member)
        if profile is None or member is None:
            raise web.HTTPSeeOther("/login")
        game = int(request.match_info["game"])
        text = await self.bank.hand_record(game, member.id)
        if text is None:
            raise web.HTTPNotFound(text=NO_HAND)
        try:
            return game, HandRecord.loads(text), member.name
        except ParseError:
            LOG.exception("hand %d: its record does not load", game)
            raise web.HTTPNotFound(text=NO_HAND) from None

    async def hand_page(self, request: web.Request) -> web.StreamResponse:
        """One of the member's hands, replayed step by step (``?step=N``)."""
        game, record, name = await self._hand(request)
        step = handpage.step_of(request.query.get("step"), record)
        return self.respond(
            request, lambda lang, _csrf: handpage.hand_page(lang, game, record, name, step)
        )

    async def hand_phh(self, request: web.Request) -> web.StreamResponse:
        """One of the member's hands as PHH text (the cards they never saw as ``????``)."""
        game, record, name = await self._hand(request)
        response = web.Response(text=record.phh(name), content_type="text/plain")
        response.headers["Content-Disposition"] = f'attachment; filename="hand-{game}.phh"'
        return response

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
        if said("es", error.text or "") != error.text:
            message = str(error.text)
        elif error.status == 404:
            message = "There is no such page."
        else:
            message = "The casino cannot do that: go back to the lobby."
        response = self._page(request, error.status, error.reason, message)
        for kept in ("Allow", "Retry-After"):  # what to do next: another method, a later time
            if kept in error.headers:
                response.headers[kept] = error.headers[kept]
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


def _is_socket(request: web.Request) -> bool:
    """Whether ``request`` opens a WebSocket (its errors are the socket's, not a page)."""
    return request.headers.get("Upgrade", "").lower() == "websocket"


def _page(name: str) -> web.Response:
    return web.Response(
        body=(STATIC / name).read_bytes(), content_type="text/html", charset="utf-8"
    )
