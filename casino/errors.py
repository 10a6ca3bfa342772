"""The exception hierarchy shared by every game.

Rules modules raise these; shells turn them into the message the spec asks for, and
command-line entry points into one line on stderr and a non-zero exit. Nothing in casino
lets a traceback reach the user.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec

P = ParamSpec("P")


class CasinoError(Exception):
    """Base class of every error casino reports to a user."""


class ParseError(CasinoError, ValueError):
    """Input that is not well formed: a bad card token, a bad number, a malformed file."""


class IllegalAction(CasinoError):
    """Input that is well formed but not allowed now (a move out of range, a bet after a deal)."""


def allowed(verify: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> bool:
    """Whether ``verify(*args, **kwargs)`` passes: the ``can_…`` of every rules object, asked
    of its ``verify_…`` (which raises :class:`IllegalAction` with the reason)."""
    try:
        verify(*args, **kwargs)
    except IllegalAction:
        return False
    return True


class DeckExhausted(CasinoError):
    """A deck (shuffled or stacked from a card-file) has no cards left to deal."""
