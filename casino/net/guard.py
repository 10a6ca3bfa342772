"""What keeps one client from stalling a server: bounded output, flood limits, quiet logs.

casino has one guard, for the socket servers and the web (:mod:`casino.web.guard` keeps only
what is the web's): one :class:`Limits`, one outbox (:class:`~casino.net.outbox.Mailbox`; a
socket server's is :class:`Outbox`), one :class:`TokenBucket` (flood detector, raising
:class:`Flooding`) and one quiet log's count (:class:`Quota`; a socket server's log is
:class:`WarningLog`).

Every connection a casino server accepts sends through an :class:`Outbox`, and a line
server's connection reads through a :class:`FloodGuard` (a frame server reads only the reply
it asked for: see :func:`casino.net.stream.serve`), with the numbers of one :class:`Limits`:

- **sending never waits.** :meth:`Outbox.put` queues bytes and returns; the outbox's own task
  writes them. A peer that does not read is *dropped* (its connection aborted, so the server's
  read of it ends as a disconnect) when its queue passes :attr:`Limits.queue_bytes`, or when a
  write is not taken by the peer within :attr:`Limits.send_timeout` seconds of being queued;
- **reading is rate-limited.** Each line (or frame) costs one token of a bucket that holds
  :attr:`Limits.burst` and refills :attr:`Limits.lines_per_second`; a line that finds the
  bucket empty is discarded, and :attr:`Limits.burst` discarded in a row drop the peer
  (:class:`TokenBucket`, the web's too: :mod:`casino.web.guard`);
- **warnings are rate-limited.** :class:`WarningLog` writes the first warning of a kind at
  once and then at most one per :attr:`WarningLog.interval` seconds, saying how many it held back.

**The clock rule** (one for every guard, the socket servers' and the web's): a guard measures
the peer, on the :class:`~casino.clock.Clock` it is handed — :class:`~casino.clock.MonotonicClock`
(the machine's time) when none, a :class:`~casino.clock.FakeClock` only in a test or transcript
that moves it; and a flood budget is never on a clock that may stand still (a game clock a
transcript stops would make every client a flooder). So the socket servers hand their line
guard no clock, and their outboxes and logs the server's own clock (like every other time-out
of the table); the web's one clock is the machine's outside tests, and its outboxes get none.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from casino.clock import Clock, MonotonicClock
from casino.errors import ParseError
from casino.net.errors import ConnectionClosed
from casino.net.outbox import Mailbox

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


class Outbox(Mailbox[bytes]):
    """Bytes on their way to one peer of a socket server: the one :class:`Mailbox`, bounded
    by :attr:`Limits.queue_bytes` and :attr:`Limits.send_timeout` (see the module)."""

    def __init__(
        self,
        writer: asyncio.StreamWriter,
        limits: Limits,
        clock: Clock | None = None,
        on_drop: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(limits.queue_bytes, limits.send_timeout, clock, on_drop)
        self._writer = writer

    def size(self, item: bytes) -> int:
        """A byte each."""
        return len(item)

    def full(self) -> str:
        """Over :attr:`Limits.queue_bytes` bytes waiting."""
        return f"not reading: over {self.bound} bytes waiting"

    def put(self, data: bytes) -> None:
        """Queue ``data``; :class:`ConnectionClosed` if the peer is gone or was just dropped
        for not reading."""
        if self.dropped is not None:
            raise ConnectionClosed(self.dropped)
        if self._closing or self._writer.transport.is_closing():
            raise ConnectionClosed("the connection is closed")
        if not self.fits(data):
            raise ConnectionClosed(str(self.dropped))
        if not self.waiting and not self.backed_up():
            self._writer.write(data)  # the common case: straight to the system, in order
            return
        self.enqueue(data)

    def backed_up(self) -> bool:
        """Whether the system's buffers and the transport's are full (output now queues)."""
        transport = self._writer.transport
        return transport.get_write_buffer_size() > transport.get_write_buffer_limits()[1]

    def hang_up(self) -> None:
        """Abort the connection (so the server's read of it ends as a disconnect)."""
        self._writer.transport.abort()

    async def send(self, item: bytes) -> None:
        """Write ``item`` and wait until the system has taken it."""
        self._writer.write(item)
        await self._writer.drain()

    @property
    def idle(self) -> bool:
        """Whether everything queued has been handed to the system."""
        return not self.waiting and self._writer.transport.get_write_buffer_size() == 0

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
        self.closing()

    async def finish(self) -> None:
        """Wait (to the deadline) for the system to send it all, then close."""
        await self.within(self._writer.drain(), self._clock.now())
        if self.dropped is None:
            self._writer.close()


class Quota:
    """casino's one quiet log's count (the socket servers' :class:`WarningLog` and the web's
    :class:`~casino.web.guard.QuietLog`): at most ``per_kind`` lines of one kind in a
    ``period``, and (if ``total`` is given) ``total`` of all kinds in one; the rest held back
    and counted, so the next line of the kind that is written can say how many were not.

    A kind's period opens with the first line of it written and lasts ``period`` seconds (so
    with ``per_kind=1``: one line, then none until ``period`` has passed since it); the
    period of ``total`` opens when the quota is made and again with the first line after it
    ends. At most ``kinds`` kinds are counted (memory stays bounded whatever a peer sends).

    >>> from casino.clock import FakeClock
    >>> clock = FakeClock()
    >>> quota = Quota(clock, period=60, per_kind=2)
    >>> [quota.admit("drop") for _ in range(5)]
    [0, 0, None, None, None]
    >>> clock.advance(60)
    >>> quota.admit("drop"), quota.admit("drop")
    (3, 0)
    """

    def __init__(
        self,
        clock: Clock,
        period: float,
        per_kind: int = 1,
        total: int | None = None,
        kinds: int = 10_000,
    ) -> None:
        self.clock = clock
        self.period = period
        self.per_kind = per_kind
        self.total = total
        self.kinds = kinds
        self._opened: dict[Hashable, tuple[float, int]] = {}
        self._all = (clock.now(), 0)
        self._held: dict[Hashable, int] = {}

    def admit(self, kind: Hashable) -> int | None:
        """``None`` if a line of ``kind`` is to be held back now (it is counted); else how
        many of ``kind`` were held back before it (and are now told)."""
        now = self.clock.now()
        start, count = self._window(kind, now)
        if count >= self.per_kind or self._all_spent(now):
            if len(self._held) < self.kinds or kind in self._held:
                self._held[kind] = self._held.get(kind, 0) + 1
            return None
        self._opened[kind] = (start, count + 1)
        self._all = (self._all[0], self._all[1] + 1)
        return self._held.pop(kind, 0)

    def _window(self, kind: Hashable, now: float) -> tuple[float, int]:
        opened = self._opened.get(kind)
        if opened is None or now - opened[0] >= self.period:
            return now, 0
        return opened

    def _all_spent(self, now: float) -> bool:
        if now - self._all[0] >= self.period:
            self._all = (now, 0)
            self._opened = {k: v for k, v in self._opened.items() if now - v[0] < self.period}
        return self.total is not None and self._all[1] >= self.total


class WarningLog:
    """Warnings by kind, the first at once and then at most one per ``interval`` seconds
    (a :class:`Quota` of one a kind)."""

    def __init__(
        self, write: Callable[[str], None], clock: Clock | None = None, interval: float = 60.0
    ) -> None:
        self._write = write
        self._quota = Quota(clock or MonotonicClock(), interval)
        self.interval = interval

    def warn(self, kind: str, text: str) -> None:
        """Write ``text`` unless a warning of ``kind`` was written less than ``interval`` ago
        (then count it, and say how many were held back with the next one written)."""
        held = self._quota.admit(kind)
        if held is not None:
            self._write(text if not held else f"{text} (and {held} more like it before)")


def quiet_log() -> WarningLog:
    """A log that writes nothing (for servers nobody watches)."""
    return WarningLog(lambda text: None)
