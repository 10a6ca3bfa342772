"""Java ``writeUTF`` frames over asyncio streams, and loopback servers and clients.

:class:`FrameStream` is one connection: :meth:`FrameStream.send` a text, :meth:`receive` the
next one. A peer that goes away (or sends bytes that are not a frame, or is dropped for not
reading or for flooding, see :mod:`casino.net.guard`) raises :class:`ConnectionClosed`, one
exception for every way a connection can end. :class:`Peer` is what frame and line streams
share: the output queue that never waits, the flood guard of a server's connections, closing.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable
from typing import NoReturn, TypeVar

from casino.clock import Clock
from casino.net import LOOPBACK
from casino.net.errors import ConnectionClosed
from casino.net.guard import FloodGuard, Flooding, Limits, Outbox, WarningLog
from casino.net.javautf import FrameError, FramePoster, decode_text, encode_frame
from casino.net.listener import Listener, address_text, listen


class Peer:
    """One connection's reader and writer, its :class:`~casino.net.guard.Outbox` and, for a
    server's connection, its :class:`~casino.net.guard.FloodGuard`."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        limits: Limits | None = None,
        clock: Clock | None = None,
        guard: FloodGuard | None = None,
        log: WarningLog | None = None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.limits = limits or Limits()
        self.guard = guard
        self.name = address_text(writer.get_extra_info("peername"))
        """``host:port`` of the other end, for the server's log."""
        self._log = log
        self.outbox = Outbox(writer, self.limits, clock, self._dropped)

    def _dropped(self, reason: str) -> None:
        if self._log is not None:
            self._log.warn("dropped", f"{self.name}: dropped: {reason}")

    def closed_because(self, default: str) -> ConnectionClosed:
        """The exception for a connection that ended: why it was dropped, else ``default``."""
        if self.outbox.dropped is not None:
            return ConnectionClosed(self.outbox.dropped)
        return ConnectionClosed(default)

    def admitted(self, cost: int, what: str) -> bool:
        """Whether the flood guard (if any) lets one more of ``what`` (costing ``cost`` tokens)
        through; :class:`Flooding`, and the peer dropped, once its patience is spent."""
        if self.guard is None or self.guard.admit(cost):
            return True
        if self.guard.exhausted:
            self.drop_flooding(what)
        return False

    def drop_flooding(self, what: str) -> NoReturn:
        """Drop the peer for sending too many ``what``; raises :class:`Flooding`."""
        rate = self.limits.lines_per_second
        self.outbox.drop(f"flooding: more than {rate:g} {what} a second")
        raise Flooding(str(self.outbox.dropped))

    async def close(self) -> None:
        """Send what is queued and hang up; never waits for a peer that does not read."""
        await self.outbox.close()

    async def wait_closed(self) -> None:
        """Wait until the connection is closed (by either side's close, or a drop)."""
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            await self.writer.wait_closed()


PeerT = TypeVar("PeerT", bound=Peer)
"""A kind of :class:`Peer` (frame or line stream)."""


class FrameStream(FramePoster, Peer):
    """One connection that speaks Java ``writeUTF`` frames (:meth:`post` queues a frame for
    the next :meth:`send`)."""

    async def send(self, text: str) -> None:
        """Queue what :meth:`post` queued and ``text``, as frames (never waits: see
        :class:`~casino.net.guard.Outbox`); :class:`ConnectionClosed` if the peer is gone."""
        self.outbox.put(self.with_posted(text))

    async def receive(self) -> str:
        """The next frame's text; :class:`ConnectionClosed` at end of stream or on bad bytes.
        Frames over a server's rate are skipped (see :meth:`Peer.flooded`)."""
        while True:
            try:
                head = await self.reader.readexactly(2)
                body = await self.reader.readexactly(int.from_bytes(head, "big"))
                text = decode_text(body)
            except asyncio.IncompleteReadError:
                raise self.closed_because("the connection was closed") from None
            except (ConnectionError, OSError) as error:
                raise self.closed_because(f"connection lost: {error}") from error
            except FrameError as error:
                raise ConnectionClosed(f"not a frame: {error}") from error
            if self.admitted(1, "frames"):
                return text

    async def until_closed(self) -> None:
        """Read and drop whatever the peer still sends, until it closes its side."""
        try:
            while await self.reader.read(4096):
                pass
        except (ConnectionError, OSError):
            return


async def connect(host: str, port: int) -> FrameStream:
    """Open a connection to ``host:port``; :class:`ConnectionClosed` if nobody answers."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as error:
        raise ConnectionClosed(
            f"cannot connect to {host}:{port}: {error.strerror or error}"
        ) from error
    return FrameStream(reader, writer)


Handler = Callable[[FrameStream], Awaitable[None]]


async def serve(
    handler: Handler,
    port: int = 0,
    host: str = LOOPBACK,
    *,
    limits: Limits | None = None,
    clock: Clock | None = None,
    log: WarningLog | None = None,
    refusal: str = "",
) -> Listener:
    """Listen on ``host:port`` (port 0: any free port) and run ``handler`` per connection,
    within ``limits`` (see :mod:`casino.net.listener`; ``refusal``: the frame a connection over
    the cap is sent before it is closed).

    Frame servers (the stud dealer, the automatic tester) ask and read one reply at a time,
    as fast as a player answers, so their connections have no flood guard: frames a client
    sends unasked wait in TCP's buffers (the reader stops reading past 128 KiB, and then the
    client's own sends block), each costs the server nothing until it asks, and the next reply
    must come within the server's reply time-out."""
    bounds = limits or Limits()

    async def opened(conn: socket.socket) -> FrameStream:
        reader, writer = await asyncio.open_connection(sock=conn)
        return FrameStream(reader, writer, bounds, clock, None, log)

    refused = encode_frame(refusal) if refusal else b""
    return await listen(serving(opened, handler), port, host, bounds, log, refused)


def serving(
    opened: Callable[[socket.socket], Awaitable[PeerT]],
    handler: Callable[[PeerT], Awaitable[None]],
) -> Callable[[socket.socket], Awaitable[None]]:
    """What a server runs for each accepted socket: the stream ``opened`` makes of it, handed
    to ``handler``; when the loop shuts down (the task is cancelled) it hangs up quietly."""

    async def accept(conn: socket.socket) -> None:
        stream = await opened(conn)
        try:
            await handler(stream)
        except asyncio.CancelledError:
            stream.writer.transport.abort()
            raise

    return accept


def bound_port(server: Listener | asyncio.Server) -> int:
    """The port ``server`` listens on (after asking for port 0)."""
    port: int = server.sockets[0].getsockname()[1]
    return port


__all__ = [
    "ConnectionClosed",
    "FrameStream",
    "Handler",
    "Peer",
    "bound_port",
    "connect",
    "serve",
    "serving",
]
