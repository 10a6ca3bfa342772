"""What the member types, read in either language (pure): a tile number and an end, draw,
pass, help, quit; and the answer to "another hand?".

A line that is not a command is an :class:`Invalid` carrying an English message id (marked
with :func:`N_` so the catalog test finds it); the shell translates it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from casino.domino.rules import End
from casino.errors import ParseError
from casino.numbers import parse_int


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it here (gettext_noop)."""
    return message


class Word(Enum):
    """The commands that are one word."""

    DRAW = "draw"
    PASS = "pass"
    HELP = "help"
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class Play:
    """Play the member's tile number ``number`` (from 1) at ``end`` (``None``: not said)."""

    number: int
    end: End | None
    text: str = ""


@dataclass(frozen=True, slots=True)
class Invalid:
    """Not a command: ``message`` (a message id with ``{word}``) and the offending word."""

    message: str
    word: str


WORDS: dict[str, Word] = {
    "draw": Word.DRAW,
    "robar": Word.DRAW,
    "roba": Word.DRAW,
    "pass": Word.PASS,
    "pasar": Word.PASS,
    "paso": Word.PASS,
    "help": Word.HELP,
    "ayuda": Word.HELP,
    "?": Word.HELP,
    "quit": Word.QUIT,
    "exit": Word.QUIT,
    "salir": Word.QUIT,
}
ENDS: dict[str, End] = {
    "left": End.LEFT,
    "l": End.LEFT,
    "izquierda": End.LEFT,
    "izq": End.LEFT,
    "i": End.LEFT,
    "right": End.RIGHT,
    "r": End.RIGHT,
    "derecha": End.RIGHT,
    "der": End.RIGHT,
    "d": End.RIGHT,
}
YES = frozenset({"", "s", "si", "sí", "y", "yes"})
NO = frozenset({"n", "no", "quit", "exit", "salir"})

EMPTY = N_("Type a tile number, draw, pass, help or quit.")
UNKNOWN = N_("Unknown command '{word}'. Type help.")
NOT_AN_END = N_("'{word}' is not an end: say left or right.")
TOO_MUCH = N_("Too many words: '{word}'. A move is a tile number and an end, e.g. 3 left.")


def parse_command(line: str) -> Play | Word | Invalid:
    """One line of the member's input as a command."""
    words = line.strip().lower().split()
    if not words:
        return Invalid(EMPTY, "")
    first, rest = words[0], words[1:]
    if first in WORDS:
        return WORDS[first] if not rest else Invalid(TOO_MUCH, " ".join(rest))
    try:
        number = parse_int(first)
    except ParseError:
        if not (first.isascii() and first.isdigit()):
            return Invalid(UNKNOWN, _short(first))
        number = 0  # more digits than any hand holds tiles: out of range
    if len(rest) > 1:
        return Invalid(TOO_MUCH, " ".join(rest[1:]))
    if rest and rest[0] not in ENDS:
        return Invalid(NOT_AN_END, _short(rest[0]))
    return Play(number, ENDS[rest[0]] if rest else None, _short(first))


def pause_seconds(line: str) -> int | None:
    """S for a line ``@S`` (the scripted clock's "S seconds pass, nothing typed"), else
    ``None``."""
    text = line.strip()
    if not text.startswith("@"):
        return None
    try:
        seconds = parse_int(text[1:])
    except ParseError:
        return None
    return seconds if seconds >= 0 else None


def parse_yes_no(line: str) -> bool | None:
    """``True`` for yes (or just Enter), ``False`` for no, ``None`` for anything else."""
    word = line.strip().lower()
    if word in YES:
        return True
    if word in NO:
        return False
    return None


def _short(word: str, most: int = 20) -> str:
    """``word`` for a message: control characters as ``?``, cut to ``most`` characters (a
    5,000-digit number, say)."""
    shown = "".join(c if c.isprintable() else "?" for c in word)
    return shown if len(shown) <= most else shown[:most] + "…"
