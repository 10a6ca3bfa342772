"""``casino`` / ``python -m casino``: the games and the transcript harness, as subcommands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from casino import __version__
from casino.programs import PROGRAMS, load_main

HARNESS_COMMANDS = {
    "replay": "replay transcripts against casino's programs or any other command",
    "record": "capture a live or stdin-fed session into a transcript",
    "grade": "grade every submission of a course against the same transcripts, sandboxed",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="casino",
        description="Reference implementations of classic game assignments, and a "
        "transcript harness that grades any program against golden sessions.",
    )
    parser.add_argument("--version", action="version", version=f"casino {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in HARNESS_COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    for name, module in PROGRAMS.items():
        sub.add_parser(name, help=f"play {name} (same as python -m {module})", add_help=False)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Dispatch ``casino COMMAND ARGS…`` to the harness or to a game's own ``main``."""
    args = list(sys.argv[1:] if argv is None else argv)
    command, rest = (args[0], args[1:]) if args else ("", [])
    if command in HARNESS_COMMANDS:
        from casino.harness.cli import main as harness_main

        return harness_main([command, *rest], stdin=stdin, stdout=stdout, stderr=stderr)
    if command in PROGRAMS:
        return load_main(command)(rest, stdin=stdin, stdout=stdout, stderr=stderr)
    parser = _parser()
    parser.parse_args(args)  # prints help, version or a usage error and exits
    parser.print_help()
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
