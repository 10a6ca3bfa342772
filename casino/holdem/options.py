"""The option types every Hold'em command line shares (``casino holdem``, ``holdem serve``,
``casino web``): below both the terminal table's :mod:`casino.holdem.cli` and the server's
:mod:`casino.holdem.server`, so that neither imports the other for them."""

from __future__ import annotations

import argparse

from casino.cmdline import seconds as seconds_option
from casino.cmdline import whole_number

MOST_CHIPS = 10**12
"""The most chips a stack (or a blind) may hold."""


seconds = seconds_option(3600)
"""A number of seconds above 0, at most an hour (``--timeout``, ``--pause``…)."""


def ante(text: str) -> int:
    """A whole number of chips, 0 or more (``--ante``; 0: no ante)."""
    return whole_number(0, MOST_CHIPS)(text)


def blinds(text: str) -> tuple[int, int]:
    """``SMALL/BIG`` with ``0 < SMALL <= BIG`` (``--blinds``)."""
    small, slash, big = text.partition("/")
    convert = whole_number(1, MOST_CHIPS)
    try:
        values = (convert(small), convert(big)) if slash else (0, 0)
    except argparse.ArgumentTypeError:
        values = (0, 0)
    if not 0 < values[0] <= values[1] <= 10**9:
        raise argparse.ArgumentTypeError(f"blinds are SMALL/BIG, 0 < SMALL <= BIG: {text[:40]!r}")
    return values
