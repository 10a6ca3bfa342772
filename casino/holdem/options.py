"""The option types every Hold'em command line shares (``casino holdem``, ``holdem serve``,
``casino web``): below both the terminal table's :mod:`casino.holdem.cli` and the server's
:mod:`casino.holdem.server`, so that neither imports the other for them."""

from __future__ import annotations

import argparse

from casino.cmdline import seconds as seconds_option
from casino.cmdline import whole_number
from casino.holdem.rules import Rules

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


def add_rules_options(
    parser: argparse.ArgumentParser, blinds_help: str | None = "blinds (5/10)"
) -> None:
    """``--blinds`` and ``--ante``, the rules every Hold'em command line states (read back
    with :func:`rules_of`)."""
    parser.add_argument(
        "--blinds", type=blinds, default=(5, 10), metavar="SMALL/BIG", help=blinds_help
    )
    parser.add_argument("--ante", type=ante, default=0, help="every player's ante (0: none)")


def rules_of(options: argparse.Namespace) -> Rules:
    """The rules the options of :func:`add_rules_options` state."""
    return Rules.of(options.blinds).with_ante(options.ante)
