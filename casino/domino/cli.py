"""``casino domino`` / ``python -m casino.domino``: the command line of the dominoes match.

Thin: parse the options with :mod:`casino.cmdline`, build the console, the clock and the deals,
and hand them to :class:`~casino.domino.shell.Session`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO

from casino.clock import FakeClock, MonotonicClock, WaitClock
from casino.cmdline import ArgumentParser, parse_or_report, silence_closed_output
from casino.domino.commands import pause_seconds, whole_number
from casino.domino.money import STAKE
from casino.domino.rules import Deal, parse_deals, shuffled_deal
from casino.domino.shell import Session, Table
from casino.errors import CasinoError, ParseError
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator
from casino.shell import Console, Streams

PROG = "casino domino"
INTERRUPTED = 130
MAX_TILES_FILE = 1 << 20
"""Bytes a tiles file may hold (a stacked deal is a line of about 120)."""


TILES_FILE_HELP = """\
A tiles file (--tiles-file) holds one deal per line: the opening draws in pairs (your
tile, the computer's; pairs of equal totals are redrawn, so only the last may differ), '/',
then the 28 tiles as dealt: 7 yours, 7 the computer's, the boneyard in drawing order.
A tile is 3-5, 3|5 or [3|5]; '#' starts a comment. The match ends when the deals run out.
"""


def _number(low: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = whole_number(text)
        except ParseError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"not {what}: {text!r}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text) if text.strip().replace(".", "", 1).isdigit() else -1.0
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(
            f"not a number of seconds (above 0, at most 3600): {text!r}"
        )
    return value


def _parser(out: TextIO) -> ArgumentParser:
    parser = ArgumentParser(
        out=out,
        prog=PROG,
        description="CASINO-ROYAL dominoes: you against the computer, double-six, "
        f"${STAKE} a hand.",
        epilog=TILES_FILE_HELP,
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="es (default) or en"
    )
    parser.add_argument(
        "--seed", type=_number(0, "a whole number of at least 0"), help="reproduce every deal"
    )
    parser.add_argument("--tiles-file", metavar="F", help="stacked deals, one per line")
    parser.add_argument(
        "--bankroll",
        type=_number(STAKE, f"a whole number of dollars, at least {STAKE}"),
        default=100,
        help="dollars each player starts with (100)",
    )
    parser.add_argument(
        "--move-seconds",
        type=_seconds,
        default=15.0,
        metavar="S",
        help="seconds for each of your moves (15)",
    )
    glyphs = parser.add_mutually_exclusive_group()
    glyphs.add_argument("--ascii", action="store_true", help="tiles as [3|5]")
    glyphs.add_argument("--unicode", action="store_true", help="Unicode domino tiles")
    parser.add_argument(
        "--fake-clock",
        action="store_true",
        help="time passes only when an input line '@S' says S seconds went by "
        "(for transcripts and graders)",
    )
    return parser


def _deals(args: argparse.Namespace) -> Iterator[Deal]:
    if args.tiles_file:
        return iter(parse_deals(_read_tiles(args.tiles_file), args.tiles_file))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    return iter(lambda: shuffled_deal(rng), None)


def _read_tiles(path: str) -> str:
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_TILES_FILE + 1)
    except OSError as error:
        raise CasinoError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_TILES_FILE:
        raise ParseError(f"{path}: larger than {MAX_TILES_FILE} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError(f"{path}: not UTF-8 text") from None


def scripted(lines: Iterable[str], clock: FakeClock) -> Iterator[str]:
    """``lines``, the clock moved on by S seconds as each ``@S`` line is read (the session
    takes such a line as a pause, never as a command)."""
    for line in lines:
        seconds = pause_seconds(line)
        if seconds is not None:
            clock.advance(seconds)
        yield line


def _unicode(args: argparse.Namespace, out: TextIO) -> bool:
    if args.unicode or args.ascii:
        return bool(args.unicode)
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
    return (
        out.isatty() and encoding == "utf8" and os.environ.get("TERM", "") not in ("linux", "dumb")
    )


def _play(args: argparse.Namespace, streams: Streams) -> int:
    deals = _deals(args)
    clock: WaitClock
    if args.fake_clock:
        fake = FakeClock()
        clock, console = fake, Console(scripted(streams.stdin, fake), streams.stdout)
    else:
        clock, console = MonotonicClock(), Console.of_stream(streams.stdin, streams.stdout)
    table = Table(
        bankroll=args.bankroll,
        move_seconds=args.move_seconds,
        unicode=_unicode(args, streams.stdout),
        countdown=not args.fake_clock and streams.stdout.isatty(),
        pauses=args.fake_clock,
    )
    Session(console, translator("domino", args.lang), clock, deals, table).run()
    return 0


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino domino [--lang es|en] [--seed N] [--tiles-file F] …``."""
    streams = Streams.of(stdin, stdout, stderr)
    args = parse_or_report(_parser(streams.stdout), sys.argv[1:] if argv is None else argv, streams)
    if isinstance(args, int):
        return args
    try:
        return _play(args, streams)
    except KeyboardInterrupt:
        streams.stdout.write("\n")
        return INTERRUPTED
    except BrokenPipeError:
        silence_closed_output(streams.stdout)
        return 0
    except CasinoError as error:
        streams.error(f"{PROG}: {error}")
        return 1
