"""casino's one outbox: what a server sends one peer, queued and never waited for.

A :class:`Mailbox` is the core every server's sender is built on — the socket servers'
(:class:`casino.net.guard.Outbox`, bytes to a stream) and the web's
(:class:`casino.web.guard.Outbox`, JSON messages to a WebSocket):

- **queueing never waits**: :meth:`Mailbox.enqueue` adds an item and returns; one task of the
  mailbox's own sends the items in order;
- **the queue is bounded**: items count :meth:`Mailbox.size` each (a byte each for a stream,
  one for a message) and one that would take the queue past ``bound`` drops the peer;
- **each item has a deadline**: ``deadline`` seconds from when it was queued, on the clock of
  the one clock rule (:mod:`casino.net.guard`), to be taken by the peer; later, the peer is
  dropped;
- **a drop happens once**: the first reason is kept in :attr:`Mailbox.dropped`, the queue is
  emptied, the sending task cancelled, the connection hung up (:meth:`Mailbox.hang_up`) and
  ``on_drop`` told.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from casino.clock import Clock, MonotonicClock

T = TypeVar("T")


class Mailbox(Generic[T]):
    """Items on their way to one peer, sent by a task of their own (see the module)."""

    def __init__(
        self,
        bound: int,
        deadline: float,
        clock: Clock | None = None,
        on_drop: Callable[[str], None] | None = None,
    ) -> None:
        self.bound = bound
        """The most the queue may hold, in :meth:`size` units."""
        self.deadline = deadline
        """Seconds an item may wait, from when it was queued, for the peer to take it."""
        self._clock: Clock = clock or MonotonicClock()
        self._on_drop = on_drop
        self._queue: deque[tuple[float, T]] = deque()
        self._queued = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.dropped: str | None = None
        """Why the peer was dropped (``None`` while it is not)."""

    def size(self, item: T) -> int:
        """What ``item`` counts against :attr:`bound` (one, unless a kind says otherwise)."""
        return 1

    def full(self) -> str:
        """Why a peer whose queue is full is dropped."""
        return f"not reading: over {self.bound} waiting"

    def late(self) -> str:
        """Why a peer that did not take an item within :attr:`deadline` is dropped."""
        return f"not reading: output waited over {self.deadline:g} s"

    def lost(self, error: Exception) -> str:
        """Why a peer whose connection failed while sending is dropped."""
        return f"connection lost while sending: {error}"

    def hang_up(self) -> None:
        """End the connection at once (a drop); a kind of mailbox says how."""

    async def send(self, item: T) -> None:
        """Hand ``item`` to the peer, returning when it has taken it; a kind says how."""

    async def finish(self) -> None:
        """What to do once everything is sent after :meth:`closing` (nothing, by default)."""

    def fits(self, item: T) -> bool:
        """Whether ``item`` fits in the queue; if not, the peer is dropped (:meth:`full`)."""
        if self._queued + self.size(item) > self.bound:
            self.drop(self.full())
            return False
        return True

    def enqueue(self, item: T) -> None:
        """Queue ``item`` (that :meth:`fits`) for the sending task; never waits."""
        self._queue.append((self._clock.now(), item))
        self._queued += self.size(item)
        self.start()

    @property
    def waiting(self) -> bool:
        """Whether items are queued that the task has not yet taken."""
        return bool(self._queue)

    def closing(self) -> None:
        """Send what is queued, then :meth:`finish` and stop (a second call does nothing)."""
        self._closing = True
        self.start()

    def drop(self, reason: str) -> None:
        """Give up on the peer now (unsent items are lost); the first reason is kept."""
        if self.dropped is not None:
            return
        self.dropped = reason
        self._queue.clear()
        self._queued = 0
        self._wake.set()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self.hang_up()
        if self._on_drop is not None:
            self._on_drop(reason)

    def start(self) -> asyncio.Task[None]:
        """The sending task (started the first time), woken to look at the queue."""
        self._wake.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._pump())
        return self._task

    async def within(self, awaitable: Awaitable[None], since: float) -> None:
        """Wait for ``awaitable`` until :attr:`deadline` seconds after ``since``; drop the peer
        (:meth:`late`) if it is not done by then."""
        remaining = max(0.0, since + self.deadline - self._clock.now())
        try:
            await self._clock.within(awaitable, remaining)
        except TimeoutError:
            self.drop(self.late())

    async def _pump(self) -> None:
        try:
            while self.dropped is None:
                if not self._queue:
                    if self._closing:
                        await self.finish()
                        return
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                since, item = self._queue.popleft()
                self._queued -= self.size(item)
                await self.within(self.send(item), since)
        except (ConnectionError, OSError, RuntimeError) as error:
            self.drop(self.lost(error))
