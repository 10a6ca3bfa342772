"""An in-memory :class:`~casino.stud.dealer.Connection`: a player inside the dealer's process.

Tests and the strategy benchmark seat players this way: no sockets, no waiting. A
``responder`` gets each text the dealer sends and returns the reply (or ``None``); it may
raise :class:`~casino.net.stream.ConnectionClosed` to hang up, or advance a fake clock to
answer late. Asking for a reply that never came is a :class:`TimeoutError`, as a silent
player is on a real line.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from casino.net.stream import ConnectionClosed

Responder = Callable[[str], "str | None"]


class LocalConnection:
    """The dealer's end of an in-process player."""

    def __init__(self, responder: Responder) -> None:
        self.responder = responder
        self.sent: list[str] = []
        self.closed = False
        self._replies: deque[str] = deque()

    async def send(self, text: str) -> None:
        """Hand ``text`` to the player and keep its reply for :meth:`receive`."""
        if self.closed:
            raise ConnectionClosed("the connection was closed")
        self.sent.append(text)
        try:
            reply = self.responder(text)
        except ConnectionClosed:
            self.closed = True
            raise
        if reply is not None:
            self._replies.append(reply)

    def post(self, text: str) -> None:
        """Hand ``text`` (which takes no reply) to the player at once."""
        if not self.closed:
            self.sent.append(text)
            self.responder(text)

    async def receive(self) -> str:
        """The player's reply; :class:`TimeoutError` if it gave none."""
        if self.closed:
            raise ConnectionClosed("the connection was closed")
        if not self._replies:
            raise TimeoutError("the player did not reply")
        return self._replies.popleft()

    async def close(self) -> None:
        """Hang up."""
        self.closed = True
