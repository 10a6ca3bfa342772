"""Command-line plumbing every casino program shares: parse, or report in one line.

:class:`ArgumentParser` is argparse that never exits the process and never prints a usage
block: a bad command line raises :class:`UsageError` (one line, for ``Streams.error``), and
``--help`` prints to the program's own stdout, then raises :class:`HelpShown`.
:func:`parse_or_report` turns both into the exit status a ``main`` returns.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from casino.errors import CasinoError
from casino.shell import Streams

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

USAGE_EXIT = 2
"""The exit status for a bad command line."""


class UsageError(CasinoError):
    """A bad command line; the message is one line."""


class HelpShown(Exception):
    """``--help`` (or ``--version``) has been printed; the program should end with 0."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, and prints help where it is told."""

    def __init__(self, *, out: TextIO, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(**kwargs)
        self._out = out

    def error(self, message: str) -> NoReturn:
        """A usage error: raised as :class:`UsageError`, never printed and exited."""
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        """Only ``--help``/``--version`` exit argparse's way; they have printed already."""
        raise HelpShown

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Help, usage and ``--version`` go to the program's own stdout."""
        if message:
            self._out.write(message)


def parse_or_report(
    parser: ArgumentParser, argv: Sequence[str], streams: Streams
) -> argparse.Namespace | int:
    """The parsed options, or the exit status once help (0) or a usage error (2) is out."""
    try:
        return parser.parse_args(list(argv))
    except HelpShown:
        return 0
    except UsageError as error:
        streams.error(f"{parser.prog}: {error}")
        return USAGE_EXIT


def silence_closed_output(stream: TextIO) -> None:
    """After ``… | head`` closed our stdout: point it at the null device, so the flush at
    interpreter exit reports no second error."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)
