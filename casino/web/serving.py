"""What every handler of ``casino web``'s application (:mod:`casino.web.app`) shares: the
tables, the sessions, the budgets and the tasks of one server, its start and stop, and the
page's language and form cookie."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from aiohttp import web

from casino.clock import Clock, MonotonicClock
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES
from casino.stopping import TaskFailed, failure_of
from casino.web import pages
from casino.web.bank import Bank
from casino.web.chat import Chat
from casino.web.domino import DominoGame
from casino.web.guard import LOG, Bucket, Limits, Outbox, QuietLog
from casino.web.holdem import WebTable
from casino.web.holdemseats import TableSettings
from casino.web.passwords import HashGate, hash_permits
from casino.web.sessions import (
    COOKIE,
    FORM_COOKIE,
    Sessions,
)
from casino.web.sitgo import SitGoSettings, SitGoTable
from casino.web.store import Store

LANG_COOKIE = "casino_lang"
"""The language a visitor not logged in chose (``?lang=en`` on any page)."""


class ServerCore:
    """The tables and the members' sessions of one server (:class:`casino.web.app.WebServer`
    serves them)."""

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
        self.gate = HashGate(hash_permits(store.cost))
        """The permits to hash a password (registrations and log-ins)."""
        self.clock: Clock = clock or MonotonicClock()
        self.limits = limits or Limits()
        self.sessions = Sessions(secret, self.clock, self.limits)
        self.sessions.on_end = self.session_ended
        master = random.Random(seed)
        self.tables = [
            WebTable(k + 1, settings, self.clock, master.getrandbits(64), self.bank, self.prefix)
            for k in range(tables)
        ]
        for _ in range(settings.sitgos):  # the sit-and-go tables, numbered after the others
            sitgo = SitGoTable(
                len(self.tables) + 1,
                settings,
                self.clock,
                master.getrandbits(64),
                self.bank,
                self.prefix,
            )
            self.tables.append(sitgo.plays(SitGoSettings(settings.buy_in)))
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
        self.chat = Chat(self.bank, self.clock, self.limits)
        """The chat rooms: the lobby's and each table's."""

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

    def uncount_join(self, address: str) -> None:
        """Give back a join the casino could not serve (told busy: it is not the address's)."""
        bucket = self.joins.get(address)
        if bucket is not None:
            bucket.tokens = min(float(bucket.burst), bucket.tokens + 1)


def said(lang: str, message: str) -> str:
    """``message`` (a ``web`` catalog id) in ``lang``."""
    return pages.tr_of(lang).gettext(message)
