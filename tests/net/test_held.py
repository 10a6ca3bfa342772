"""A dealer whose table holds its players' sockets (``casino stud dealer``, a tournament):
the same game as through the event loop, and the same hardening without the loop's help.

The players are threads of this process on real loopback sockets (the held dealer blocks
its loop, not the threads). Time-outs are real but the assertions are on outcomes only:
honest players get a limit they meet on a machine busy with other work (they answer in
microseconds), and the only wait is a silent player's time-out."""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import threading
from collections.abc import Callable
from typing import Any

import pytest

from casino.clock import FakeClock, MonotonicClock
from casino.net.client import FrameSocket
from casino.net.errors import ConnectionClosed
from casino.net.guard import Limits
from casino.net.held import HeldClock, SocketPeer
from casino.net.javautf import encode_frame
from casino.stud.bots import AlwaysCall
from casino.stud.dealer import DealerSettings, Seat, Table, TableConfig, run_dealer
from casino.stud.local import LocalConnection
from casino.stud.player import PlayerSession, play

Client = Callable[[int], None]
"""What a test's client thread does, given the dealer's port."""
FINISHED = threading.Event()
"""Set when the dealer of the test has returned."""


class Log:
    """The dealer's log lines and hand records."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.records: list[dict[str, Any]] = []

    def event(self, text: str) -> None:
        """Keep ``text``."""
        self.lines.append(text)

    def hand_over(self, record: dict[str, Any], seats: list[Seat]) -> None:
        """Keep the hand."""
        self.records.append(record)


def honest(ident: str, sessions: dict[str, PlayerSession]) -> Client:
    """A player that always calls, until ``done``."""

    def run(port: int) -> None:
        session = PlayerSession(AlwaysCall(), ident, ident.title())
        sessions[ident] = session
        play(FrameSocket.connect("127.0.0.1", port), session)

    return run


def hold_the_table(settings: DealerSettings, clients: list[Client]) -> tuple[list[Seat], Log]:
    """Run a held dealer; each client in its own thread, started once the dealer listens."""
    log = Log()
    threads: list[threading.Thread] = []

    def listening(port: int) -> None:
        for client in clients:
            thread = threading.Thread(target=client, args=(port,), daemon=True)
            thread.start()
            threads.append(thread)

    clock = MonotonicClock()
    FINISHED.clear()
    seats = asyncio.run(run_dealer(settings, clock, log, listening, alone=clock))
    FINISHED.set()
    for thread in threads:
        thread.join(60)
    return seats, log


def test_a_held_table_plays_the_same_hands_as_one_through_the_loop() -> None:
    sessions: dict[str, PlayerSession] = {}
    settings = DealerSettings(players=3, seed=7, table=TableConfig(hands=40, reply_timeout=30))
    clients = [honest(name, sessions) for name in ("ann", "bob", "cy")]
    seats, log = hold_the_table(settings, clients)
    assert [seat.left for seat in seats] == ["game over"] * 3
    assert [session.done for session in sessions.values()] == ["game over"] * 3
    # The same seats and seed in one process, through the loop: the same records.
    by_seat = {seat.number: seat.ident for seat in seats}
    local = [
        Seat(n, by_seat[n], by_seat[n].title(), 100, LocalConnection(_responder(by_seat[n])))
        for n in range(3)
    ]
    table = Table(local, settings.table, MonotonicClock(), random.Random(7), Log())
    replayed = Log()
    table.observer = replayed
    asyncio.run(table.play())
    assert log.records == replayed.records
    assert len(log.records) == 40


def _responder(ident: str) -> Callable[[str], str | None]:
    return PlayerSession(AlwaysCall(), ident, ident.title()).respond


def silent(port: int) -> None:
    """Logs in, then never answers (and keeps reading, so nothing is queued for it)."""
    connection = FrameSocket.connect("127.0.0.1", port)
    connection.receive()
    connection.send("mute:Mute")
    try:
        while True:
            connection.receive()
    except ConnectionClosed:
        connection.close()


def garbage(port: int) -> None:
    """Logs in, then answers its first request with bytes that are not modified UTF-8."""
    connection = FrameSocket.connect("127.0.0.1", port)
    connection.receive()
    connection.send("junk:Junk")
    connection.receive()
    raw = socket.socket(fileno=connection._socket.detach())
    raw.sendall(b"\x00\x02\xff\xfe")
    with contextlib.suppress(OSError):
        while raw.recv(65536):
            pass
    raw.close()


def flooder(port: int) -> None:
    """Logs in, then sends 400 KiB of unasked bets and never reads again (its receive buffer
    small and fixed, so the dealer's output backs up after the same few hundred hands on a
    quiet machine or a busy one)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    connection = FrameSocket(sock)
    connection.receive()
    connection.send("flood:Flood")
    raw = socket.socket(fileno=connection._socket.detach())
    with contextlib.suppress(OSError):
        raw.sendall(encode_frame("bet:0") * 60_000)
    FINISHED.wait(60)
    raw.close()


@pytest.mark.parametrize(
    ("misbehaving", "why"),
    [
        (silent, "no reply within 2 s to bet1:"),
        (garbage, "disconnected (not a frame: malformed modified UTF-8 at byte 0 of the frame)"),
    ],
)
def test_a_held_table_removes_a_player_that_is_silent_or_sends_garbage(
    misbehaving: Client, why: str
) -> None:
    sessions: dict[str, PlayerSession] = {}
    settings = DealerSettings(players=3, seed=3, table=TableConfig(hands=5, reply_timeout=2))
    clients = [honest("ann", sessions), honest("bob", sessions), misbehaving]
    seats, log = hold_the_table(settings, clients)
    left = {seat.ident: seat.left for seat in seats}
    bad = next(ident for ident in left if ident not in sessions)
    assert str(left[bad]).startswith(why)
    assert left["ann"] == left["bob"] == "game over"
    assert len(log.records) == 5


def test_a_held_peer_that_never_reads_is_dropped_and_its_bytes_stay_bounded() -> None:
    """Held, a flooding player's unasked bets are its replies (each legal: 0, as its opponent
    only calls); the dealer's output to it, never read, fills the system's buffers and then
    the peer's queue, and it is dropped (over the queue's bound, or the send time-out on a
    slow machine), not waited for."""
    sessions: dict[str, PlayerSession] = {}
    settings = DealerSettings(players=2, seed=5, table=TableConfig(hands=20_000, reply_timeout=2))
    seats, log = hold_the_table(settings, [honest("ann", sessions), flooder])
    left = {seat.ident: seat.left for seat in seats}
    assert left["ann"] == "game over"
    assert str(left["flood"]).startswith("disconnected (not reading: ")
    assert f"dropped: {str(left['flood'])[len('disconnected (') : -1]}" in log.lines[2]


def test_a_held_peer_queues_what_the_system_does_not_take_and_drops_it_over_the_bound() -> None:
    quiet, other = socket.socketpair()
    quiet.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    peer = SocketPeer(quiet, Limits(queue_bytes=10_000, send_timeout=5), MonotonicClock())
    peer.hold(MonotonicClock(), 0.1)
    frame = "status:lose:" + "x" * 988  # 1,002 bytes as a frame

    async def fill() -> int:
        sent = 0
        with pytest.raises(ConnectionClosed) as raised:
            while True:
                await peer.send(frame)
                sent += 1
        assert str(raised.value) == "not reading: over 10000 bytes waiting"
        return sent

    sent = asyncio.run(fill())
    assert sent > 10  # the system's buffers, then the queue, took some
    assert peer.dropped == "not reading: over 10000 bytes waiting"
    other.close()


def test_a_held_receive_times_out_and_a_cancelled_task_stops_at_its_next_wait() -> None:
    mine, theirs = socket.socketpair()
    peer = SocketPeer(mine, clock=MonotonicClock())
    peer.hold(MonotonicClock(), 0.05)

    async def late() -> None:
        await peer.receive()

    with pytest.raises(TimeoutError):
        asyncio.run(late())

    async def cancelled() -> str:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()  # as the first Ctrl-C does, while the table holds the loop
        theirs.sendall(encode_frame("bet:1"))
        return await peer.receive()

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(cancelled())
    theirs.close()


def test_the_held_clock_keeps_the_time_and_sets_no_timer() -> None:
    clock = HeldClock(MonotonicClock())

    async def scheduled() -> tuple[str, int]:
        loop = asyncio.get_running_loop()
        before = len(loop._scheduled)  # type: ignore[attr-defined]
        result = await clock.within(asyncio.sleep(0, "done"), 0.0)
        return result, len(loop._scheduled) - before  # type: ignore[attr-defined]

    assert asyncio.run(scheduled()) == ("done", 0)
    assert clock.now() <= MonotonicClock().now()


def test_a_peer_held_on_another_clock_waits_on_that_clock() -> None:
    """Only the real clock's waits are the kernel's (``SO_RCVTIMEO``); a fake clock is asked
    (its time passes at once), and the socket stays non-blocking."""
    mine, theirs = socket.socketpair()
    clock = FakeClock()
    peer = SocketPeer(mine, clock=clock)
    peer.hold(clock, 1.5)

    async def receive() -> str:
        return await peer.receive()

    with pytest.raises(TimeoutError, match=r"^no frame within 1\.5 s$"):
        asyncio.run(receive())
    assert clock.now() == 1.5
    assert not mine.getblocking()
    theirs.sendall(encode_frame("bet:2") + encode_frame("fold"))
    assert asyncio.run(receive()) == "bet:2"
    assert asyncio.run(receive()) == "fold"
    assert clock.now() == 1.5
    theirs.close()
    with pytest.raises(ConnectionClosed, match="the connection was closed"):
        asyncio.run(receive())
    mine.close()


def test_a_peer_held_on_the_real_clock_reads_and_times_out_in_the_kernel() -> None:
    mine, theirs = socket.socketpair()
    peer = SocketPeer(mine, clock=MonotonicClock())
    peer.hold(MonotonicClock(), 0.05)
    assert mine.getblocking()  # its reads block, for at most the reply time-out

    async def receive() -> str:
        return await peer.receive()

    theirs.sendall(encode_frame("bet:3"))
    assert asyncio.run(receive()) == "bet:3"
    with pytest.raises(TimeoutError, match=r"^no frame within 0\.05 s$"):
        asyncio.run(receive())
    theirs.close()
    mine.close()
