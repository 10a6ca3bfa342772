"""The exception hierarchy shared by every game.

Rules modules raise these; shells turn them into the message the spec asks for, and
command-line entry points into one line on stderr and a non-zero exit. Nothing in casino
lets a traceback reach the user.
"""


class CasinoError(Exception):
    """Base class of every error casino reports to a user."""


class ParseError(CasinoError, ValueError):
    """Input that is not well formed: a bad card token, a bad number, a malformed file."""


class IllegalAction(CasinoError):
    """Input that is well formed but not allowed now (a move out of range, a bet after a deal)."""


class DeckExhausted(CasinoError):
    """A deck (shuffled or stacked from a card-file) has no cards left to deal."""
