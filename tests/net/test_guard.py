"""The socket layer under attack: output that is never waited for, floods, quiet logs, names.

Real loopback sockets; time is a FakeClock where the layer takes one, and otherwise a real
deadline that only decides *whether* something happens, with a generous outer bound."""

from __future__ import annotations

import asyncio

import pytest

from casino.clock import FakeClock, MonotonicClock
from casino.net.guard import FloodGuard, Limits, Outbox, WarningLog
from casino.net.lines import (
    Flooding,
    LineStream,
    LineTooLong,
    RateLimited,
    connect_lines,
    serve_lines,
)
from casino.net.names import BadName, check_name
from casino.net.stream import ConnectionClosed, bound_port

LOOSE = 60.0
"""Seconds a test waits for something that takes milliseconds (a bound, never a measure)."""


def test_the_flood_guard_admits_a_burst_then_the_rate() -> None:
    clock = FakeClock()
    guard = FloodGuard(Limits(lines_per_second=2, burst=3), clock)
    assert [guard.admit() for _ in range(4)] == [True, True, True, False]
    assert guard.refused == 1 and not guard.exhausted
    clock.advance(0.5)  # one token back
    assert [guard.admit(), guard.admit()] == [True, False]
    assert [guard.admit(), guard.admit()] == [False, False]
    assert guard.exhausted
    clock.advance(10)  # the bucket refills to the burst, no more
    assert [guard.admit() for _ in range(4)] == [True, True, True, False]
    assert guard.admit(0) and not guard.exhausted


def test_warnings_of_a_kind_are_one_line_per_interval() -> None:
    clock = FakeClock()
    lines: list[str] = []
    log = WarningLog(lines.append, clock, interval=60)
    for number in range(1000):
        log.warn("dropped", f"dropped {number}")
    log.warn("full", "full")
    assert lines == ["dropped 0", "full"]
    clock.advance(60)
    log.warn("dropped", "dropped again")
    log.warn("dropped", "dropped once more")
    assert lines == ["dropped 0", "full", "dropped again (and 999 more like it before)"]


async def _pair(limits: Limits) -> tuple[asyncio.StreamWriter, LineStream]:
    """A server-side writer to a client that never reads, and that client."""
    accepted: asyncio.Future[asyncio.StreamWriter] = asyncio.get_running_loop().create_future()

    async def keep(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(writer)

    server = await asyncio.start_server(keep, "127.0.0.1", 0)
    client = await connect_lines("127.0.0.1", bound_port(server))
    writer = await accepted
    server.close()
    return writer, client


def test_a_peer_that_does_not_read_is_dropped_when_its_queue_is_full_without_any_wait() -> None:
    async def scenario() -> tuple[int, str | None, list[str]]:
        writer, client = await _pair(Limits())
        drops: list[str] = []
        outbox = Outbox(writer, Limits(queue_bytes=8192), FakeClock(), drops.append)
        sent = 0
        with pytest.raises(ConnectionClosed, match="not reading: over 8192 bytes waiting"):
            while sent < 10**5:  # no await in this loop: put never waits
                outbox.put(b"x" * 1023 + b"\n")
                sent += 1
        with pytest.raises(ConnectionClosed, match="not reading"):
            outbox.put(b"more\n")
        await client.close()
        return sent, outbox.dropped, drops

    sent, dropped, drops = asyncio.run(scenario())
    assert 8 <= sent < 10**5
    assert dropped is not None and drops == [dropped]


def test_a_peer_that_does_not_read_is_dropped_at_the_send_deadline() -> None:
    async def scenario() -> str | None:
        writer, client = await _pair(Limits())
        outbox = Outbox(writer, Limits(queue_bytes=10**9, send_timeout=0.05), MonotonicClock())
        while not outbox.backed_up():  # fill the system's buffers, then queue one more
            outbox.put(b"y" * 65536)
        outbox.put(b"late\n")
        await asyncio.wait_for(writer.wait_closed(), LOOSE)
        await client.close()
        return outbox.dropped

    assert asyncio.run(scenario()) == "not reading: output waited over 0.05 s"


def test_closing_sends_what_is_queued_first() -> None:
    async def scenario() -> list[str]:
        writer, client = await _pair(Limits())
        outbox = Outbox(writer, Limits(), MonotonicClock())
        for number in range(300):
            outbox.put(f"{number:04d}".encode() * 100 + b"\n")
        await outbox.close()
        got = []
        with pytest.raises(ConnectionClosed):
            while True:
                got.append(await asyncio.wait_for(client.receive(), LOOSE))
        return got

    got = asyncio.run(scenario())
    assert [line[:4] for line in got] == [f"{number:04d}" for number in range(300)]


async def _flood_server(
    limits: Limits, outcomes: list[str], log: list[str]
) -> tuple[int, asyncio.Event]:
    finished = asyncio.Event()

    async def echo(stream: LineStream) -> None:
        try:
            while True:
                try:
                    line = await stream.receive()
                except (LineTooLong, RateLimited) as problem:
                    outcomes.append(type(problem).__name__)
                    continue
                await stream.send(f"echo {line}")
        except Flooding as error:
            outcomes.append(f"Flooding: {error}")
        except ConnectionClosed:
            outcomes.append("closed")
        finally:
            await stream.close()
            finished.set()

    server = await serve_lines(echo, limits=limits, log=WarningLog(log.append, FakeClock()))
    return bound_port(server), finished


def test_a_flooding_client_is_told_once_then_dropped_and_logged_once() -> None:
    async def scenario() -> tuple[list[str], list[str], str]:
        outcomes: list[str] = []
        log: list[str] = []
        port, finished = await _flood_server(Limits(lines_per_second=1, burst=5), outcomes, log)
        flooder = await connect_lines("127.0.0.1", port)
        flooder.writer.write(b"ayuda\n" * 10_000)
        await asyncio.wait_for(finished.wait(), LOOSE)
        honest = await connect_lines("127.0.0.1", port)
        await honest.send("hello")
        answer = await asyncio.wait_for(honest.receive(), LOOSE)
        await flooder.close()
        await honest.close()
        return outcomes, log, answer

    outcomes, log, answer = asyncio.run(scenario())
    assert outcomes[:2] == ["RateLimited", "Flooding: flooding: more than 1 lines a second"]
    assert len(log) == 1 and log[0].endswith(": dropped: flooding: more than 1 lines a second")
    assert answer == "echo hello"


def test_an_endless_line_is_a_flood_not_a_memory_leak() -> None:
    async def scenario() -> list[str]:
        outcomes: list[str] = []
        port, finished = await _flood_server(Limits(burst=10, max_line=64), outcomes, [])
        client = await connect_lines("127.0.0.1", port)
        client.writer.write(b"z" * 200 + b"\nshort\n")
        assert await asyncio.wait_for(client.receive(), LOOSE) == "echo short"
        client.writer.write(b"z" * 100_000)  # no newline, ever
        await asyncio.wait_for(finished.wait(), LOOSE)
        await client.close()
        return outcomes

    assert asyncio.run(scenario()) == [
        "LineTooLong",
        "Flooding: flooding: more than 50 bytes of one line a second",
    ]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\x1b[2JEvil", "A name is 1 to 20 letters, digits or signs, without spaces."),
        ("Bell\x07", "A name is 1 to 20 letters, digits or signs, without spaces."),
        ("Right\u202eto", "A name is 1 to 20 letters, digits or signs, without spaces."),
        ("x" * 21, "A name is 1 to 20 letters, digits or signs, without spaces."),
        ("", "A name is 1 to 20 letters, digits or signs, without spaces."),
        ("two words", "A name is 1 to 20 letters, digits or signs, without spaces."),
        ("Ana", "That name belongs to a computer player."),
        ("ANA", "That name belongs to a computer player."),
        ("\uff21na", "That name belongs to a computer player."),  # fullwidth A
        ("zoë", "That name is taken."),
        ("Ana(bot)", "A name ending in (bot) is a computer player's."),
        ("Hugo(BOT)", "A name ending in (bot) is a computer player's."),
    ],
)
def test_names_that_are_refused(name: str, why: str) -> None:
    with pytest.raises(BadName) as refused:
        check_name(name, reserved=["Ana", "Bruno"], taken=["Zoë"])
    assert str(refused.value) == why


def test_names_that_are_fine() -> None:
    for name in ("Zoë", "x" * 20, "Ñandú-7", "李", "Bot", "(bot)Ana"):
        assert check_name(name, reserved=["Ana"], taken=["Zoe2"]) == name
    assert check_name("Stephen Curry", most=40, spaces=True) == "Stephen Curry"
    with pytest.raises(BadName, match="computer player"):
        check_name("Ana (Bot)", most=40, spaces=True)
    with pytest.raises(BadName, match="1 to 40 printable characters"):
        check_name("Steph\tCurry", most=40, spaces=True)


def test_one_bucket_for_the_socket_servers_and_the_web_on_the_machines_clock() -> None:
    from casino.clock import MonotonicClock
    from casino.net.guard import TokenBucket
    from casino.web.guard import Bucket

    line, web = FloodGuard(Limits(lines_per_second=0.001, burst=2)), Bucket(FakeClock(), 1, 2)
    assert isinstance(line, TokenBucket) and isinstance(web, TokenBucket)
    assert isinstance(line.clock, MonotonicClock)  # never a game clock a transcript stops
    for bucket in (line, web):
        assert [bucket.take() for _ in range(2)] == [True, True]
    assert [line.take(), line.take(), line.flooding] == [False, False, True]  # burst refused
    assert [web.take(), web.take(), web.flooding] == [False, False, False]  # burst + 1
    assert [web.take(), web.flooding, web.over] == [False, True, 3]


def test_one_limits_outbox_flood_and_quiet_log_for_the_socket_servers_and_the_web() -> None:
    from casino.net import guard
    from casino.net.outbox import Mailbox
    from casino.web import guard as web

    assert issubclass(web.Limits, guard.Limits) and web.Flooding is guard.Flooding
    assert issubclass(web.Outbox, Mailbox) and issubclass(guard.Outbox, Mailbox)
    numbers = web.Limits(send_timeout=2.5, lines_per_second=3)
    assert (numbers.send_seconds, numbers.rate, numbers.burst) == (2.5, 3, 20)
    assert isinstance(web.QuietLog(FakeClock(), numbers).quota, guard.Quota)
    assert isinstance(WarningLog(print)._quota, guard.Quota)


def test_a_quota_opens_each_kinds_period_with_its_first_line_and_caps_them_all() -> None:
    from casino.net.guard import Quota

    clock = FakeClock()
    quota = Quota(clock, period=60, per_kind=2, total=3)
    assert [quota.admit("a"), quota.admit("a"), quota.admit("a")] == [0, 0, None]
    clock.advance(30)
    assert [quota.admit("b"), quota.admit("b")] == [0, None]  # 3 in all this period
    clock.advance(30)  # a's period and the total's end; b's runs to 90: its 2nd, not a 3rd
    assert [quota.admit("a"), quota.admit("b"), quota.admit("b")] == [1, 1, None]
    clock.advance(30)
    assert [quota.admit("b"), quota.admit("c")] == [1, None]  # b's new period; 3 in all


def test_an_outboxs_deadline_runs_from_when_the_item_was_queued() -> None:
    from casino.net.outbox import Mailbox

    class Slow(Mailbox[str]):
        def __init__(self, clock: FakeClock) -> None:
            super().__init__(bound=10, deadline=5, clock=clock, on_drop=drops.append)
            self.clock, self.sent = clock, list[str]()

        async def send(self, item: str) -> None:
            self.clock.advance(3)  # each send takes 3 s of the clock
            self.sent.append(item)

    drops: list[str] = []

    async def body() -> Slow:
        box = Slow(FakeClock())
        for item in "xyz":
            box.enqueue(item)
        box.closing()
        await asyncio.wait([box.start()])
        return box

    box = asyncio.run(asyncio.wait_for(body(), 30))
    # x is taken at 3 s, y at 6 s: 6 s after it was queued, past its 5 s
    assert box.sent == ["x", "y"] and drops == ["not reading: output waited over 5 s"]
    assert box.dropped == drops[0]
