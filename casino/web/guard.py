"""What keeps one browser from stalling a table or filling the log: the web's side of
casino's one guard (:mod:`casino.net.guard`), with the web's numbers.

- :class:`Limits`: casino's one :class:`~casino.net.guard.Limits`, with the web's numbers and
  what only the web has (sessions, joins, the log's budget, the socket's buffer).
- :class:`Outbox`: each socket's sender, the one :class:`~casino.net.outbox.Mailbox` of JSON
  messages. The table *posts* a message and never waits: one task per socket sends from a
  bounded queue, each message with a deadline. A client whose queue is full or whose message
  is late does not read: it is dropped (its connection aborted, so its seat is away: checked
  or folded at its turns on the table's clock).
- :class:`Bucket`: the one :class:`~casino.net.guard.TokenBucket` for the messages a client
  sends. A message over the budget is ignored; a client that keeps sending over it is
  dropped (:class:`~casino.net.guard.Flooding`, the socket servers' too).
- :class:`QuietLog`: the one :class:`~casino.net.guard.Quota` as a filter on the
  ``casino.web`` logger: at most a few lines of one kind about one party, and a few dozen in
  all, per minute of the clock; the rest are counted and the count is told with the next line
  that gets through.

Every one of them follows the one clock rule of :mod:`casino.net.guard`: the clock it is
handed, the machine's when none (the web's one clock is the machine's outside tests). The app
hands its outboxes none, so a send's deadline is the machine's time; closing a socket is
bounded by :func:`asyncio.timeout`, the machine's time too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from casino.clock import Clock
from casino.net import guard
from casino.net.guard import Flooding, Quota, TokenBucket
from casino.net.outbox import Mailbox

__all__ = ["LOG", "Bucket", "Flooding", "Limits", "Outbox", "QuietLog", "Sender"]

LOG = logging.getLogger("casino.web")


@dataclass(frozen=True)
class Limits(guard.Limits):
    """How much one client may cost the server: casino's one :class:`~casino.net.guard.Limits`
    (its send deadline and message budget, the web's numbers) and what only the web has."""

    send_timeout: float = 10.0
    """Seconds a message may wait to be taken by the client (one that does not read is
    dropped)."""
    lines_per_second: float = 5.0
    """Messages a second a client may send, on average..."""
    burst: int = 20
    """...and at once; this many more ignored in a row and the client is dropped."""
    queue: int = 64
    """Messages waiting to be sent to one socket; one more and the client is dropped."""
    socket_buffer: int = 16 * 1024
    """The kernel's send buffer of a socket (``SO_SNDBUF``) and the most its connection
    keeps unwritten: what a client that does not read can hold before its sends wait
    (Linux would let the kernel's grow to megabytes)."""
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
    chat_length: int = 200
    """Characters a chat line may have (a longer one is refused, saying so)."""
    chat_lines: int = 5
    """Chat lines one member may say per ``chat_period`` (every room together)..."""
    chat_period: float = 10.0
    """...seconds of the clock (over it: refused, saying so)."""

    @property
    def rate(self) -> float:
        """:attr:`lines_per_second`: messages a second a client may send, on average."""
        return self.lines_per_second

    @property
    def send_seconds(self) -> float:
        """:attr:`send_timeout`: seconds a message may wait to be taken."""
        return self.send_timeout


class Sender(Protocol):
    """What an :class:`Outbox` sends through (an aiohttp ``WebSocketResponse``)."""

    async def send_json(self, data: Any) -> None:
        """Send ``data`` as a JSON text message."""
        ...


class Outbox(Mailbox[Any]):
    """One socket's sender: casino's one :class:`~casino.net.outbox.Mailbox`, of JSON
    messages, at most :attr:`Limits.queue` waiting, each taken within
    :attr:`Limits.send_timeout` of being posted.

    :meth:`post` never waits. A full queue or a late message drops the client: the drop is
    logged, ``abort`` is called (it closes the connection, which ends the socket's reading
    loop) and every later :meth:`post` raises :class:`ConnectionError`.
    """

    def __init__(
        self,
        socket: Sender,
        who: str,
        limits: Limits,
        abort: Callable[[], None],
        clock: Clock | None = None,
    ) -> None:
        super().__init__(limits.queue, limits.send_timeout, clock)
        self.socket = socket
        self.who = who
        self.limits = limits
        self.abort = abort
        self.task = self.start()

    def full(self) -> str:
        """Over :attr:`Limits.queue` messages waiting."""
        return f"does not read ({self.bound} messages waiting)"

    def late(self) -> str:
        """A message not taken within :attr:`Limits.send_timeout`."""
        return f"does not read (a send took over {self.deadline:g} s)"

    def lost(self, error: Exception) -> str:
        """The page is gone: nothing to say."""
        return ""

    def post(self, data: Any) -> None:
        """Queue ``data`` to be sent; :class:`ConnectionError` if the client is dropped."""
        if self.dropped is None and self.fits(data):
            self.enqueue(data)
        if self.dropped is not None:
            raise ConnectionError(f"{self.who}: {self.dropped}")

    async def send(self, item: Any) -> None:
        """Send ``item`` as a JSON text message."""
        await self.socket.send_json(item)

    def hang_up(self) -> None:
        """Close the connection (``abort``)."""
        self.abort()

    def drop(self, reason: str) -> None:
        """Give up on the client (once): log why, stop sending, close the connection."""
        if self.dropped is None and reason:
            LOG.warning("dropped %r: %s", self.who, reason)
        super().drop(reason or "closed")

    async def flush(self) -> None:
        """Send what is waiting, then stop (the caller bounds the wait)."""
        if self.dropped is None:
            self.closing()
        await asyncio.wait([self.task])

    async def stop(self) -> None:
        """Stop the sender (the socket's handler is ending)."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


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
    ``log_total`` in all per ``log_period`` seconds of the clock; count the rest (casino's
    one :class:`~casino.net.guard.Quota`, as a filter on the ``casino.web`` logger).

    A record's kind is its format string, its party its first two arguments (who, where).
    The next record of a kind that gets through says how many of it were not logged.
    """

    def __init__(self, clock: Clock, limits: Limits) -> None:
        super().__init__("casino.web")
        self.limits = limits
        self.quota = Quota(clock, limits.log_period, limits.log_lines, limits.log_total)

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is logged (with the count of those that were not)."""
        if record.levelno < logging.WARNING:
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        untold = self.quota.admit((str(record.msg), repr(args[:2])[:200]))
        if untold:
            record.msg = f"{record.msg} (and {untold} more like it not logged)"
        return untold is not None
