"""A listening socket that no crowd of clients can exhaust.

:class:`Listener` accepts connections itself (not through :func:`asyncio.start_server`, whose
accept loop prints a traceback when the process runs out of file descriptors) and runs a
handler task per connection:

- at most :func:`connection_cap` connections at once, always below the process's file
  descriptor limit (``RLIMIT_NOFILE``) so the server keeps the descriptors it needs for the
  clients it already serves; one more is accepted, sent the server's ``refusal`` and closed;
- if accepting fails anyway for want of descriptors (``EMFILE``, ``ENFILE``), the waiting
  connection is refused with a descriptor kept spare for the purpose, and one line is logged
  (rate-limited, see :class:`~casino.net.guard.WarningLog`), never a traceback;
- a handler that fails is one logged line too; the listener keeps accepting.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import resource
import socket
from collections.abc import Awaitable, Callable
from types import TracebackType

from casino.net.guard import Limits, WarningLog, quiet_log

SocketHandler = Callable[[socket.socket], Awaitable[None]]
"""What a listener runs for each accepted connection."""

_EXHAUSTED = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
_RETRY = 0.1
"""Seconds to pause accepting when the system refuses to (real time: not a game time-out)."""
_SEND_BUFFER = 64 * 1024


def connection_cap(wanted: int) -> int:
    """``wanted``, lowered so that connections leave an eighth of the file descriptor limit
    (at least 16) to the rest of the server."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - max(16, soft // 8)))


def address_text(address: object) -> str:
    """``host:port`` of a socket address (``?`` if there is none)."""
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return "?"


class Listener:
    """Accepts connections on one socket and runs a handler per connection (see the module).

    Used like :class:`asyncio.Server`: :attr:`sockets`, :meth:`close`, :meth:`wait_closed`,
    ``async with``.
    """

    def __init__(
        self,
        sock: socket.socket,
        handler: SocketHandler,
        limits: Limits,
        log: WarningLog | None = None,
        refusal: bytes = b"",
    ) -> None:
        self._socket = sock
        self._handler = handler
        self.cap = connection_cap(limits.max_connections)
        """The most connections served at once."""
        self._log = log or quiet_log()
        self._refusal = refusal
        self._tasks: set[asyncio.Task[None]] = set()
        self._spare = _spare_descriptor()
        self._accepting: asyncio.Task[None] | None = None

    @property
    def sockets(self) -> list[socket.socket]:
        """The listening socket (a list, as :attr:`asyncio.Server.sockets`)."""
        return [self._socket]

    @property
    def active(self) -> int:
        """Connections being served now."""
        return len(self._tasks)

    def start(self) -> None:
        """Begin accepting (in a task of the running loop)."""
        self._accepting = asyncio.get_running_loop().create_task(self._accept_loop())

    def is_serving(self) -> bool:
        """Whether connections are still accepted."""
        return self._accepting is not None and not self._accepting.done()

    def close(self) -> None:
        """Stop accepting; connections already served go on."""
        if self._accepting is not None:
            self._accepting.cancel()
        self._socket.close()
        if self._spare is not None:
            os.close(self._spare)
            self._spare = None

    async def wait_closed(self) -> None:
        """Wait until the accept loop has stopped."""
        if self._accepting is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._accepting

    async def __aenter__(self) -> Listener:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
        await self.wait_closed()

    async def _accept_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, _ = await loop.sock_accept(self._socket)
            except OSError as error:
                await self._cannot_accept(error)
                continue
            if len(self._tasks) >= self.cap:
                self._log.warn(
                    "full",
                    f"{self.cap} connections at once, the most this server takes: "
                    "refusing new ones",
                )
                self._refuse(conn)
                continue
            with contextlib.suppress(OSError):
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, _SEND_BUFFER)
            task = loop.create_task(self._serve_one(conn))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _cannot_accept(self, error: OSError) -> None:
        reason = error.strerror or str(error)
        if error.errno not in _EXHAUSTED:
            self._log.warn("accept", f"cannot accept a connection: {reason}")
            await asyncio.sleep(_RETRY)
            return
        self._log.warn(
            "descriptors", f"out of file descriptors ({reason}): refusing new connections"
        )
        if self._spare is None:
            await asyncio.sleep(_RETRY)
            self._spare = _spare_descriptor()
            return
        os.close(self._spare)
        self._spare = None
        try:
            conn, _ = self._socket.accept()
        except OSError:
            await asyncio.sleep(_RETRY)
        else:
            self._refuse(conn)
        self._spare = _spare_descriptor()

    def _refuse(self, conn: socket.socket) -> None:
        with contextlib.suppress(OSError):
            conn.setblocking(False)
            if self._refusal:
                conn.send(self._refusal)
        conn.close()

    async def _serve_one(self, conn: socket.socket) -> None:
        try:
            peer = address_text(conn.getpeername())
        except OSError:
            peer = "?"
        try:
            await self._handler(conn)
        except Exception as error:  # one client's failure is one line, never the server's end
            self._log.warn("error", f"{peer}: {type(error).__name__}: {error}")
            conn.close()


def _spare_descriptor() -> int | None:
    try:
        return os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


async def listen(
    handler: SocketHandler,
    port: int,
    host: str,
    limits: Limits,
    log: WarningLog | None = None,
    refusal: bytes = b"",
) -> Listener:
    """A started :class:`Listener` on ``host:port`` (port 0: any free port)."""
    sock = socket.create_server((host, port), backlog=128)
    sock.setblocking(False)
    listener = Listener(sock, handler, limits, log, refusal)
    listener.start()
    return listener
