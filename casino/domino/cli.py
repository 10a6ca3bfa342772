"""``casino domino`` / ``python -m casino.domino``: the command line of the dominoes match.

Thin: the program-entry contract (:func:`casino.cmdline.run_program`) parses and reports;
this builds the console, the clock and the deals, and hands them to
:class:`~casino.domino.shell.Session`.
"""

from __future__ import annotations

import argparse
import gettext
import random
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO

from casino.clock import FakeClock, MonotonicClock, WaitClock
from casino.cmdline import (
    ArgumentParser,
    FileProblem,
    Invocation,
    commands_help,
    run_program,
    whole_number,
)
from casino.cmdline import seconds as seconds_option
from casino.domino.commands import N_, pause_seconds
from casino.domino.money import STAKE
from casino.domino.rules import Deal, parse_deals, shuffled_deal
from casino.domino.shell import CLOCK_RULE, Session, Table, command_table
from casino.errors import ParseError
from casino.files import read_text
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES, language_in, translate_help, translator
from casino.shell import Console, Streams

PROGRAM = "domino"
MAX_TILES_FILE = 1 << 20
"""Bytes a tiles file may hold (a stacked deal is a line of about 120)."""
EPILOG_WIDTH = 90
"""Columns the epilog's prose is filled to (as the tiles file's paragraph is laid out)."""
TILES_FILE_HELP = N_("""\
A tiles file (--tiles-file) holds one deal per line: the opening draws in pairs (your
tile, the computer's; pairs of equal totals are redrawn, so only the last may differ), '/',
then the 28 tiles as dealt: 7 yours, 7 the computer's, the boneyard in drawing order.
A tile is 3-5, 3|5 or [3|5]; '#' starts a comment. The match ends when the deals run out.""")
TILES_HELP = N_(
    "Tiles are drawn [3|5] (--ascii, the default): readable at any font size within the move "
    "clock. --unicode draws them as Unicode domino characters, which most terminal fonts "
    "show too small to count the pips quickly."
)

OUTSIDE_HELP = (
    N_("show this help message and exit"),
    N_("reproduce every deal (default: $CASINO_SEED if set)"),
)
"""Help texts written outside this module (argparse's ``-h``, the seed option), marked for
the catalog: ``--help`` translates every text it shows."""


_seconds = seconds_option(3600)


def _parser(invocation: Invocation) -> ArgumentParser:
    """The options, their help in the language ``--lang`` asks for (Spanish by default)."""
    parser = invocation.parser(
        description=N_(
            "CASINO-ROYAL dominoes: you against the computer, double-six, ${stake} a hand."
        )
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help=N_("es (default) or en")
    )
    parser.add_seed_option("reproduce every deal")  # its whole help is in OUTSIDE_HELP
    parser.add_argument("--tiles-file", metavar="F", help=N_("stacked deals, one per line"))
    parser.add_argument(
        "--bankroll",
        type=whole_number(STAKE),
        default=100,
        metavar="DOLLARS",
        help=N_("what each player starts with (100)"),
    )
    parser.add_argument(
        "--move-seconds",
        type=_seconds,
        default=15.0,
        metavar="S",
        help=N_("seconds for each of your moves (15)"),
    )
    glyphs = parser.add_mutually_exclusive_group()
    glyphs.add_argument("--ascii", action="store_true", help=N_("tiles as [3|5] (the default)"))
    glyphs.add_argument(
        "--unicode",
        action="store_true",
        help=N_("tiles as Unicode domino characters (small in most fonts)"),
    )
    parser.add_argument(
        "--fake-clock",
        action="store_true",
        help=N_(
            "time passes only when an input line '@S' says S seconds went by "
            "(for transcripts and graders)"
        ),
    )
    tr = translator("domino", language_in(invocation.argv))
    translate_help(parser, tr)
    parser.description = (parser.description or "").format(stake=STAKE)
    parser.epilog = _epilog(tr)
    return parser


def _epilog(tr: gettext.NullTranslations) -> str:
    """The in-game commands, how tiles are drawn, and the tiles file, in ``tr``'s language."""
    _ = tr.gettext
    return commands_help(
        _(N_("commands, one per line at the prompt (in Spanish or English):")),
        command_table(tr),
        _(CLOCK_RULE).format(seconds=15),
        "",
        textwrap.fill(_(TILES_HELP), EPILOG_WIDTH),
        "",
        _(TILES_FILE_HELP),
    )


def _deals(args: argparse.Namespace) -> Iterator[Deal]:
    if args.tiles_file:
        path = args.tiles_file
        try:
            return iter(parse_deals(read_text(path, MAX_TILES_FILE), path))
        except OSError as error:
            raise FileProblem(f"cannot read {path}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise FileProblem(f"{path}: not UTF-8 text") from None
        except ParseError as error:
            raise FileProblem(str(error)) from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    return iter(lambda: shuffled_deal(rng), None)


def scripted(lines: Iterable[str], clock: FakeClock) -> Iterator[str]:
    """``lines``, the clock moved on by S seconds as each ``@S`` line is read (the session
    takes such a line as a pause, never as a command)."""
    for line in lines:
        seconds = pause_seconds(line)
        if seconds is not None:
            clock.advance(seconds)
        yield line


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
        unicode=args.unicode,
        countdown=not args.fake_clock and streams.stdout.isatty(),
        pauses=args.fake_clock,
    )
    Session(console, translator("domino", args.lang), clock, deals, table).run()
    return 0


def _body(invocation: Invocation) -> int:
    return _play(_parser(invocation).parse_args(invocation.argv), invocation.streams)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino domino [--lang es|en] [--seed N] [--tiles-file F] …`` under the program-entry
    contract; the exit status."""
    return run_program(PROGRAM, _body, argv, stdin=stdin, stdout=stdout, stderr=stderr)
