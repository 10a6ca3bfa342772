"""What keeps one browser from stalling a table or filling the log.

- :class:`Outbox`: each socket's sender. The table *posts* a message and never waits: one task
  per socket sends from a bounded queue, each send cut off at a deadline. A client whose
  queue is full or whose send is late does not read: it is dropped (its connection aborted,
  so its seat is away: checked or folded at its turns on the table's clock).
- :class:`Bucket`: a token bucket on the injected clock for the messages a client sends. A
  message over the budget is ignored; a client that keeps sending over it is dropped.
- :class:`QuietLog`: a filter on the ``casino.web`` logger: at most a few lines of one kind
  about one party, and a few dozen in all, per minute of the clock; the rest are counted and
  the count is told with the next line that gets through.

The network's deadlines (a send, closing a socket) are real time (:func:`asyncio.timeout`):
they measure the peer, not the game. The budget of messages follows the one clock rule of
:mod:`casino.net.guard` (the machine's time, injected; the web's one clock is the machine's
outside tests); the log's minute, seats and sessions are on that injected clock too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from casino.clock import Clock
from casino.net.guard import TokenBucket

LOG = logging.getLogger("casino.web")


@dataclass(frozen=True)
class Limits:
    """How much one client may cost the server."""

    queue: int = 64
    """Messages waiting to be sent to one socket; one more and the client is dropped."""
    send_seconds: float = 10.0
    """Real seconds one send may take (a client that does not read is dropped)."""
    socket_buffer: int = 16 * 1024
    """The kernel's send buffer of a socket (``SO_SNDBUF``) and the most its connection
    keeps unwritten: what a client that does not read can hold before its sends wait
    (Linux would let the kernel's grow to megabytes)."""
    rate: float = 5.0
    """Messages a second a client may send, on average..."""
    burst: int = 20
    """...and at once; this many more ignored in a row and the client is dropped."""
    log_lines: int = 10
    """Log lines of one kind about one party per ``log_period``..."""
    log_total: int = 100
    """...and in all."""
    log_period: float = 60.0
    session_idle: float = 3600.0
    """A session unused for this long ends (the member joins again in the lobby)."""
    session_age: float = 24 * 3600.0
    """A session ends this long after it started, used or not."""
    sessions: int = 10_000
    """Sessions kept at most; beyond it a new member is refused (503) until some end."""
    join_rate: float = 1.0
    """Joins a second one address may make on average (``join_rate * session_idle`` is
    under ``sessions``: one address alone cannot fill the casino)..."""
    join_burst: int = 60
    """...and at once; over it: 429."""


class Sender(Protocol):
    """What an :class:`Outbox` sends through (an aiohttp ``WebSocketResponse``)."""

    async def send_json(self, data: Any) -> None:
        """Send ``data`` as a JSON text message."""
        ...


class Outbox:
    """One socket's sender: a bounded queue that one task drains, each send with a deadline.

    :meth:`post` never waits. A full queue or a send over ``send_seconds`` drops the client:
    ``abort`` is called (it closes the connection, which ends the socket's reading loop) and
    every later :meth:`post` raises :class:`ConnectionError`.
    """

    def __init__(self, socket: Sender, who: str, limits: Limits, abort: Callable[[], None]) -> None:
        self.socket = socket
        self.who = who
        self.limits = limits
        self.abort = abort
        self.queue: asyncio.Queue[Any] = asyncio.Queue(limits.queue)
        self.dropped: str | None = None
        self.task = asyncio.create_task(self._drain())

    def post(self, data: Any) -> None:
        """Queue ``data`` to be sent; :class:`ConnectionError` if the client is dropped."""
        if self.dropped is None:
            try:
                self.queue.put_nowait(data)
            except asyncio.QueueFull:
                self.drop(f"does not read ({self.limits.queue} messages waiting)")
        if self.dropped is not None:
            raise ConnectionError(f"{self.who}: {self.dropped}")

    async def _drain(self) -> None:
        while True:
            data = await self.queue.get()
            if data is None:
                return
            try:
                async with asyncio.timeout(self.limits.send_seconds):
                    await self.socket.send_json(data)
            except TimeoutError:
                self.drop(f"does not read (a send took over {self.limits.send_seconds:g} s)")
                return
            except (ConnectionError, RuntimeError):
                self.drop("")  # the page is gone: nothing to say
                return

    def drop(self, reason: str) -> None:
        """Give up on the client (once): log why, stop sending, close the connection."""
        if self.dropped is not None:
            return
        self.dropped = reason or "closed"
        if reason:
            LOG.warning("dropped %r: %s", self.who, reason)
        if self.task is not asyncio.current_task():
            self.task.cancel()
        self.abort()

    async def flush(self) -> None:
        """Send what is waiting, then stop (the caller bounds the wait)."""
        if self.dropped is None:
            await self.queue.put(None)
        await asyncio.wait([self.task])

    async def stop(self) -> None:
        """Stop the sender (the socket's handler is ending)."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


class Flooding(Exception):
    """A client went on sending far over its budget."""


class Clockish(Protocol):
    """The part of :class:`~casino.clock.Clock` the limits read."""

    def now(self) -> float:
        """Seconds, monotonic."""
        ...


class Bucket(TokenBucket):
    """The web's :class:`~casino.net.guard.TokenBucket`: ``rate`` messages a second on
    average, ``burst`` at once; ``burst`` more refused in a row after the first is a flood.

    >>> from casino.clock import FakeClock
    >>> clock = FakeClock()
    >>> bucket = Bucket(clock, rate=1, burst=2)
    >>> [bucket.take() for _ in range(4)], bucket.over
    ([True, True, False, False], 2)
    >>> clock.advance(1)
    >>> bucket.take(), bucket.over
    (True, 0)
    """

    def __init__(self, clock: Clock, rate: float, burst: int) -> None:
        super().__init__(clock, rate, burst, drop_after=burst + 1)

    @property
    def over(self) -> int:
        """Messages refused in a row."""
        return self.refused


class QuietLog(logging.Filter):
    """Let through at most ``log_lines`` records of one kind about one party and
    ``log_total`` in all per ``log_period`` seconds of the clock; count the rest.

    A record's kind is its format string, its party its first two arguments (who, where).
    The next record of a kind that gets through says how many of it were not logged.
    """

    def __init__(self, clock: Clockish, limits: Limits) -> None:
        super().__init__("casino.web")
        self.clock = clock
        self.limits = limits
        self.start = clock.now()
        self.counts: dict[tuple[str, str], int] = {}
        self.total = 0
        self.quiet: dict[tuple[str, str], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is logged (with the count of those that were not)."""
        if record.levelno < logging.WARNING:
            return True
        now = self.clock.now()
        if now - self.start >= self.limits.log_period:
            self.start, self.counts, self.total = now, {}, 0
        args = record.args if isinstance(record.args, tuple) else ()
        key = (str(record.msg), repr(args[:2])[:200])
        seen = self.counts.get(key, 0)
        if seen >= self.limits.log_lines or self.total >= self.limits.log_total:
            if len(self.quiet) < 10_000 or key in self.quiet:
                self.quiet[key] = self.quiet.get(key, 0) + 1
            return False
        self.counts[key] = seen + 1
        self.total += 1
        untold = self.quiet.pop(key, 0)
        if untold:
            record.msg = f"{record.msg} (and {untold} more like it not logged)"
        return True
