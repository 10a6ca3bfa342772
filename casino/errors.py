"""The exception hierarchy shared by every game, and the kinds of every error casino reports.

Rules modules raise these; shells turn them into the message the spec asks for, and
command-line entry points into one line on stderr and a non-zero exit. Nothing in casino
lets a traceback reach the user.

Every error a user is shown derives from :class:`CasinoError`, through its kind:
:class:`ParseError` (input not well formed), :class:`IllegalAction` (well formed, not allowed
now), :class:`DeckExhausted`, :class:`SetupError` (what was asked cannot be done as set up: a
program that will not start, a tool or folder missing) and :class:`OverLimit` (more than a
bound casino keeps). The entry-point contract (:mod:`casino.cmdline`) reports its own two,
``UsageError`` and ``FileProblem``, as one line with their own statuses; any other kind that
reaches it is a bug. Exceptions used for control flow (a ``quit``, a budget spent) are not
errors and do not derive from it: ``tests/test_errors_kinds.py`` keeps their list.
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


class SetupError(CasinoError):
    """What was asked cannot be done as set up: a program that will not start or is not known,
    a tool or a folder missing, a course or a recording that cannot be made (one line why)."""


class OverLimit(CasinoError):
    """More than a bound casino keeps to stay up: a submission too large, the sessions full
    (the message, where there is one, names the bound)."""
