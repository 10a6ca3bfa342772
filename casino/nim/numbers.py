"""Reading whole numbers the way the course's Java programs do (``Integer.parseInt``)."""

from __future__ import annotations

from casino.errors import ParseError

_MAX_DIGITS = 18


def parse_int(text: str) -> int:
    """``text`` (surrounding whitespace ignored) as a whole number, or :class:`ParseError`.

    Only ASCII digits with an optional sign: ``"2.5"``, ``"abc"``, ``""``, ``"٣"`` and numbers
    of more than 18 digits are not numbers here.
    """
    stripped = text.strip()
    if not is_digits(stripped[1:] if stripped[:1] in ("+", "-") else stripped):
        raise ParseError(f"not a whole number: {text!r}")
    return int(stripped)


def is_digits(text: str) -> bool:
    """Whether ``text`` is 1 to 18 ASCII digits and nothing else (no sign, no space)."""
    return 0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit()


def parse_count(text: str, most: int | None = None) -> int:
    """``text`` as a whole number from 1 to ``most`` (no upper limit when ``None``), or
    :class:`ParseError`."""
    value = parse_int(text)
    if value < 1 or (most is not None and value > most):
        raise ParseError(f"not a whole number from 1 to {most}: {text!r}")
    return value
