"""Java ``writeUTF`` frames over asyncio streams, and loopback servers and clients.

:class:`FrameStream` is one connection: :meth:`FrameStream.send` a text, :meth:`receive` the
next one. A peer that goes away (or sends bytes that are not a frame) raises
:class:`ConnectionClosed`, one exception for every way a connection can end.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from casino.errors import CasinoError
from casino.net.javautf import FrameError, decode_text, encode_frame

_BUFFERED = 64 * 1024

LOOPBACK = "127.0.0.1"
"""Where casino's servers listen unless told otherwise."""


class ConnectionClosed(CasinoError):
    """The peer closed the connection, reset it, or sent something that is not a frame."""


class FrameStream:
    """One connection that speaks Java ``writeUTF`` frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._posted = bytearray()

    def post(self, text: str) -> None:
        """Queue ``text`` (a message that takes no reply) to go out with the next :meth:`send`:
        one packet instead of two, and the peer wakes once."""
        self._posted += encode_frame(text)

    async def send(self, text: str) -> None:
        """Write what :meth:`post` queued and ``text``, as frames, and flush them;
        :class:`ConnectionClosed` if the peer is gone."""
        data = bytes(self._posted) + encode_frame(text)
        self._posted.clear()
        try:
            self.writer.write(data)
            if self.writer.transport.get_write_buffer_size() > _BUFFERED:
                await self.writer.drain()  # only a peer that stopped reading makes us wait
        except (ConnectionError, OSError) as error:
            raise ConnectionClosed(f"connection lost while sending: {error}") from error

    async def receive(self) -> str:
        """The next frame's text; :class:`ConnectionClosed` at end of stream or on bad bytes."""
        try:
            head = await self.reader.readexactly(2)
            body = await self.reader.readexactly(int.from_bytes(head, "big"))
            return decode_text(body)
        except asyncio.IncompleteReadError as error:
            raise ConnectionClosed("the connection was closed") from error
        except (ConnectionError, OSError) as error:
            raise ConnectionClosed(f"connection lost: {error}") from error
        except FrameError as error:
            raise ConnectionClosed(f"not a frame: {error}") from error

    async def until_closed(self) -> None:
        """Read and drop whatever the peer still sends, until it closes its side."""
        try:
            while await self.reader.read(4096):
                pass
        except (ConnectionError, OSError):
            return

    async def close(self) -> None:
        """Close our side; never raises."""
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            self.writer.close()
            await self.writer.wait_closed()


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


async def serve(handler: Handler, port: int = 0, host: str = LOOPBACK) -> asyncio.Server:
    """Listen on ``host:port`` (port 0: any free port) and run ``handler`` per connection."""

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await handler(FrameStream(reader, writer))
        except asyncio.CancelledError:  # the loop is shutting down: hang up quietly
            writer.close()

    return await asyncio.start_server(accept, host, port)


def bound_port(server: asyncio.Server) -> int:
    """The port ``server`` listens on (after asking for port 0)."""
    port: int = server.sockets[0].getsockname()[1]
    return port
