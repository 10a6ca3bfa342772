"""``casino holdem``: the terminal table; ``casino holdem serve``; ``casino holdem join``.

Thin: parse the command line with :mod:`casino.cmdline`, build the game, run it. Bad
arguments or files are one line on stderr and exit status 2; Ctrl-C ends with 130; a
closed stdout (``| head``) ends quietly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from casino.cmdline import ArgumentParser, UsageError, parse_or_report, silence_closed_output
from casino.errors import CasinoError, ParseError
from casino.holdem.bots import STYLES
from casino.holdem.commands import whole_number
from casino.holdem.shell import LocalGame, Settings, parse_deck_file
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator
from casino.shell import Console, Streams

PROG = "casino holdem"
INTERRUPTED = 130
USAGE_EXIT = 2


def _number(low: int, high: int) -> Callable[[str], int]:
    def convert(text: str) -> int:
        try:
            value = whole_number(text)
        except ParseError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    return convert


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"not a number of seconds (0 to 3600): {text[:40]!r}")
    return value


def _blinds(text: str) -> tuple[int, int]:
    small, slash, big = text.partition("/")
    try:
        values = (whole_number(small), whole_number(big)) if slash else (0, 0)
    except ParseError:
        values = (0, 0)
    if not 0 < values[0] <= values[1] <= 10**9:
        raise argparse.ArgumentTypeError(f"blinds are SMALL/BIG, 0 < SMALL <= BIG: {text[:40]!r}")
    return values


def _stacks(text: str) -> tuple[int, ...]:
    convert = _number(1, 10**12)
    return tuple(convert(part) for part in text.split(","))


def _styles(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if name not in STYLES:
            raise argparse.ArgumentTypeError(
                f"unknown style {name[:20]!r} (one of {', '.join(STYLES)})"
            )
    return names


def _common(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--stack", type=_stacks, default=(1000,), help="chips each, or per seat: 1000,300,150"
    )
    parser.add_argument("--blinds", type=_blinds, default=(5, 10), help="SMALL/BIG (5/10)")
    parser.add_argument("--seed", type=_number(0, 10**18), help="for a reproducible game")
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE)


def _play_parser(out: TextIO) -> ArgumentParser:
    parser = ArgumentParser(
        out=out,
        prog=PROG,
        description="Texas Hold'em against the computer (or hot-seat: --humans K).\n"
        "Also: casino holdem serve --port P --seats N; casino holdem join HOST PORT --name N.",
    )
    parser.add_argument("--players", type=_number(2, 9), default=4, help="seats (2-9)")
    parser.add_argument("--humans", type=_number(1, 9), default=1, help="humans at this keyboard")
    parser.add_argument("--styles", type=_styles, default=(), help="computer styles, cycled")
    parser.add_argument("--hands", type=_number(1, 10**6), help="stop after this many hands")
    parser.add_argument("--deck-file", help="stacked decks: one line per hand, dealing order")
    _common(parser)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``casino holdem [serve|join] …``; return the exit status."""
    streams = Streams.of(stdin, stdout, stderr)
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args[:1] == ["serve"]:
            from casino.holdem.server import serve_main

            return serve_main(args[1:], streams)
        if args[:1] == ["join"]:
            from casino.holdem.client import join_main

            return join_main(args[1:], streams)
        return _play(args, streams)
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        silence_closed_output(streams.stdout)
        return 0
    except UsageError as error:
        streams.error(f"{PROG}: {error}")
        return USAGE_EXIT
    except CasinoError as error:
        streams.error(f"{PROG}: {error}")
        return 1


def _play(args: list[str], streams: Streams) -> int:
    options = parse_or_report(_play_parser(streams.stdout), args, streams)
    if isinstance(options, int):
        return options
    if options.humans > options.players:
        raise UsageError(f"--humans {options.humans} is more than --players {options.players}")
    stacks = options.stack
    if len(stacks) not in (1, options.players):
        raise UsageError(f"--stack gives {len(stacks)} stacks for {options.players} players")
    decks = []
    if options.deck_file is not None:
        decks = parse_deck_file(_read(options.deck_file))
    settings = Settings(
        players=options.players,
        stack=stacks[0],
        stacks=stacks if len(stacks) > 1 else (),
        blinds=options.blinds,
        seed=options.seed,
        decks=decks,
        humans=options.humans,
        styles=options.styles,
        hands=options.hands,
    )
    console = Console(streams.stdin, streams.stdout)
    return LocalGame(settings, console, translator("holdem", options.lang)).run()


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not a UTF-8 text file"
        raise UsageError(f"cannot read deck file {path!r}: {reason}") from None
