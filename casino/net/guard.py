"""What keeps one client from stalling a server: bounded output, flood limits, quiet logs.

Every connection a casino server accepts sends through an :class:`Outbox`, and a line
server's connection reads through a :class:`FloodGuard` (a frame server reads only the reply
it asked for: see :func:`casino.net.stream.serve`), with the numbers of one :class:`Limits`:

- **sending never waits.** :meth:`Outbox.put` queues bytes and returns; the outbox's own task
  writes them. A peer that does not read is *dropped* (its connection aborted, so the server's
  read of it ends as a disconnect) when its queue passes :attr:`Limits.queue_bytes`, or when a
  write is not taken by the peer within :attr:`Limits.send_timeout` seconds of being queued
  (on the server's injected clock, like every other time-out of the table);
- **reading is rate-limited.** Each line (or frame) costs one token of a bucket that holds
  :attr:`Limits.burst` and refills :attr:`Limits.lines_per_second`; a line that finds the
  bucket empty is discarded, and :attr:`Limits.burst` discarded in a row drop the peer
  (:class:`TokenBucket`, the web's too: :mod:`casino.web.guard`);
- **warnings are rate-limited.** :class:`WarningLog` writes the first warning of a kind at
  once and then at most one per :attr:`WarningLog.interval` seconds, saying how many it held back.

**The clock rule** (one for every guard, the socket servers' and the web's): a guard measures
the peer, so its flood budget is on the machine's time — the injected
:class:`~casino.clock.Clock` it is handed, :class:`~casino.clock.MonotonicClock` when none, a
:class:`~casino.clock.FakeClock` only in a test that moves it — and never on a game clock that
a transcript may stop (a clock that stands still would make every client a flooder). The
socket servers therefore hand their line guard no clock (their game clock may be a
transcript's); the web's one clock is the machine's outside tests, so it hands that.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from casino.clock import Clock, MonotonicClock
from casino.errors import ParseError
from casino.net.errors import ConnectionClosed

MAX_LINE = 1024
"""The longest line (in bytes) a line stream accepts."""


@dataclass(frozen=True)
class Limits:
    """The numbers that bound what one client may cost a server."""

    queue_bytes: int = 64 * 1024
    """Output queued for one client (beyond what the system buffers) before it is dropped."""
    send_timeout: float = 30.0
    """Seconds queued output may wait for the client to read it before it is dropped."""
    lines_per_second: float = 50.0
    """Sustained lines (or frames) a client may send per second."""
    burst: int = 100
    """Lines a client may send at once; also how many refused lines in a row drop it."""
    max_line: int = MAX_LINE
    """The longest line in bytes; a longer one is skipped (and costs a token per this many)."""
    max_connections: int = 4096
    """Connections at once (lowered to fit the process's file descriptor limit)."""


class Flooding(ConnectionClosed):
    """The client sent more than :class:`Limits` allow and was dropped."""


class RateLimited(ParseError):
    """The client is over its rate: a line was discarded (raised once per run of them)."""


class TokenBucket:
    """casino's one token bucket and flood detector (the socket servers' and the web's):
    ``rate`` tokens a second on average, ``burst`` at once, on the clock it is given (see the
    module's clock rule); ``drop_after`` refusals in a row make a flood."""

    def __init__(self, clock: Clock, rate: float, burst: int, drop_after: int) -> None:
        self.clock = clock
        self.rate = rate
        self.burst = burst
        self.drop_after = drop_after
        self.tokens = float(burst)
        self.last = clock.now()
        self.refused = 0
        """Refused since the last one taken."""

    def take(self, cost: int = 1) -> bool:
        """Take ``cost`` tokens if the bucket holds them; count a refusal if not."""
        now = self.clock.now()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= cost:
            self.tokens -= cost
            self.refused = 0
            return True
        self.refused += 1
        return False

    @property
    def flooding(self) -> bool:
        """Whether ``drop_after`` were refused in a row."""
        return self.refused >= self.drop_after


class FloodGuard(TokenBucket):
    """A line server's :class:`TokenBucket`, from its :class:`Limits`: :attr:`Limits.burst`
    refused lines in a row drop the client. Its clock is the machine's unless a test injects one
    (never the server's game clock, which a transcript may stop)."""

    def __init__(self, limits: Limits, clock: Clock | None = None) -> None:
        rate, burst = limits.lines_per_second, limits.burst
        super().__init__(clock or MonotonicClock(), rate, burst, drop_after=burst)
        self.limits = limits

    def admit(self, cost: int = 1) -> bool:
        """:meth:`TokenBucket.take`: whether a line of ``cost`` tokens may pass."""
        return self.take(cost)

    @property
    def exhausted(self) -> bool:
        """Whether the client has been refused :attr:`Limits.burst` lines in a row."""
        return self.flooding


class Outbox:
    """Bytes on their way to one peer, written by a task of their own (see the module)."""

    def __init__(
        self,
        writer: asyncio.StreamWriter,
        limits: Limits,
        clock: Clock | None = None,
        on_drop: Callable[[str], None] | None = None,
    ) -> None:
        self._writer = writer
        self._limits = limits
        self._clock: Clock = clock or MonotonicClock()
        self._on_drop = on_drop
        self._queue: deque[tuple[float, bytes]] = deque()
        self._queued = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.dropped: str | None = None
        """Why the peer was dropped (``None`` while it is not)."""

    def put(self, data: bytes) -> None:
        """Queue ``data``; :class:`ConnectionClosed` if the peer is gone or was just dropped
        for not reading."""
        if self.dropped is not None:
            raise ConnectionClosed(self.dropped)
        if self._closing or self._writer.transport.is_closing():
            raise ConnectionClosed("the connection is closed")
        if self._queued + len(data) > self._limits.queue_bytes:
            self.drop(f"not reading: over {self._limits.queue_bytes} bytes waiting")
            raise ConnectionClosed(str(self.dropped))
        if not self._queue and not self.backed_up():
            self._writer.write(data)  # the common case: straight to the system, in order
            return
        self._queue.append((self._clock.now(), data))
        self._queued += len(data)
        self._start()

    def backed_up(self) -> bool:
        """Whether the system's buffers and the transport's are full (output now queues)."""
        transport = self._writer.transport
        return transport.get_write_buffer_size() > transport.get_write_buffer_limits()[1]

    def drop(self, reason: str) -> None:
        """Abort the connection now (unsent output is lost); the first reason is kept."""
        if self.dropped is not None:
            return
        self.dropped = reason
        self._queue.clear()
        self._queued = 0
        self._writer.transport.abort()
        self._wake.set()
        if self._on_drop is not None:
            self._on_drop(reason)

    @property
    def idle(self) -> bool:
        """Whether everything queued has been handed to the system."""
        return not self._queue and self._writer.transport.get_write_buffer_size() == 0

    async def close(self) -> None:
        """Send what is queued, then hang up; never waits for a peer that does not read
        (the outbox's task finishes the job, or drops the peer at its deadline)."""
        if self._closing:
            return
        self._closing = True
        if self.dropped is not None:
            return
        if self.idle:
            with contextlib.suppress(ConnectionError, OSError, RuntimeError):
                self._writer.close()
                await self._writer.wait_closed()
            return
        self._writer.transport.set_write_buffer_limits(high=0)  # drain() = all of it sent
        self._start()

    def _start(self) -> None:
        self._wake.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        try:
            while self.dropped is None:
                if not self._queue:
                    if self._closing:
                        await self._finish(self._clock.now())
                        return
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                since, data = self._queue.popleft()
                self._queued -= len(data)
                self._writer.write(data)
                await self._drained(since)
        except (ConnectionError, OSError, RuntimeError) as error:
            self.drop(f"connection lost while sending: {error}")

    async def _drained(self, since: float) -> None:
        limit = self._limits.send_timeout
        remaining = max(0.0, since + limit - self._clock.now())
        try:
            await self._clock.within(self._writer.drain(), remaining)
        except TimeoutError:
            self.drop(f"not reading: output waited over {limit:g} s")

    async def _finish(self, since: float) -> None:
        await self._drained(since)
        if self.dropped is None:
            self._writer.close()


class WarningLog:
    """Warnings by kind, the first at once and then at most one per ``interval`` seconds."""

    def __init__(
        self, write: Callable[[str], None], clock: Clock | None = None, interval: float = 60.0
    ) -> None:
        self._write = write
        self._clock: Clock = clock or MonotonicClock()
        self.interval = interval
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def warn(self, kind: str, text: str) -> None:
        """Write ``text`` unless a warning of ``kind`` was written less than ``interval`` ago
        (then count it, and say how many were held back with the next one written)."""
        now = self._clock.now()
        last = self._last.get(kind)
        if last is not None and now - last < self.interval:
            self._held[kind] = self._held.get(kind, 0) + 1
            return
        held = self._held.pop(kind, 0)
        self._last[kind] = now
        self._write(text if not held else f"{text} (and {held} more like it before)")


def quiet_log() -> WarningLog:
    """A log that writes nothing (for servers nobody watches)."""
    return WarningLog(lambda text: None)
