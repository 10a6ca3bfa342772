"""``casino web`` attacked: forged forms, hostile names, seats and sessions held forever, a
finished table, and clients that never read or that flood the table.

The tables run on a :class:`FakeClock` except in the one test of a client that never reads,
where the send deadline is the network's (real time) and the table's action time-out is
short; no assertion there measures time, every wait is bounded by a generous deadline.
"""

from __future__ import annotations

import asyncio
import base64
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
from casino.web.guard import Limits
from casino.web.holdem import TableSettings, WebTable
from casino.web.sessions import COOKIE, FORM_COOKIE, SWEEP_SECONDS

from .forms import join, lobby, post_join

SETTINGS = TableSettings(seats=3, stack=500, pause=0, bot_delay=0, samples=10, seat_timeout=60)
LIMIT = 60.0

Body = Callable[[TestClient[Any, Any], WebServer], Awaitable[None]]


def serve(
    body: Body,
    clock: Clock | None = None,
    settings: TableSettings = SETTINGS,
    limits: Limits | None = None,
) -> WebServer:
    server = WebServer(settings, 1, 3, clock or FakeClock(), secret=b"k" * 32, limits=limits)

    async def run() -> None:
        async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as client:
            await asyncio.wait_for(body(client, server), LIMIT)

    asyncio.run(run())
    return server


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
            await post_join(client, {"name": "", "lang": "es"}),  # 400
            await post_join(client, {"name": "Zoe", "bankroll": "9", "lang": "en"}),  # 303
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
        form = {"name": "Zoe", "bankroll": "10", "lang": "en"}
        cookie, token = await lobby(client)
        other_cookie, other_token = await lobby(client)
        assert cookie != other_cookie and token != other_token
        tries = [
            ({}, {}),  # neither cookie nor token
            ({FORM_COOKIE: cookie}, {}),  # the cookie alone
            ({}, {"csrf": token}),  # the token alone (another site copied it)
            ({FORM_COOKIE: cookie}, {"csrf": other_token}),  # a token of another cookie
            ({FORM_COOKIE: cookie}, {"csrf": token[:-1] + "0"}),
        ]
        for cookies, extra in tries:
            header = "; ".join(f"{k}={v}" for k, v in cookies.items())
            response = await client.post(
                "/join", data={**form, **extra}, headers={"Cookie": header} if header else {}
            )
            assert response.status == 403 and COOKIE not in response.cookies
        assert server.sessions.sessions == {}
        good = await client.post(
            "/join",
            data={**form, "csrf": token},
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
        (BOT_NAMES[3].upper(), "computer player"),
    ],
)
def test_names_are_printable_and_never_a_computer_players(name: str, reason: str) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        response = await post_join(client, {"name": name, "bankroll": "10", "lang": "en"})
        assert response.status == 400 and reason in await response.text()
        assert server.sessions.sessions == {}

    serve(body)


def test_a_name_already_seated_is_refused_but_its_own_member_may_join_again() -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        cookie = await join(client, "Zoe")
        ws = await socket_of(client, cookie)
        await next_state(ws)
        for same in ["Zoe", "zoe", " ZOE "]:
            taken = await post_join(client, {"name": same, "bankroll": "10", "lang": "en"})
            assert taken.status == 400 and "already at a table" in await taken.text()
        again = await post_join(client, {"name": "Zoe", "bankroll": "10", "lang": "en"}, cookie)
        assert again.status == 303 and again.cookies[COOKIE].value == cookie
        await ws.close()

    serve(body)


def test_one_address_may_join_only_so_often(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    limits = Limits(join_rate=0.5, join_burst=3)
    form = {"name": "Zoe", "bankroll": "9", "lang": "en"}

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        statuses = [(await post_join(client, form)).status for _ in range(5)]
        assert statuses == [303, 303, 303, 429, 429]
        assert len(server.sessions.sessions) == 3
        clock.advance(2)  # one more join
        assert [(await post_join(client, form)).status for _ in range(2)] == [303, 429]

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
        assert len(table.members) == 3
        clock.advance(SETTINGS.seat_timeout / 2)
        late = await socket_of(client, await join(client, "Ned"))
        assert json.loads(await late.receive_str())["reason"] == "no free seat"
        await late.close()
        clock.advance(SETTINGS.seat_timeout / 2 + 1)
        ws = await socket_of(client, await join(client, "Ned"))
        view = await next_state(ws)
        assert view["seats"][view["you"]]["name"] == "Ned"
        while len(table.members) > 1:  # the other two are freed between hands
            await asyncio.sleep(0)
        assert [m.name for m in table.members.values()] == ["Ned"]
        names = [seat.name for seat in table.table.seats]
        assert names == [table.bot_names[k] if k != view["you"] else "Ned" for k in range(3)]
        await ws.close()

    serve(body, clock)


def test_a_finished_table_deals_again_when_members_are_seated() -> None:
    clock = FakeClock()

    async def body() -> None:
        table = WebTable(1, SETTINGS, clock, 7)
        seats = table.table.seats
        seats[1].chips = seats[2].chips = 0  # all but one busted: the engine's game is over
        assert table.table.finished
        member = table.sit("key", "Zoe", "en", 300)
        assert member is not None and member.seat == 0
        task = asyncio.create_task(table.run())
        while table.hands_done < 2:  # the member is away: checked or folded
            await asyncio.sleep(0)
        assert seats[1].name == table.bot_names[1] and table.table.number >= 2
        seats[0].chips = 0  # the member busts: they buy in again with their bankroll
        while seats[0].chips == 0:
            await asyncio.sleep(0)
        assert table.table.hand is not None and table.table.hand.starting[0] == 300
        clock.advance(SETTINGS.seat_timeout + 1)  # all members gone: the table waits
        while table.members:
            await asyncio.sleep(0)
        for _ in range(20):
            await asyncio.sleep(0)
        dealt = table.table.number
        assert not table.joined.is_set() and not task.done()
        for _ in range(20):
            await asyncio.sleep(0)
        assert table.table.number == dealt
        assert table.sit("other", "Yan", "es", 200) is not None  # a member sits: it deals
        while table.table.number == dealt:
            await asyncio.sleep(0)
        task.cancel()

    asyncio.run(asyncio.wait_for(body(), LIMIT))


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
        assert server.dominoes == {} and task.cancelled()  # the idle one ended
        while not watcher.closed:  # its socket is closed: its seat is away
            await watcher.receive()
        assert all(m.away is not None for m in server.tables[0].members.values())
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
        full = await post_join(client, {"name": "Ned", "bankroll": "9", "lang": "en"})
        assert full.status == 503 and COOKIE not in full.cookies  # nobody in loses theirs
        assert all(server.sessions.profile_of(cookie) for cookie in cookies)
        clock.advance(limits.session_idle + 1)  # they end: room for a new one
        assert (await post_join(client, {"name": "Ned", "bankroll": "9", "lang": "en"})).ok

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
        bad = next(m for m in table.members.values() if m.name == "Max")

        def gone() -> bool:
            return bad.send is None

        await honest_hands(honest, gone, 3)
        assert bad.seat in table.members and bad.away is not None  # away: folded, not waited
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
    limits = Limits(queue=16, send_seconds=1.0)

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        table = server.tables[0]
        honest = await socket_of(client, await join(client, "Bo"))
        await next_state(honest)
        silent = await raw_socket(client.port or 0, await join(client, "Max"))
        bad = next(m for m in table.members.values() if m.name == "Max")

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
