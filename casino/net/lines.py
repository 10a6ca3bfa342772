"""Text lines over asyncio streams: the framing of line protocols a person can type with ``nc``.

One line is UTF-8 text ended by ``\\n`` (a ``\\r`` before it is dropped). Bytes that are not
UTF-8 are replaced, never fatal; a line longer than :attr:`Limits.max_line
<casino.net.guard.Limits.max_line>` is discarded and reported as :class:`LineTooLong`, and the
connection carries on. A server's connection is rate-limited (:class:`RateLimited` for the
first line discarded of a run, then :class:`~casino.net.guard.Flooding` and the client
dropped); sends never wait (:class:`~casino.net.guard.Outbox`). A peer that goes away raises
:class:`~casino.net.stream.ConnectionClosed`, as with the frame streams.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable

from casino.clock import Clock
from casino.errors import ParseError
from casino.net import LOOPBACK
from casino.net.guard import MAX_LINE, FloodGuard, Flooding, Limits, RateLimited, WarningLog
from casino.net.listener import Listener, listen
from casino.net.stream import ConnectionClosed, Peer, serving


class LineTooLong(ParseError):
    """A line over the limit arrived (and was skipped)."""


class LineStream(Peer):
    """One connection that speaks newline-ended UTF-8 lines."""

    async def send(self, text: str) -> None:
        """Queue ``text`` (one or more lines; a final newline is added if missing); never
        waits; :class:`ConnectionClosed` if the peer is gone or was dropped."""
        data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
        self.outbox.put(data)

    async def receive(self) -> str:
        """The next line, without its line ending; :class:`LineTooLong` for an overlong one,
        :class:`RateLimited` for the first of a run of lines over the rate (they are skipped),
        :class:`ConnectionClosed` at end of stream (:class:`Flooding` if the peer was dropped
        for flooding)."""
        while True:
            text, size = await self._read_line()
            cost = 1 + size // self.limits.max_line
            if self.admitted(cost, "lines"):
                if text is None:
                    raise LineTooLong(f"a line over {self.limits.max_line} bytes was skipped")
                return text
            if self.guard is not None and self.guard.refused == 1:
                raise RateLimited("too many lines: skipped")

    async def _read_line(self) -> tuple[str | None, int]:
        """The next line (``None`` if it was too long) and its size in bytes."""
        kept = bytearray()
        size = 0
        while True:
            try:
                piece = await self.reader.readuntil(b"\n")
                ended = True
            except asyncio.LimitOverrunError as error:
                piece, ended = await self._read_exactly(error.consumed), False
            except asyncio.IncompleteReadError:
                raise self.closed_because("the connection was closed") from None
            except (ConnectionError, OSError) as error:
                raise self.closed_because(f"connection lost: {error}") from error
            size += len(piece)
            if size <= self.limits.max_line + 1:
                kept += piece
            if self.guard is not None and size > self.limits.max_line * self.limits.burst:
                self.drop_flooding("bytes of one line")
            if ended:
                break
        if size > self.limits.max_line + 1:
            return None, size
        return kept.decode("utf-8", errors="replace").rstrip("\n").rstrip("\r"), size

    async def _read_exactly(self, count: int) -> bytes:
        try:
            return await self.reader.readexactly(count)
        except asyncio.IncompleteReadError:
            raise self.closed_because("the connection was closed") from None
        except (ConnectionError, OSError) as error:
            raise self.closed_because(f"connection lost: {error}") from error


LineHandler = Callable[[LineStream], Awaitable[None]]
"""What a line server runs for each connection."""


async def serve_lines(
    handler: LineHandler,
    port: int = 0,
    host: str = LOOPBACK,
    *,
    limits: Limits | None = None,
    clock: Clock | None = None,
    log: WarningLog | None = None,
    refusal: str = "",
) -> Listener:
    """Listen on ``host:port`` and run ``handler(LineStream)`` for each connection, within
    ``limits`` (see :mod:`casino.net.listener`; ``refusal``: the line a connection over the
    cap is sent before it is closed)."""
    bounds = limits or Limits()

    async def opened(conn: socket.socket) -> LineStream:
        reader, writer = await asyncio.open_connection(sock=conn, limit=bounds.max_line + 2)
        return LineStream(reader, writer, bounds, clock, FloodGuard(bounds), log)

    refused = (refusal + "\n").encode("utf-8") if refusal else b""
    return await listen(serving(opened, handler), port, host, bounds, log, refused)


async def connect_lines(host: str, port: int) -> LineStream:
    """Open a line connection; :class:`ConnectionClosed` if nobody answers."""
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=MAX_LINE + 2)
    except OSError as error:
        raise ConnectionClosed(
            f"cannot connect to {host}:{port}: {error.strerror or error}"
        ) from error
    return LineStream(reader, writer)


__all__ = [
    "MAX_LINE",
    "Flooding",
    "LineHandler",
    "LineStream",
    "LineTooLong",
    "RateLimited",
    "connect_lines",
    "serve_lines",
]
