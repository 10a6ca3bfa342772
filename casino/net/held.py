"""A server's frame connection on a plain non-blocking socket, which a table alone in its
process may *hold*: wait on it directly, without giving the event loop a turn.

:class:`SocketPeer` is what :class:`~casino.net.stream.FrameStream` is to the stud dealer
(``send``, ``post``, ``receive``, ``close``; :class:`ConnectionClosed` for every way a connection
ends), with two ways of waiting:

- **through the event loop** (``loop.sock_recv``), while it shares the loop with others: the
  dealer's logins run side by side, each within its time-out (``clock.within``);
- **held** (:meth:`SocketPeer.hold`), once the table plays and nothing else in the process
  needs the loop (``casino stud dealer``, a tournament's dealer): a reply is waited for in
  ``select`` on the injected :class:`~casino.clock.WaitClock`, for at most the reply time-out
  (then :class:`TimeoutError`, as ``clock.within`` would raise). An asyncio turn costs about
  60 µs of CPU a reply on the development machine (``benchmarks/bench_stud.py``); the table is
  serial, so that was a third of the dealer's CPU per hand. On the real clock
  (:class:`~casino.clock.MonotonicClock`) the wait is the kernel's own: the socket blocks on
  reads with ``SO_RCVTIMEO`` set to the reply time-out and sends with ``MSG_DONTWAIT``, so a
  reply is one ``recv`` (no ``select`` before it); any other clock (a test's fake one) is
  waited on in its ``wait_readable``. A request to stop (the first Ctrl-C cancels the dealer's
  task) is honoured at the next reply, at most the reply time-out later.

The bounds are those of :class:`~casino.net.guard.Limits`, as :class:`~casino.net.guard.Outbox`
keeps them:

- **sending never waits.** Bytes the system does not take at once are queued and offered
  again at every send and receive on the connection; a peer is *dropped* (its connection
  aborted) when its queue passes :attr:`Limits.queue_bytes`, or when it has taken none of its
  queued output for :attr:`Limits.send_timeout` seconds (on the injected clock);
- **reading only when asked.** Bytes are read (64 KiB at most at a time) only while a reply is
  awaited; what a peer sends unasked waits in TCP's buffers, and is then its reply;
- **hanging up** offers what is queued for what is left of the send time-out (held: in
  ``select``; otherwise in a task of its own, as the outbox does) and then closes; a peer that
  has not taken it by then is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
import struct
from collections import deque
from collections.abc import Awaitable
from typing import TypeVar

from casino.clock import Clock, MonotonicClock, WaitClock
from casino.net.errors import ConnectionClosed
from casino.net.guard import Limits, WarningLog
from casino.net.javautf import FrameDecoder, FrameError, FramePoster
from casino.net.listener import address_text

T = TypeVar("T")

_CHUNK = 65536
"""The most bytes one read takes."""
_ABORT = struct.pack("ii", 1, 0)
"""``SO_LINGER`` on, 0 seconds: closing sends a reset (the connection is aborted)."""
_KERNEL_WAITS = hasattr(socket, "MSG_DONTWAIT") and hasattr(socket, "SO_RCVTIMEO")
"""Whether this system's sockets can time a blocking read themselves and send without waiting
(Linux, the BSDs, macOS)."""


class SocketPeer(FramePoster):
    """One client of a frame server, on its own non-blocking socket (see the module)."""

    def __init__(
        self,
        sock: socket.socket,
        limits: Limits | None = None,
        clock: Clock | None = None,
        log: WarningLog | None = None,
    ) -> None:
        sock.setblocking(False)
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._socket = sock
        self.limits = limits or Limits()
        self._clock: Clock = clock or MonotonicClock()
        self._log = log
        try:
            self.name = address_text(sock.getpeername())
        except OSError:
            self.name = "?"
        self._decoder = FrameDecoder()
        self._ready: deque[str] = deque()
        self._queue = bytearray()
        self._stalled_since = 0.0
        self._held: tuple[WaitClock, float] | None = None
        self._kernel_wait = False
        """Held on the real clock: reads block with ``SO_RCVTIMEO``, sends never do."""
        self._send_flags = 0
        self._task: asyncio.Task[object] | None = None
        """The task that last received, held (its ``cancelling`` is checked each reply)."""
        self._closing = False
        self._ended = asyncio.Event()
        self._finisher: asyncio.Task[None] | None = None
        self.dropped: str | None = None
        """Why the peer was dropped (``None`` while it is not)."""

    def hold(self, clock: WaitClock, reply_timeout: float) -> None:
        """Wait on the socket directly from now on, each receive at most ``reply_timeout``
        seconds on ``clock`` (see the module: only for a table alone in its process)."""
        self._held = (clock, reply_timeout)
        if _KERNEL_WAITS and type(clock) is MonotonicClock and not self._closing:
            seconds = int(reply_timeout)
            micros = min(999_999, max(0, round((reply_timeout - seconds) * 1e6)))
            if seconds == 0 and micros == 0:
                micros = 1  # a zero SO_RCVTIMEO would mean "wait for ever"
            try:
                self._socket.setsockopt(
                    socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", seconds, micros)
                )
            except OSError:
                return
            self._socket.setblocking(True)
            self._kernel_wait = True
            self._send_flags = socket.MSG_DONTWAIT

    # ------------------------------------------------------------ sending

    async def send(self, text: str) -> None:
        """Send what :meth:`post` queued and ``text`` (never waits: see the module);
        :class:`ConnectionClosed` if the peer is gone or was just dropped."""
        self.put(self.with_posted(text))

    def put(self, data: bytes) -> None:
        """Hand ``data`` to the system, queueing what it does not take (see the module)."""
        if self._closing and self.dropped is None:
            raise ConnectionClosed("the connection is closed")
        self._offer()
        if self.dropped is not None:
            raise ConnectionClosed(self.dropped)
        if self._queue:
            self._enqueue(data)
            return
        try:
            sent = self._socket.send(data, self._send_flags)
        except BlockingIOError:
            sent = 0
        except OSError as error:
            self.drop(f"connection lost while sending: {error}")
            raise ConnectionClosed(str(self.dropped)) from error
        if sent < len(data):
            self._stalled_since = self._clock.now()
            self._enqueue(data[sent:])

    def _enqueue(self, data: bytes) -> None:
        if len(self._queue) + len(data) > self.limits.queue_bytes:
            self.drop(f"not reading: over {self.limits.queue_bytes} bytes waiting")
            raise ConnectionClosed(str(self.dropped))
        self._queue += data

    def _offer(self) -> None:
        """Hand the system what it now takes of the queue; drop a peer that took none of it
        for the send time-out."""
        if not self._queue or self.dropped is not None:
            return
        try:
            sent = self._socket.send(self._queue, self._send_flags)
        except BlockingIOError:
            sent = 0
        except OSError as error:
            self.drop(f"connection lost while sending: {error}")
            return
        now = self._clock.now()
        if sent:
            del self._queue[:sent]
            self._stalled_since = now
        elif now - self._stalled_since > self.limits.send_timeout:
            self.drop(f"not reading: output waited over {self.limits.send_timeout:g} s")

    # ------------------------------------------------------------ receiving

    async def receive(self) -> str:
        """The next frame's text; :class:`ConnectionClosed` at end of stream or on bad bytes;
        held, :class:`TimeoutError` after the reply time-out."""
        while not self._ready:
            self._offer()
            if self.dropped is not None:
                raise ConnectionClosed(self.dropped)
            data = self._wait_held() if self._held is not None else await self._wait_loop()
            if not data:
                raise self.closed_because("the connection was closed")
            try:
                self._ready.extend(self._decoder.feed(data))
            except FrameError as error:
                raise ConnectionClosed(f"not a frame: {error}") from error
        return self._ready.popleft()

    async def _wait_loop(self) -> bytes:
        try:
            return await asyncio.get_running_loop().sock_recv(self._socket, _CHUNK)
        except (ConnectionError, OSError) as error:
            raise self.closed_because(f"connection lost: {error}") from error

    def _wait_held(self) -> bytes:
        assert self._held is not None
        clock, limit = self._held
        if self._kernel_wait:
            return self._recv_kernel(limit)
        ready = clock.wait_readable(self._socket.fileno(), limit)
        self._stop_if_cancelled()
        if not ready:
            raise TimeoutError(f"no frame within {limit:g} s")
        try:
            return self._socket.recv(_CHUNK)
        except BlockingIOError:  # woken for nothing: count it as no reply yet
            return self._wait_held()
        except OSError as error:
            raise self.closed_because(f"connection lost: {error}") from error

    def _recv_kernel(self, limit: float) -> bytes:
        """One blocking ``recv``, timed out by the kernel (``SO_RCVTIMEO``) after ``limit``."""
        try:
            data = self._socket.recv(_CHUNK)
        except BlockingIOError:
            self._stop_if_cancelled()
            raise TimeoutError(f"no frame within {limit:g} s") from None
        except OSError as error:
            raise self.closed_because(f"connection lost: {error}") from error
        self._stop_if_cancelled()
        return data

    def _stop_if_cancelled(self) -> None:
        """Raise :class:`asyncio.CancelledError` if the running task was asked to stop while it
        held the loop (the first Ctrl-C cancels ``asyncio.run``'s task). The task is looked up
        once while it runs (each look-up asks the system for the process id)."""
        task = self._task
        if task is None or task.done():
            task = self._task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise asyncio.CancelledError

    def closed_because(self, default: str) -> ConnectionClosed:
        """The exception for a connection that ended: why it was dropped, else ``default``."""
        return ConnectionClosed(self.dropped if self.dropped is not None else default)

    # ------------------------------------------------------------ ending

    def drop(self, reason: str) -> None:
        """Abort the connection now (unsent output is lost); the first reason is kept."""
        if self.dropped is not None:
            return
        self.dropped = reason
        self._queue.clear()
        with contextlib.suppress(OSError):
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _ABORT)
        self._socket.close()
        self._ended.set()
        if self._log is not None:
            self._log.warn("dropped", f"{self.name}: dropped: {reason}")

    async def close(self) -> None:
        """Send what is queued and hang up (see the module); never raises."""
        if self._closing:
            return
        self._closing = True
        self._offer()
        if self.dropped is not None:
            return
        if not self._queue:
            self._hang_up()
        elif self._held is not None:
            self._finish_held()
        else:
            self._finisher = asyncio.get_running_loop().create_task(self._finish_loop())

    def _hang_up(self) -> None:
        self._socket.close()
        self._ended.set()

    def _finish_held(self) -> None:
        deadline = self._stalled_since + self.limits.send_timeout
        while self._queue and self.dropped is None:
            left = deadline - self._clock.now()
            if left > 0:
                select.select([], [self._socket], [], left)
            self._offer()
            deadline = self._stalled_since + self.limits.send_timeout
        if self.dropped is None:
            self._hang_up()

    async def _finish_loop(self) -> None:
        left = self._stalled_since + self.limits.send_timeout - self._clock.now()
        try:
            await self._clock.within(
                asyncio.get_running_loop().sock_sendall(self._socket, bytes(self._queue)),
                max(0.0, left),
            )
        except TimeoutError:
            self.drop(f"not reading: output waited over {self.limits.send_timeout:g} s")
        except (ConnectionError, OSError) as error:
            self.drop(f"connection lost while sending: {error}")
        else:
            self._queue.clear()
            self._hang_up()

    async def wait_closed(self) -> None:
        """Wait until the connection is closed (by either side's close, or a drop)."""
        await self._ended.wait()


class HeldClock:
    """The clock of a table whose connections are held: the time of ``clock``, and waits that
    are the sockets' own (a held receive times itself out), so :meth:`within` sets no asyncio
    timer: one would never fire while the table holds the loop, and the loop, which clears
    cancelled timers only when it runs, would keep every one of them (the table's memory
    growing with each reply)."""

    def __init__(self, clock: WaitClock) -> None:
        self.clock = clock

    def now(self) -> float:
        """The time of the clock held."""
        return self.clock.now()

    async def sleep(self, seconds: float) -> None:
        """The clock's sleep."""
        await self.clock.sleep(seconds)

    async def within(self, awaitable: Awaitable[T], seconds: float) -> T:
        """``awaitable``'s result: held connections keep the limit themselves."""
        return await awaitable

    def wait_readable(self, fd: int, seconds: float) -> bool:
        """The clock's wait."""
        return self.clock.wait_readable(fd, seconds)


__all__ = ["ConnectionClosed", "HeldClock", "SocketPeer"]
