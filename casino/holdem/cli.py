"""``casino holdem``: the terminal table; ``casino holdem serve``; ``casino holdem join``.

Thin: each is a body run under the program-entry contract (:func:`casino.cmdline.run_program`:
help on stdout, bad arguments one line and status 2, a bad deck file 1, Ctrl-C 130, a closed
stdout quiet); it parses its options, builds the game and runs it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from casino.cmdline import (
    ArgumentParser,
    FileProblem,
    Invocation,
    UsageError,
    run_program,
    run_subcommand,
    whole_number,
)
from casino.errors import ParseError
from casino.holdem.helptext import localize_help
from casino.holdem.options import MOST_CHIPS, add_rules_options, rules_of
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator
from casino.interrupts import interruptible_lines
from casino.shell import Console

PROGRAM = "holdem"

# The table, the engine and the computer players (casino.holdem.shell, .bots) are imported
# once the command line is read: `casino holdem --help` needs none of them.


def _stacks(text: str) -> tuple[int, ...]:
    convert = whole_number(1, MOST_CHIPS)
    return tuple(convert(part) for part in text.split(","))


def _styles(text: str) -> tuple[str, ...]:
    from casino.holdem.bots import STYLES

    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if name not in STYLES:
            raise argparse.ArgumentTypeError(
                f"unknown style {name[:20]!r} (one of {', '.join(STYLES)})"
            )
    return names


def _common(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--stack",
        type=_stacks,
        default=(1000,),
        metavar="CHIPS",
        help="chips each (1000), or per seat: 1000,300,150",
    )
    add_rules_options(parser)
    parser.add_seed_option("seed the deals and the computer players with N")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="es (default) or en"
    )


def _play_parser(invocation: Invocation) -> ArgumentParser:
    parser = invocation.parser(
        description="Texas Hold'em against the computer (or hot-seat: --humans K).\n"
        "Also: casino holdem serve --port P --seats N; casino holdem join HOST PORT --name N.",
    )
    parser.add_argument(
        "--players", type=whole_number(2, 9), default=4, metavar="N", help="seats, 2-9 (4)"
    )
    parser.add_argument(
        "--humans", metavar="K", type=whole_number(1, 9), default=1, help="humans at this keyboard"
    )
    parser.add_argument(
        "--styles", type=_styles, default=(), metavar="S,S", help="tight, loose, station: cycled"
    )
    parser.add_argument(
        "--hands", type=whole_number(1, 10**6), metavar="N", help="stop after N hands"
    )
    parser.add_argument(
        "--deck-file", metavar="FILE", help="stacked decks: a line per hand, in dealing order"
    )
    _common(parser)
    return localize_help(parser, invocation.argv)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino holdem [serve|join] …`` under the program-entry contract; the exit status."""

    def dispatch(invocation: Invocation) -> int:
        args = invocation.argv
        if args[:1] in (["serve"], ["join"]):
            from casino.holdem.client import join_body
            from casino.holdem.server import serve_body

            return run_subcommand(
                invocation, PROGRAM, serve_body if args[0] == "serve" else join_body
            )
        return _play(invocation)

    return run_program(PROGRAM, dispatch, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _play(invocation: Invocation) -> int:
    options = _play_parser(invocation).parse_args(invocation.argv)
    from casino.holdem.shell import LocalGame, Settings, parse_deck_file

    if options.humans > options.players:
        raise UsageError(f"--humans {options.humans} is more than --players {options.players}")
    stacks = options.stack
    if len(stacks) not in (1, options.players):
        raise UsageError(f"--stack gives {len(stacks)} stacks for {options.players} players")
    decks = []
    if options.deck_file is not None:
        try:
            decks = parse_deck_file(_read(options.deck_file))
        except ParseError as error:
            raise FileProblem(f"deck file {options.deck_file!r}: {error}") from None
    settings = Settings(
        players=options.players,
        stack=stacks[0],
        stacks=stacks if len(stacks) > 1 else (),
        rules=rules_of(options),
        seed=options.seed,
        decks=decks,
        humans=options.humans,
        styles=options.styles,
        hands=options.hands,
    )
    streams = invocation.streams
    console = Console(interruptible_lines(streams.stdin), streams.stdout)
    return LocalGame(settings, console, translator("holdem", options.lang)).run()


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not a UTF-8 text file"
        raise FileProblem(f"cannot read deck file {path!r}: {reason}") from None
