"""Clocks: the real monotonic one, and a fake one that tests move by hand.

Anything with a time limit (the stud dealer's reply limit, the dominoes' move clock, the
Hold'em table server) takes a :class:`Clock` instead of reading the time itself, so its
tests run instantly and deterministically with a :class:`FakeClock`.

>>> clock = FakeClock()
>>> clock.advance(1.5)
>>> clock.now()
1.5
"""

from __future__ import annotations

import select
import time
from collections.abc import Awaitable
from types import ModuleType
from typing import Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    """A source of monotonic time in seconds, and the waits that go with it."""

    def now(self) -> float:
        """Seconds since an arbitrary start; never goes backwards."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""
        ...

    async def within(self, awaitable: Awaitable[T], seconds: float) -> T:
        """The result of ``awaitable``, or :class:`TimeoutError` if it takes over ``seconds``."""
        ...


class WaitClock(Clock, Protocol):
    """A clock that can also wait, synchronously, for a file descriptor to have input (the
    console's timed read: a terminal or a pipe)."""

    def wait_readable(self, fd: int, seconds: float) -> bool:
        """Whether ``fd`` has input (or end of file) to read within ``seconds``."""
        ...


def _asyncio() -> ModuleType:
    """asyncio, imported when a clock first waits in an event loop (then it is loaded already):
    a program that only reads the time, or waits on a file descriptor, never loads it."""
    import asyncio

    return asyncio


def _readable(fd: int, seconds: float) -> bool:
    ready, _, _ = select.select([fd], [], [], max(0.0, seconds))
    return bool(ready)


class MonotonicClock:
    """The real clock: :func:`time.monotonic` and asyncio's own waits."""

    def now(self) -> float:
        """:func:`time.monotonic`."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """:func:`asyncio.sleep`."""
        await _asyncio().sleep(seconds)

    async def within(self, awaitable: Awaitable[T], seconds: float) -> T:
        """The wait is cut off at ``seconds`` (:func:`asyncio.timeout`: no extra task)."""
        async with _asyncio().timeout(seconds):
            return await awaitable

    def wait_readable(self, fd: int, seconds: float) -> bool:
        """:func:`select.select` on ``fd`` for up to ``seconds``."""
        return _readable(fd, seconds)


class FakeClock:
    """A clock that stands still until :meth:`advance` (or :meth:`sleep`) moves it.

    :meth:`within` lets the awaitable finish, then raises :class:`TimeoutError` if the fake
    time it took is over the limit: a test's slow party calls ``clock.advance(2)`` while
    answering, and is late without anybody really waiting.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        """The fake time."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the fake time forward by ``seconds`` (not negative)."""
        if seconds < 0:
            raise ValueError("a clock never goes backwards")
        self._now += seconds

    async def sleep(self, seconds: float) -> None:
        """Advance by ``seconds`` at once, and let other tasks run."""
        self.advance(max(0.0, seconds))
        await _asyncio().sleep(0)

    async def within(self, awaitable: Awaitable[T], seconds: float) -> T:
        """The awaitable's result, unless it advanced the clock by more than ``seconds``."""
        start = self._now
        result = await awaitable
        if self._now - start > seconds:
            raise TimeoutError(f"took {self._now - start:g} s, limit {seconds:g} s")
        return result

    def wait_readable(self, fd: int, seconds: float) -> bool:
        """Whether ``fd`` has input right now; if not, ``seconds`` pass at once (no waiting)."""
        if _readable(fd, 0.0):
            return True
        self.advance(max(0.0, seconds))
        return False
