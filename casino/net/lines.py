"""Text lines over asyncio streams: the framing of line protocols a person can type with ``nc``.

One line is UTF-8 text ended by ``\\n`` (a ``\\r`` before it is dropped). Bytes that are not
UTF-8 are replaced, never fatal; a line longer than :data:`MAX_LINE` is discarded and
reported as :class:`LineTooLong`, and the connection carries on. A peer that goes away raises
:class:`~casino.net.stream.ConnectionClosed`, as with the frame streams.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from casino.errors import ParseError
from casino.net.stream import LOOPBACK, ConnectionClosed

MAX_LINE = 1024
"""The longest line (in bytes) a line stream accepts."""


class LineTooLong(ParseError):
    """A line over :data:`MAX_LINE` bytes arrived (and was skipped)."""


class LineStream:
    """One connection that speaks newline-ended UTF-8 lines."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def send(self, text: str) -> None:
        """Write ``text`` (one or more lines; a final newline is added if missing)."""
        data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
        try:
            self.writer.write(data)
            await self.writer.drain()
        except (ConnectionError, OSError, RuntimeError) as error:
            raise ConnectionClosed(f"connection lost while sending: {error}") from error

    async def receive(self) -> str:
        """The next line, without its line ending; :class:`LineTooLong` for an overlong one,
        :class:`ConnectionClosed` at end of stream."""
        chunks = bytearray()
        while True:
            try:
                piece = await self.reader.readuntil(b"\n")
            except asyncio.LimitOverrunError as error:
                chunks += await self.reader.readexactly(error.consumed)
                if len(chunks) > MAX_LINE:
                    await self._skip_line()
                    raise LineTooLong(f"a line over {MAX_LINE} bytes was skipped") from None
                continue
            except asyncio.IncompleteReadError as error:
                raise ConnectionClosed("the connection was closed") from error
            except (ConnectionError, OSError) as error:
                raise ConnectionClosed(f"connection lost: {error}") from error
            chunks += piece
            if len(chunks) > MAX_LINE + 1:
                raise LineTooLong(f"a line over {MAX_LINE} bytes was skipped")
            return chunks.decode("utf-8", errors="replace").rstrip("\n").rstrip("\r")

    async def _skip_line(self) -> None:
        while True:
            try:
                await self.reader.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as error:
                await self.reader.readexactly(error.consumed)
            except (asyncio.IncompleteReadError, ConnectionError, OSError) as error:
                raise ConnectionClosed("the connection was closed") from error

    async def close(self) -> None:
        """Close our side; never raises."""
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            self.writer.close()
            await self.writer.wait_closed()


LineHandler = Callable[[LineStream], Awaitable[None]]
"""What a line server runs for each connection."""


async def serve_lines(handler: LineHandler, port: int = 0, host: str = LOOPBACK) -> asyncio.Server:
    """Listen on ``host:port`` and run ``handler(LineStream)`` for each connection."""

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await handler(LineStream(reader, writer))
        except asyncio.CancelledError:
            writer.close()

    return await asyncio.start_server(accept, host, port, limit=MAX_LINE + 2)


async def connect_lines(host: str, port: int) -> LineStream:
    """Open a line connection; :class:`ConnectionClosed` if nobody answers."""
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=MAX_LINE + 2)
    except OSError as error:
        raise ConnectionClosed(
            f"cannot connect to {host}:{port}: {error.strerror or error}"
        ) from error
    return LineStream(reader, writer)
