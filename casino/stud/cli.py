"""``casino stud dealer|player|tournament|check``: the command lines of three-card stud.

Each subcommand is thin: parse with :mod:`casino.cmdline`, run the asyncio or socket code,
print. All of them run under the one program-entry contract (:func:`casino.cmdline.run_program`:
a bad command line → one line and 2, a :class:`CasinoError` → one line and 1, Ctrl-C → 130,
SIGTERM → 143, a closed stdout → quiet), each as a program named ``stud dealer`` etc. (or
``casino stud dealer`` as typed).
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from casino.clock import MonotonicClock
from casino.cmdline import (
    ArgumentParser,
    FileProblem,
    Invocation,
    UsageError,
    run_program,
    run_subcommand,
    seconds,
)
from casino.errors import CasinoError, ParseError
from casino.files import write_atomic
from casino.programs import MainFunction
from casino.stud import protocol as wire
from casino.stud.bots import BASELINES, STRATEGIES

if TYPE_CHECKING:
    from casino.stud.dealer import DealerSettings, Observer, Seat

# asyncio, the network, the dealer, the player, the screens and the tournament are imported
# by the subcommand that runs them: `casino stud --help` needs none of them.

ClassDay = Callable[[argparse.Namespace, TextIO, "Observer | None"], int]
"""A class's Casino Day (the grading side's, :mod:`casino.grade.studcli`): the parsed
command line, stdout and the observer of the table; the exit status."""

USAGE = "usage: stud [-h] {dealer,player,tournament,check} ..."


def guarded(body: Callable[[], int]) -> int:
    """``body()``, a :class:`CasinoError` (a bad bot command, a file that cannot be written, a
    dealer that cannot listen) being one line and status 1 under the contract."""
    try:
        return body()
    except CasinoError as error:
        raise FileProblem(str(error)) from None


def positive(text: str) -> int:
    """A whole number above 0 (an option's type)."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a whole number above 0: {text!r}")
    return value


def _whole(text: str) -> int:
    try:
        return wire.chips(text)
    except ParseError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


SECONDS = seconds(3600)
"""Seconds up to an hour (an option's type)."""


def _port(text: str) -> int:
    value = _whole(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"not a port (0 to 65535): {text!r}")
    return value


def _table_options(parser: ArgumentParser, hands: int | None) -> None:
    parser.add_argument("--stack", type=positive, default=100, help="chips each (100)")
    parser.add_argument("--hands", type=positive, default=hands, help="stop after H hands")
    parser.add_seed_option("shuffle seed (a fresh one by default)")
    parser.add_argument(
        "--reply-timeout", type=SECONDS, default=1.0, metavar="S", help="seconds per reply (1)"
    )
    parser.add_argument("--history", metavar="FILE", help="write every hand as a JSON line")


def _settings(
    args: argparse.Namespace, players: int, port: int, wait: float | None
) -> DealerSettings:
    from casino.net import LOOPBACK
    from casino.stud.dealer import DealerSettings, TableConfig

    table = TableConfig(hands=args.hands, reply_timeout=args.reply_timeout)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    host = getattr(args, "host", LOOPBACK)
    return DealerSettings(players, port, args.stack, seed, table, wait, host)


def _why(error: OSError) -> str:
    """What went wrong, in a few words: ``Address already in use`` (asyncio's own text of a
    failed bind repeats the address)."""
    if error.errno is not None and error.errno > 0:
        return os.strerror(error.errno)
    return error.strerror or str(error)


def _ranking(seats: list[Seat], out: TextIO) -> None:
    out.write("final ranking:\n")
    width = max([6, *(len(seat.avatar) for seat in seats)])
    for place, seat in enumerate(seats, 1):
        note = f"  ({seat.left})" if seat.left and seat.left != "game over" else ""
        out.write(f"{place:>3}  {seat.avatar:<{width}}  {seat.stack:>6}{note}\n")


def with_history(
    args: argparse.Namespace, run: Callable[[Observer | None], int], shown: Observer
) -> int:
    """``run`` with ``shown`` as its observer, and with ``--history`` a history file too."""
    if not args.history:
        return run(shown)
    from casino.stud.screen import HistoryWriter, Observers

    try:
        with open(args.history, "w", encoding="utf-8") as history:
            return run(Observers(shown, HistoryWriter(history)))
    except OSError as error:
        raise CasinoError(f"cannot write {args.history}: {error.strerror or error}") from None


# ---------------------------------------------------------------- dealer


def dealer_main(invocation: Invocation) -> int:
    """``casino stud dealer --port P --players N [--host H] …``."""
    import asyncio

    from casino.net import LOOPBACK
    from casino.stud.dealer import MAX_PLAYERS, run_dealer
    from casino.stud.screen import LiveScreen, LogObserver

    streams = invocation.streams
    parser = invocation.parser(
        description="Deal three-card stud to N players who connect to HOST:PORT.",
    )
    parser.add_argument("--port", type=_port, required=True, help="port to listen on (0: any)")
    parser.add_argument("--players", type=positive, required=True, help="players to wait for")
    parser.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"address to listen on ({LOOPBACK}: this machine only; 0.0.0.0: every network, "
        "for a Casino Day across machines)",
    )
    _table_options(parser, None)
    args = parser.parse_args(invocation.argv)
    if not 2 <= args.players <= MAX_PLAYERS:
        raise UsageError(f"--players must be from 2 to {MAX_PLAYERS} (52 cards, 3 each)")
    out = streams.stdout
    clock = MonotonicClock()
    shown: Observer = LiveScreen(out, clock) if out.isatty() else LogObserver(out)
    bound: list[int] = []

    def listening(port: int) -> None:
        bound.append(port)
        out.write(f"dealer listening on {args.host}:{port}, waiting for {args.players} players\n")
        out.flush()

    def run(observer: Observer | None) -> int:
        settings = _settings(args, args.players, args.port, None)
        try:
            seats = asyncio.run(run_dealer(settings, clock, observer, listening, alone=clock))
        except OSError as error:
            if bound:
                raise
            raise CasinoError(f"cannot listen on {args.host}:{args.port}: {_why(error)}") from None
        _ranking(seats, out)
        return 0

    return guarded(lambda: with_history(args, run, shown))


# ---------------------------------------------------------------- player


def player_main(invocation: Invocation) -> int:
    """``casino stud player HOST PORT …``."""
    streams = invocation.streams
    parser = invocation.parser(
        description="Play three-card stud against a dealer.",
    )
    parser.add_argument("host")
    parser.add_argument("port", type=_port)
    parser.add_argument("--id", default="casino", help="id sent at login (casino)")
    parser.add_argument("--avatar", default="Casino", help="name shown on the screen (Casino)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="ours")
    parser.add_seed_option("seed for a random strategy")
    parser.add_argument("--verbose", action="store_true", help="print every message but bets")
    args = parser.parse_args(invocation.argv)
    if ":" in args.id:
        raise UsageError("--id must not contain ':'")

    def run() -> int:
        from casino.net.client import FrameSocket
        from casino.stud.player import PlayerSession, play

        decider = STRATEGIES[args.strategy](random.Random(args.seed))
        session = PlayerSession(decider, args.id, args.avatar)
        connection = FrameSocket.connect(args.host, args.port)
        play(connection, session, streams.stdout if args.verbose else None)
        streams.stdout.write(f"done: {session.done}\n")
        return 0

    return guarded(run)


# ---------------------------------------------------------------- tournament


def tournament_main(invocation: Invocation, class_day: ClassDay | None = None) -> int:
    """``casino stud tournament --bot CMD … [--hands H] [--seed S]``, or with ``class_day``
    a class's Casino Day: ``casino stud tournament SUBMISSIONS --run CMD [--build CMD]
    [--out DIR]`` (without it, a class is a usage error: the grading side runs one)."""
    import asyncio

    from casino.stud.dealer import MAX_PLAYERS
    from casino.stud.screen import LiveScreen
    from casino.stud.tournament import run_tournament

    streams = invocation.streams
    parser = invocation.parser(
        description="A Casino Day on 127.0.0.1: a dealer and one process per --bot.\n"
        f"CMD is a shipped strategy ({', '.join(sorted(STRATEGIES))}) or a command line\n"
        "with {host} and {port}, e.g. 'java Poker {host} {port}'. With SUBMISSIONS (and\n"
        "any --bot), a class's Casino Day: the standings in tournament.csv under --out.",
        epilog=CLASS_EPILOG,
    )
    parser.add_argument("--bot", action="append", default=[], metavar="CMD")
    parser.add_argument("--wait", type=SECONDS, default=30.0, help="seconds for all to log in")
    _table_options(parser, 2000)
    class_options(parser)
    args = parser.parse_args(invocation.argv)
    out = streams.stdout
    clock = MonotonicClock()
    shown = LiveScreen(out, clock) if out.isatty() else _Silent()
    if a_class(args, bots_make_a_class=False):
        if class_day is None:
            raise UsageError("a class's Casino Day is the grading side's (casino.grade.studcli)")
        day = class_day
        return guarded(lambda: with_history(args, lambda seen: day(args, out, seen), shown))
    if not 2 <= len(args.bot) <= MAX_PLAYERS:
        raise UsageError(f"give from 2 to {MAX_PLAYERS} --bot (52 cards, 3 each)")

    def run(observer: Observer | None) -> int:
        settings = _settings(args, len(args.bot), 0, args.wait)
        seats = asyncio.run(run_tournament(args.bot, settings, clock, observer, alone=clock))
        _ranking(seats, out)
        return 0

    return guarded(lambda: with_history(args, run, shown))


class _Silent:
    def event(self, text: str) -> None:
        """Nothing."""

    def hand_over(self, record: object, seats: list[Seat]) -> None:
        """Nothing."""


# ---------------------------------------------------------------- check


CLASS_EPILOG = """\
SUBMISSIONS is what casino grade takes: a folder of one folder per student, a zip of them,
Moodle's or Canvas's bulk download, or a file listing Git repositories. Each is copied, built
once with --build (through sh) and started with --run, written as typed in its folder, in a
sandbox of its own (bubblewrap; no network: it reaches the dealer through a loopback relay in
its sandbox, docs/stud.md); --trust-submissions runs them without. --bot players run as typed.
"""


def class_options(parser: ArgumentParser) -> None:
    """The options of a class of submissions (``check`` and ``tournament``)."""
    parser.add_argument(
        "submissions", nargs="?", metavar="SUBMISSIONS", help="a class's submissions"
    )
    parser.add_argument("--run", metavar="CMD", help="each submission's player command")
    parser.add_argument("--build", metavar="CMD", help="run once per submission")
    parser.add_argument("--out", metavar="DIR", help="where a class's files go (grades)")
    parser.add_argument(
        "--build-timeout", type=SECONDS, default=120.0, metavar="S", help="for the build (120)"
    )
    parser.add_argument(
        "--trust-submissions", action="store_true", help="run them without their own sandbox"
    )
    parser.add_argument("--network", action="store_true", help="let them use the network")


def a_class(args: argparse.Namespace, bots_make_a_class: bool = True) -> bool:
    """Whether the command line is about a class (and it is a sound one): SUBMISSIONS or
    ``--out`` given, or (``bots_make_a_class``: ``check``) more than one ``--bot``."""
    if args.submissions is None and (args.run or args.build):
        raise UsageError("--run and --build go with SUBMISSIONS")
    if args.submissions is not None and not args.run:
        raise UsageError("SUBMISSIONS needs --run CMD (with {host} and {port})")
    if args.submissions is None and not args.bot:
        raise UsageError("give --bot CMD, or SUBMISSIONS with --run CMD")
    several = bots_make_a_class and len(args.bot) > 1
    return args.submissions is not None or several or args.out is not None


def check_one(args: argparse.Namespace, out: TextIO) -> int:
    """``casino stud check --bot CMD [--report F]``: one player's report, status 0 for full
    marks."""
    import asyncio

    from casino.stud import check as checking
    from casino.stud.report import FORMATS, text_report

    command = check_command(args.bot[0])
    checked = asyncio.run(checking.check_player(command, MonotonicClock(), checking.Limits()))
    out.write(text_report(checked))
    if args.report:
        formatter, default = FORMATS[args.report]
        target = Path(args.report_file or default)
        try:
            write_atomic(target, formatter(checked))
        except OSError as error:
            raise CasinoError(f"cannot write {target}: {error.strerror or error}") from None
        out.write(f"{args.report} report: {target}\n")
    return 0 if checked.passed else 1


def check_command(spec: str) -> list[str]:
    """The command of a ``--bot``: a shipped strategy's player, or the line as typed."""
    from casino.stud.tournament import strategy_command

    if spec in STRATEGIES:
        return strategy_command(spec, "--seed", "1")
    command = shlex.split(spec)
    if not command:
        raise CasinoError("--bot is empty")
    return command


# ---------------------------------------------------------------- casino stud


SUBCOMMANDS: dict[str, Callable[[Invocation], int]] = {
    "dealer": dealer_main,
    "player": player_main,
    "tournament": tournament_main,
}
"""The game's own subcommands; ``check`` and a class's ``tournament`` are the grading
side's (:mod:`casino.grade.studcli` adds them: the command ``casino stud``, through
:func:`casino.programs.load_main`)."""
HELP = f"""{USAGE}

Three-card stud: the dealer, our player, a Casino Day tournament, and the course's automatic
tester. `stud SUBCOMMAND --help` describes each. Baselines: {", ".join(BASELINES)}.
The dealer, the tournament and the player take --seed N (default: $CASINO_SEED if set).
"""


def program(subcommands: Mapping[str, Callable[[Invocation], int]]) -> MainFunction:
    """``casino stud SUBCOMMAND …`` under the program-entry contract, ``subcommands`` being
    what it dispatches to (by name, in the order its usage error lists them)."""

    def dispatch(invocation: Invocation) -> int:
        args = invocation.argv
        if args[:1] in (["-h"], ["--help"]):
            invocation.streams.stdout.write(HELP)
            return 0
        if not args or args[0] not in subcommands:
            raise UsageError(
                f"expected one of {', '.join(subcommands)}, got {' '.join(args[:1])!r}"
            )
        return run_subcommand(invocation, "stud", subcommands[args[0]])

    def main(argv: Sequence[str] | None = None, **streams: TextIO | None) -> int:
        """``casino stud …`` on ``streams`` (``stdin``, ``stdout``, ``stderr``)."""
        return run_program("stud", dispatch, argv, **streams)

    return main
