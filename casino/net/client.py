"""A blocking client for Java ``writeUTF`` frames, for bots that answer in a loop.

A bot's turn is read → think → reply, so a plain socket is simpler and faster than asyncio.
"""

from __future__ import annotations

import contextlib
import socket
from collections import deque

from casino.net.errors import ConnectionClosed
from casino.net.javautf import FrameDecoder, FrameError, encode_frame


class FrameSocket:
    """A connected TCP socket that sends and receives frames (Nagle off: one frame, one packet)."""

    def __init__(self, sock: socket.socket) -> None:
        self._socket = sock
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._decoder = FrameDecoder()
        self._ready: deque[str] = deque()

    @classmethod
    def connect(cls, host: str, port: int, timeout: float = 10.0) -> FrameSocket:
        """Connect to ``host:port``; :class:`ConnectionClosed` with the reason if that fails."""
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as error:
            reason = error.strerror or str(error)
            raise ConnectionClosed(f"cannot connect to {host}:{port}: {reason}") from error
        sock.settimeout(None)
        return cls(sock)

    def receive(self) -> str:
        """The next frame; :class:`ConnectionClosed` when the peer is gone."""
        while not self._ready:
            try:
                data = self._socket.recv(65536)
            except OSError as error:
                raise ConnectionClosed(f"connection lost: {error}") from error
            if not data:
                raise ConnectionClosed("the connection was closed")
            try:
                self._ready.extend(self._decoder.feed(data))
            except FrameError as error:
                raise ConnectionClosed(f"not a frame: {error}") from error
        return self._ready.popleft()

    def send(self, text: str) -> None:
        """Send one frame; :class:`ConnectionClosed` when the peer is gone."""
        try:
            self._socket.sendall(encode_frame(text))
        except OSError as error:
            raise ConnectionClosed(f"connection lost: {error}") from error

    def close(self) -> None:
        """Close the socket (never raises)."""
        with contextlib.suppress(OSError):
            self._socket.close()
