"""casino's one reader of whole numbers and of seconds: what a user types, a file holds, or an
argument says.

Strict and bounded, as the course's Java programs read them (``Integer.parseInt``/
``Long.parseLong``): ASCII digits with an optional sign, at most :data:`MAX_DIGITS` digits, so
no input reaches Python's ``int()`` limit (4,300 digits) or builds a huge number. ``"2.5"``,
``"abc"``, ``""``, ``"٣"`` (an Arabic-Indic digit) and ``"1_000"`` are not whole numbers here.
A refusal is a :class:`~casino.errors.ParseError` that quotes the input (shortened if long).
"""

from __future__ import annotations

from casino.errors import ParseError

MAX_DIGITS = 18
"""The most digits a whole number may have (every 18-digit number fits a Java ``long``)."""

_QUOTE_AT_MOST = 30


def quoted(text: str) -> str:
    """``text`` as Python quotes it, cut after 30 characters with its full length said."""
    if len(text) <= _QUOTE_AT_MOST:
        return repr(text)
    return f"{text[:_QUOTE_AT_MOST]!r}… ({len(text):,} characters)"


def is_digits(text: str) -> bool:
    """Whether ``text`` is 1 to :data:`MAX_DIGITS` ASCII digits and nothing else."""
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def parse_int(text: str) -> int:
    """``text`` (surrounding whitespace ignored) as a whole number, or :class:`ParseError`."""
    stripped = text.strip()
    digits = stripped[1:] if stripped[:1] in ("+", "-") else stripped
    if not is_digits(digits):
        if digits.isascii() and digits.isdigit():
            raise ParseError(f"more than {MAX_DIGITS} digits: {quoted(text)}")
        raise ParseError(f"not a whole number: {quoted(text)}")
    return int(stripped)


def parse_count(text: str, most: int | None = None) -> int:
    """``text`` as a whole number from 1 to ``most`` (no upper limit when ``None``), or
    :class:`ParseError`."""
    return parse_bounded(text, 1, most)


def parse_bounded(text: str, least: int, most: int | None = None) -> int:
    """``text`` as a whole number from ``least`` to ``most`` (``None``: no upper limit), or
    :class:`ParseError` saying the range."""
    value = parse_int(text)
    if value < least or (most is not None and value > most):
        raise ParseError(f"not a whole number {describe_range(least, most)}: {quoted(text)}")
    return value


def describe_range(least: int, most: int | None) -> str:
    """``from 1 to 5``, or ``of at least 1`` when there is no upper limit."""
    return f"from {least} to {most}" if most is not None else f"of at least {least}"


def parse_seconds(text: str, most: int | None = None, *, zero: bool = False) -> float:
    """``text`` (surrounding whitespace ignored) as a number of seconds, or :class:`ParseError`.

    A decimal number in ASCII digits (``30``, ``0.5``, ``.5``, ``2.``; at most
    :data:`MAX_DIGITS` digits in all): never ``nan``, ``inf``, an exponent, a sign or a
    negative, so no option can switch a time limit off. Above 0 (or 0 too when ``zero``), at
    most ``most`` when given. The one reader of every command line's seconds."""
    stripped = text.strip()
    whole, dot, fraction = stripped.partition(".")
    digits = whole + fraction
    if not (0 < len(digits) <= MAX_DIGITS and digits.isascii() and digits.isdigit()):
        raise ParseError(f"not a number of seconds {_seconds_range(most, zero)}: {quoted(text)}")
    value = float(whole + dot + fraction)
    if (value == 0 and not zero) or (most is not None and value > most):
        raise ParseError(f"not a number of seconds {_seconds_range(most, zero)}: {quoted(text)}")
    return value


def _seconds_range(most: int | None, zero: bool) -> str:
    """``above 0, at most 3600`` / ``of 0 or more``: the seconds :func:`parse_seconds` takes."""
    least = "of 0 or more" if zero else "above 0"
    return least if most is None else f"{least}, at most {most}"
