"""The one exception for every way a connection can end."""

from __future__ import annotations

from casino.errors import CasinoError


class ConnectionClosed(CasinoError):
    """The peer closed the connection, reset it, was dropped, or sent something that is not
    a frame."""
