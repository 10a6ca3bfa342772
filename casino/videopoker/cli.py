"""``python -m casino.videopoker`` / ``casino videopoker``: the seed's command line.

::

    -i credit                      interactive mode
    -d credit cmd-file card-file   debug mode (cards in the card-file's order, never shuffled)
    -s credit bet nbdeals          simulation with the seed's strategy: the statistics table
    -g                             the window (tkinter)
    analyze ...                    the exact analyzer's own command line

Options: ``--seed N`` (every shuffle), ``--advisor seed|exact`` (what ``a`` advises),
``--jobs N`` (simulation processes), ``--paytable NAME``; without ``--seed``, the environment
variable ``CASINO_SEED`` seeds the shuffles. Exit statuses and messages are the program-entry
contract's (:mod:`casino.cmdline`): bad arguments or files give one line on stderr and exit
status 2 (arguments) or 1 (files); Ctrl-C 130; never a traceback.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import TextIO

from casino.cards import Card
from casino.cmdline import (
    ArgumentParser,
    FileProblem,
    Invocation,
    UsageError,
    commands_help,
    invoked_as,
    run_program,
    whole_number,
)
from casino.errors import CasinoError, DeckExhausted, ParseError
from casino.files import read_text
from casino.numbers import describe_range, parse_bounded, quoted
from casino.shell import Streams, tokens
from casino.videopoker.advisors import ADVISORS
from casino.videopoker.commands import Advisor, group_commands
from casino.videopoker.game import Machine, ShuffledCards, StackedCards
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, MAX_BET, PAYTABLES, PayTable
from casino.videopoker.progress import StatusLine
from casino.videopoker.shells import run_debug, run_interactive
from casino.videopoker.stats import render_table

PROG = "videopoker"
COMMANDS = (
    ("b [i]", "bet i credits, 1-5 (just b: the previous bet, or 5); before the deal"),
    ("$", "show the credit (at any time)"),
    ("d", "deal five cards (after the bet)"),
    ("h [i ...]", "hold the cards at positions i (1-5), replace the others; the hand is paid"),
    ("a", "advice: which cards to hold (after the deal)"),
    ("s", "statistics of the hands played so far"),
)
"""The in-game commands with their syntax (``--help``)."""
MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest cmd-file or card-file read."""


def _parser(out: TextIO, prog: str = PROG) -> ArgumentParser:
    parser = ArgumentParser(
        out=out,
        prog=prog,
        description="Double Bonus 10/7 video poker: play, debug from files, simulate, or a window.",
        epilog=commands_help(
            "commands (the seed's), at the prompt in -i, or as the words of a cmd-file in -d:",
            COMMANDS,
            f"'{prog} analyze --help' describes the exact analyzer.",
        ),
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("-i", nargs=1, metavar="credit", help="interactive mode: commands from stdin")
    mode.add_argument(
        "-d",
        nargs=3,
        metavar=("credit", "cmd-file", "card-file"),
        help="debug mode: commands from cmd-file, cards from card-file in order",
    )
    mode.add_argument(
        "-s",
        nargs=3,
        metavar=("credit", "bet", "nbdeals"),
        help="simulation with the seed's strategy: prints the statistics",
    )
    mode.add_argument("-g", action="store_true", help="play in a window")
    parser.add_seed_option()
    parser.add_argument(
        "--prompt",
        action=argparse.BooleanOptionalAction,
        help="-i: greet and prompt (default: only when stdin is a terminal)",
    )
    parser.add_argument(
        "--advisor",
        choices=sorted(ADVISORS),
        default="seed",
        help="what 'a' advises: the seed's list (default) or the exact analyzer",
    )
    parser.add_argument(
        "--jobs",
        type=whole_number(),
        default=1,
        metavar="N",
        help="simulate in N processes (default 1)",
    )
    parser.add_argument(
        "--paytable",
        choices=sorted(PAYTABLES),
        default=DOUBLE_BONUS_10_7.name,
        metavar="NAME",
        help=f"pay table: {', '.join(sorted(PAYTABLES))} (default {DOUBLE_BONUS_10_7.name})",
    )
    return parser


def _whole(text: str, what: str, low: int, high: int | None = None) -> int:
    try:
        return parse_bounded(text, low, high)
    except ParseError:
        bounds = describe_range(low, high)
        raise UsageError(f"{what} must be a whole number {bounds}, not {quoted(text)}") from None


def _read(path: str, what: str) -> str:
    try:
        return read_text(path, MAX_FILE_BYTES)
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not a UTF-8 text file"
        raise FileProblem(f"cannot read {what} {path!r}: {reason}") from None


def read_card_file(path: str) -> list[Card]:
    """Every card of a card-file, in order; :class:`FileProblem` names a bad token."""
    cards = []
    for number, token in enumerate(tokens(_read(path, "card-file").splitlines()), start=1):
        try:
            cards.append(Card.parse(token))
        except CasinoError:
            raise FileProblem(
                f"card-file {path!r}: card {number} is not a card: {token!r}"
            ) from None
    return cards


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run video poker in the mode the arguments choose; return the exit status."""
    return run_program(PROG, _main, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _main(invocation: Invocation) -> int:
    streams, args = invocation.streams, invocation.argv
    if args[:1] == ["analyze"]:
        with invoked_as(f"{invocation.prog} analyze"):
            return _analyze(args[1:], streams)
    return _run(_parser(streams.stdout, invocation.prog).parse_args(args), streams)


def _run(options: argparse.Namespace, streams: Streams) -> int:
    if options.s and options.advisor != "seed":
        raise UsageError("the simulation plays the seed's strategy; --advisor is for -i and -d")
    if options.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {options.jobs}")
    rng = random.Random(options.seed)
    table = PAYTABLES[options.paytable]
    advisor = ADVISORS[options.advisor]
    if options.i:
        machine = Machine(_whole(options.i[0], "credit", 1), ShuffledCards(rng), table)
        prompt = streams.stdin.isatty() if options.prompt is None else options.prompt
        run_interactive(machine, streams.stdin, streams.stdout, advisor, prompt=prompt)
        return 0
    if options.d:
        return _debug(options.d, table, advisor, streams)
    if options.s:
        return _simulate(options, table, streams)
    try:
        from casino.videopoker.gui import run_gui
    except ImportError as error:  # a Python built without tkinter
        raise FileProblem(f"the window needs tkinter, which this Python lacks ({error})") from None
    return run_gui(seed=options.seed, table=table, advisor=advisor, stderr=streams.stderr)


def _debug(values: list[str], table: PayTable, advisor: Advisor, streams: Streams) -> int:
    credit = _whole(values[0], "credit", 1)
    commands = list(group_commands(tokens(_read(values[1], "cmd-file").splitlines())))
    cards = read_card_file(values[2])
    machine = Machine(credit, StackedCards(cards), table)
    try:
        run_debug(machine, commands, streams.stdout, advisor)
    except DeckExhausted as error:
        streams.stdout.flush()
        raise FileProblem(f"card-file {values[2]!r} ran out of cards ({error})") from None
    except CasinoError as error:
        streams.stdout.flush()
        raise FileProblem(f"card-file {values[2]!r}: {error}") from None
    return 0


def _simulate(options: argparse.Namespace, table: PayTable, streams: Streams) -> int:
    credit_text, bet_text, deals_text = options.s
    credit = _whole(credit_text, "credit", 1)
    bet = _whole(bet_text, "bet", 1, MAX_BET)
    deals = _whole(deals_text, "nbdeals", 0)
    seed = options.seed if options.seed is not None else random.SystemRandom().getrandbits(63)
    # Loaded here: its worker pool and tables are half of what the program would load to start.
    from casino.videopoker.simulate import simulate

    with StatusLine(streams.stderr) as status:  # shown on a terminal only, erased at the end
        stats = simulate(
            credit,
            bet,
            deals,
            seed=seed,
            table=table,
            jobs=options.jobs,
            progress=status.meter("simulating", "deals") if status.active else None,
            building=status.meter(BUILDING) if status.active else None,
        )
    for line in render_table(stats, stats.credit):
        streams.stdout.write(line + "\n")
    streams.stdout.flush()
    if stats.deals < deals:
        streams.error(f"{PROG}: the credit ran out after {stats.deals} of {deals} deals")
    return 0


BUILDING = "building the strategy table (once)"
"""The progress line's label while the simulation's strategy table is built."""


def _analyze(argv: list[str], streams: Streams) -> int:
    from casino.videopoker.analyze import main as analyze_main  # its tables load on first use

    return analyze_main(argv, stdin=streams.stdin, stdout=streams.stdout, stderr=streams.stderr)
