"""``casino web`` attacked: forged forms, hostile names, seats and sessions held forever, a
finished table, and clients that never read or that flood the table.

The tables run on a :class:`FakeClock` except in the one test of a client that never reads,
where the send deadline is the network's (real time) and the table's action time-out is
short; no assertion there measures time, every wait is bounded by a generous deadline.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import json
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientWebSocketResponse, DummyCookieJar
from aiohttp.test_utils import TestClient, TestServer

from casino.clock import Clock, FakeClock
from casino.holdem.shell import BOT_NAMES
from casino.web.app import HEADERS, WebServer
from casino.web.bank import Bank
from casino.web.guard import Limits
from casino.web.holdem import WebTable
from casino.web.holdemseats import Member, TableSettings
from casino.web.sessions import COOKIE, FORM_COOKIE, SWEEP_SECONDS
from casino.web.store import Store, StoreError

from .forms import PASSWORD, join, lobby, post_form, register, temporary_store

SETTINGS = TableSettings(seats=3, stack=500, pause=0, bot_delay=0, samples=10, seat_timeout=60)
LIMIT = 60.0

Body = Callable[[TestClient[Any, Any], WebServer], Awaitable[None]]


def serve(
    body: Body,
    clock: Clock | None = None,
    settings: TableSettings = SETTINGS,
    limits: Limits | None = None,
) -> WebServer:
    with temporary_store() as store:
        server = WebServer(
            settings, 1, 3, clock or FakeClock(), secret=b"k" * 32, limits=limits, store=store
        )

        async def run() -> None:
            async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as c:
                await asyncio.wait_for(body(c, server), LIMIT)

        asyncio.run(run())
        issued, accounted = store.audit()
        assert issued == accounted
    return server


def form(name: str) -> dict[str, str]:
    """The register (or log-in) form of ``name``."""
    return {"name": name, "password": PASSWORD, "lang": "en"}


async def socket_of(client: TestClient[Any, Any], cookie: str) -> ClientWebSocketResponse:
    return await client.ws_connect("/ws/holdem", headers={"Cookie": f"{COOKIE}={cookie}"})


async def next_state(ws: ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        data: dict[str, Any] = json.loads(await ws.receive_str())
        if data["type"] == "state":
            return data


def secured(response: Any, cache: str = "no-store") -> bool:
    headers = response.headers
    return all(headers.get(k) == v for k, v in HEADERS.items()) and (
        headers.get("Cache-Control") == cache
    )


# --- headers, forms, names -------------------------------------------------------------


def test_every_response_redirects_and_errors_too_carries_the_security_headers() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        assert "frame-ancestors 'none'" in HEADERS["Content-Security-Policy"]
        responses = [
            await client.get("/"),
            await client.get("/holdem", allow_redirects=False),  # 303 to the lobby
            await client.get("/nowhere"),  # 404
            await client.get("/static/..%2Fapp.py"),
            await client.post("/join", data={"name": "Zoe"}),  # 403: no token
            await post_form(client, "/register", form("")),  # 400
            await post_form(client, "/register", form("Zoe")),  # 303
            await client.get("/ws/holdem", headers={"Origin": "http://evil.example"}),
        ]
        statuses = [r.status for r in responses]
        assert statuses == [200, 303, 404, 404, 403, 400, 303, 403]
        assert all(secured(r) for r in responses), [dict(r.headers) for r in responses]
        assert responses[1].headers["Location"] == "/"
        assert secured(await client.get("/static/casino.css"), "public, max-age=300")

    serve(body)


def test_a_post_without_the_lobby_token_or_with_a_wrong_one_is_refused_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe = form("Zoe")
        cookie, token = await lobby(client)
        other_cookie, other_token = await lobby(client)
        assert cookie != other_cookie and token != other_token
        tries = [
            ({}, {}),  # neither cookie nor token
            ({FORM_COOKIE: cookie}, {}),  # the cookie alone
            ({}, {"csrf": token}),  # the token alone (another site copied it)
            ({FORM_COOKIE: cookie}, {"csrf": other_token}),  # a token of another cookie
            ({FORM_COOKIE: cookie}, {"csrf": token[:-1] + ("1" if token.endswith("0") else "0")}),
        ]
        for cookies, extra in tries:
            header = "; ".join(f"{k}={v}" for k, v in cookies.items())
            response = await client.post(
                "/register", data={**zoe, **extra}, headers={"Cookie": header} if header else {}
            )
            assert response.status == 403 and COOKIE not in response.cookies
        assert server.sessions.sessions == {}
        good = await client.post(
            "/register",
            data={**zoe, "csrf": token},
            headers={"Cookie": f"{FORM_COOKIE}={cookie}"},
            allow_redirects=False,
        )
        assert good.status == 303 and COOKIE in good.cookies

    with caplog.at_level(logging.WARNING, "casino.web"):
        serve(body)
    assert caplog.text.count("form refused (no valid CSRF token)") == 5


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Zoe\x1b[31m", "printable"),
        ("A\u202eB", "printable"),
        ("\x00", "printable"),
        ("   ", "a name is needed"),
        (BOT_NAMES[0], "computer player"),
        ("diego  (BOT)", "computer player"),
        ("Ana (b\u03bft)", "computer player"),  # a Greek omicron (issue 39)
        ("Ana (b0t)", "computer player"),
        ("Ana [bot]", "computer player"),
        ("Ana (\u0432\u043e\u0442)", "computer player"),  # Cyrillic ve, o, te
        ("Ana \uff08\uff42\uff4f\uff54\uff09", "computer player"),  # fullwidth
    ],
)
def test_names_are_printable_and_never_a_computer_players(name: str, reason: str) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        response = await post_form(client, "/register", form(name))
        assert response.status == 400 and reason in await response.text()
        assert server.sessions.sessions == {}

    serve(body)


def test_the_computer_players_first_names_are_peoples_to_take() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        for name in ["Ana", "DIEGO", "Gala (Bot) Pérez", *(b.split()[0] for b in BOT_NAMES[1:3])]:
            response = await post_form(client, "/register", form(name))
            assert response.status == 303, name  # registered: on to the lobby
        assert sorted(m.name for m in server.store.leaderboard()) == [
            "Ana",
            "Bruno",
            "Carla",
            "DIEGO",
            "Gala (Bot) Pérez",
        ]

    serve(body)


def test_a_name_is_one_members_and_their_seat_is_theirs_from_any_session() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        cookie = await join(client, "Zoe")
        ws = await socket_of(client, cookie)
        seat = (await next_state(ws))["you"]
        for same in ["Zoe", "zoe", " ZOE "]:
            taken = await post_form(client, "/register", form(same))
            assert taken.status == 400 and "is taken" in await taken.text()
        wrong = await post_form(client, "/login", {**form("Zoe"), "password": "not hers!"})
        assert wrong.status == 401 and "wrong name or password" in await wrong.text()
        other = await register(client, "zoe", action="/login")  # her login, another browser
        assert other != cookie
        again = await socket_of(client, other)
        assert (await next_state(again))["you"] == seat and len(server.tables[0].everyone) == 1
        await ws.close()
        await again.close()

    serve(body)


def test_one_address_may_join_only_so_often(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    limits = Limits(join_rate=0.5, join_burst=3)
    nobody = form("Nobody")

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        statuses = [(await post_form(client, "/login", nobody)).status for _ in range(5)]
        assert statuses == [401, 401, 401, 429, 429]
        clock.advance(2)  # one more try
        assert [(await post_form(client, "/login", nobody)).status for _ in range(2)] == [401, 429]

    with caplog.at_level(logging.WARNING, "casino.web"):
        serve(body, clock, limits=limits)
    assert caplog.text.count("too many joins from 127.0.0.1") == 3


# --- seats, tables, sessions -----------------------------------------------------------


def test_seats_of_members_away_past_the_timeout_are_freed() -> None:
    clock = FakeClock()

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        table = server.tables[0]
        for name in ["Kim", "Lou", "Max"]:  # the table's three seats, then the pages close
            ws = await socket_of(client, await join(client, name))
            await next_state(ws)
            await ws.close()
        late = await socket_of(client, await join(client, "Ned"))
        assert json.loads(await late.receive_str()) == {"type": "error", "reason": "no free seat"}
        assert len(table.everyone) == 3
        clock.advance(SETTINGS.seat_timeout / 2)
        ned = await register(client, "Ned", action="/login")
        late = await socket_of(client, ned)
        assert json.loads(await late.receive_str())["reason"] == "no free seat"
        await late.close()
        clock.advance(SETTINGS.seat_timeout / 2 + 1)
        ws = await socket_of(client, ned)
        view = await next_state(ws)
        while view["seats"][view["you"]]["name"] != "Ned":  # seated for the next hand
            view = await next_state(ws)
        while len(table.members) > 1:  # the other two are freed between hands
            await asyncio.sleep(0)
        assert [m.name for m in table.members.values()] == ["Ned"]
        names = [seat.name for seat in table.table.seats]
        assert names == [table.bot_names[k] if k != view["you"] else "Ned" for k in range(3)]
        await ws.close()

    serve(body, clock)


def test_a_table_stakes_each_wallet_sits_out_an_empty_one_and_waits_for_members() -> None:
    clock = FakeClock()

    async def body(store: Store) -> None:
        settings = dataclasses.replace(SETTINGS, seat_timeout=10**6)
        table = WebTable(1, settings, clock, 7, Bank(store))
        zoe = store.register("Zoe", PASSWORD)
        seats = table.table.seats
        seats[1].chips = seats[2].chips = 0  # busted computer players: new ones sit down
        member = table.sit(zoe.id, "Zoe", "en")
        assert member is not None and member.seat == 0
        task = asyncio.create_task(table.run())
        while table.hands_done < 3:  # the member is away: checked or folded on time
            await _time_passes(table, member, clock)
        assert seats[1].name == table.bot_names[1] and seats[0].name == "Zoe"
        games = sorted(store.history(zoe.id), key=lambda entry: entry.game)
        wallet = 300
        for entry in games:  # each hand staked the whole wallet (under the table's 500)
            assert entry.stake == wallet
            wallet += entry.net
        assert len(games) >= 2  # (the third may be settling)
        while (balance := await table.bank.balance(zoe.id)) > 0:  # spent elsewhere, as the
            await table.bank.call(_spend, store, zoe.id, balance)  # table's store calls run
        while 0 in table.dealt[max(table.dealt)]:  # an empty wallet sits out
            await _time_passes(table, member, clock)
        assert table.notice(member) in (None, "Your wallet is empty: you sit out.")
        clock.advance(settings.seat_timeout + 1)  # all members gone: the table waits
        while table.members:
            await _time_passes(table, member, clock)
        for _ in range(20):
            await asyncio.sleep(0)
        dealt_number = table.table.number
        assert not table.joined.is_set() and not task.done()
        for _ in range(20):
            await asyncio.sleep(0)
        assert table.table.number == dealt_number
        yan = store.register("Yan", PASSWORD)
        assert table.sit(yan.id, "Yan", "es") is not None  # a member sits: it deals
        while table.table.number == dealt_number:
            await asyncio.sleep(0)
        task.cancel()

    with temporary_store(starting_bankroll=300) as store:
        # a bound, not a timing: a stake can wait for SQLite's write lock (its 30 s busy
        # timeout) while another thread's transaction holds it, twice in a bad run
        asyncio.run(asyncio.wait_for(body(store), 3 * LIMIT))
        issued, accounted = store.audit()
        assert issued == accounted


def _spend(store: Store, member: int, balance: int) -> None:
    """The member's ``balance`` spent at another game (unless a hand holds it just now)."""
    with contextlib.suppress(StoreError):
        spend = store.open_game("elsewhere", "t", {member: balance, store.house: 0})
        store.settle(spend, {store.house: balance})


async def _time_passes(table: WebTable, member: Member, clock: FakeClock) -> None:
    """Let the table run; at the away member's turn, its clock runs out (a FakeClock wakes
    nobody by itself: the turn is nudged)."""
    if table.waiting == member.seat and table.deadline is not None:
        clock.advance(max(0.0, table.deadline - clock.now()))
        member.inbox.put_nowait(None)
    await asyncio.sleep(0)


def test_sessions_end_when_idle_or_old_and_their_dominoes_games_are_dropped() -> None:
    clock = FakeClock()
    limits = Limits(session_idle=600, session_age=3000, sessions=3)

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        idle = await join(client, "Zoe", game="domino")
        ws = await client.ws_connect("/ws/domino", headers={"Cookie": f"{COOKIE}={idle}"})
        assert json.loads(await ws.receive_str())["type"] == "domino"
        await ws.close()
        task = next(iter(server.dominoes.values()))[1]
        watcher = await socket_of(client, await join(client, "Uma"))  # open, never acting
        await next_state(watcher)
        busy = await join(client, "Yan")
        for _ in range(5):  # used every 500 s: never idle, but old after 3,000 s
            clock.advance(500)
            page = await client.get("/holdem", headers={"Cookie": f"{COOKIE}={busy}"})
            assert page.status == 200
        assert server.dominoes == {}  # the idle one ended: its match (no hand under way)
        await asyncio.wait_for(task, LIMIT)  # ends by itself (issue 39: never cancelled,
        assert not task.cancelled()  # which dropped a hand under way)
        while not watcher.closed:  # its socket is closed: its seat is away
            await watcher.receive()
        members = server.tables[0].members.values()
        while not all(m.away is not None for m in members):  # (once the server's handler of
            await asyncio.sleep(0)  # that socket has seen it close, after this end did)
        for cookie, where in [(idle, "/domino"), (idle, "/holdem")]:
            gone = await client.get(
                where, headers={"Cookie": f"{COOKIE}={cookie}"}, allow_redirects=False
            )
            assert (gone.status, gone.headers["Location"]) == (303, "/")
        clock.advance(SWEEP_SECONDS + 500)  # over 3,000 s since it started
        page = await client.get(
            "/holdem", headers={"Cookie": f"{COOKIE}={busy}"}, allow_redirects=False
        )
        assert page.status == 303
        ws = await socket_of(client, busy)
        assert json.loads(await ws.receive_str())["type"] == "error"
        await ws.close()
        assert server.sessions.sessions == {}
        cookies = [await join(client, name) for name in ["Kim", "Lou", "Max"]]
        full = await post_form(client, "/register", form("Ned"))
        assert full.status == 503 and COOKIE not in full.cookies  # nobody in loses theirs
        assert all(server.sessions.profile_of(cookie) for cookie in cookies)
        clock.advance(limits.session_idle + 1)  # they end: room for a new one
        again = await post_form(client, "/login", form("Ned"))  # registered, not logged in
        assert again.status == 303 and COOKIE in again.cookies

    serve(body, clock, limits=limits)


# --- clients that flood or never read --------------------------------------------------


async def raw_socket(port: int, cookie: str) -> socket.socket:
    """A WebSocket opened by hand on a small receive buffer; never read after the handshake."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET /ws/holdem HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Cookie: {COOKIE}={cookie}\r\n\r\n"
    )
    await loop.sock_sendall(sock, request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += await loop.sock_recv(sock, 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def frame(text: str) -> bytes:
    """A client's masked WebSocket text frame (under 126 bytes)."""
    body = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[k % 4] for k, b in enumerate(body))
    return bytes([0x81, 0x80 | len(body)]) + mask + masked


async def honest_hands(ws: ClientWebSocketResponse, until: Callable[[], bool], more: int) -> int:
    """Play (check or call) until ``until()`` holds and ``more`` hands more are dealt."""
    last = 0
    start: int | None = None
    while True:
        view = await next_state(ws)
        if start is None and until():
            start = view["hand"]
        if start is not None and view["hand"] >= start + more:
            return int(view["hand"])
        if view["legal"] is not None and view["seq"] != last:
            last = view["seq"]
            verb = "check" if view["legal"]["call"] == 0 else "call"
            await ws.send_json({"type": "act", "verb": verb})


async def seated(table: WebTable, name: str) -> Member:
    """``name``'s seat once the server has made it: it reads the wallet first, then seats the
    member and connects their page at once (so a ``send`` of ``None`` is a drop, not a page
    not yet connected)."""
    while not any(m.name == name for m in table.everyone):
        await asyncio.sleep(0.01)
    return next(m for m in table.everyone if m.name == name)


def test_a_flooding_client_is_limited_then_dropped_and_the_table_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limits = Limits()

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        table = server.tables[0]
        honest = await socket_of(client, await join(client, "Bo"))
        await next_state(honest)
        flooder = await raw_socket(client.port or 0, await join(client, "Max"))
        flood = frame(json.dumps({"type": "act", "verb": "raise", "to": 7}))
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(flooder, flood * 500)
        bad = await seated(table, "Max")

        def gone() -> bool:
            return bad.send is None

        await honest_hands(honest, gone, 3)
        assert bad.leaving and bad.away is not None  # dropped: folded, not waited for
        while bad in table.everyone:  # and the seat freed at the end of the hand
            await next_state(honest)
        flooder.close()
        await honest.close()

    with caplog.at_level(logging.WARNING, "casino.web"):
        server = serve(body, limits=limits)
    assert caplog.text.count("dropped 'Max': floods") == 1
    assert caplog.text.count("refused from 'Max'") <= limits.log_lines
    assert server.tables[0].refused <= limits.burst  # only the budget reached the table


def test_a_client_that_never_reads_is_dropped_and_the_table_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # the table's time-out is short and real: the silent client's turns pass on the clock
    settings = TableSettings(seats=3, stack=500, pause=0, bot_delay=0, samples=10, timeout=0.05)
    limits = Limits(queue=16, send_timeout=1.0)

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        table = server.tables[0]
        honest = await socket_of(client, await join(client, "Bo"))
        await next_state(honest)
        silent = await raw_socket(client.port or 0, await join(client, "Max"))
        bad = await seated(table, "Max")

        def gone() -> bool:
            return bad.send is None

        await honest_hands(honest, gone, 3)
        assert bad.seat in table.members and bad.away is not None
        silent.close()
        await honest.close()

    from casino.clock import MonotonicClock

    with caplog.at_level(logging.WARNING, "casino.web"):
        serve(body, MonotonicClock(), settings, limits)
    assert caplog.text.count("dropped 'Max': does not read") == 1
