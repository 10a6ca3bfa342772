"""``casino stud dealer|player|tournament|check``: the command lines of three-card stud.

Each subcommand's ``main`` is thin: parse with :mod:`casino.cmdline`, run the asyncio or
socket code, print. :func:`_guarded` is the program-entry contract (Ctrl-C → 130, a closed
stdout → quiet, a :class:`CasinoError` → one line and 1) until ``casino.cmdline`` has one.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from casino.clock import MonotonicClock
from casino.cmdline import ArgumentParser, parse_or_report, silence_closed_output
from casino.errors import CasinoError, ParseError
from casino.files import write_atomic
from casino.net.client import FrameSocket
from casino.shell import Streams
from casino.stud import check as checking
from casino.stud import protocol as wire
from casino.stud.bots import BASELINES, STRATEGIES
from casino.stud.dealer import DealerSettings, Observer, Seat, TableConfig, run_dealer
from casino.stud.player import PlayerSession, play
from casino.stud.report import FORMATS, text_report
from casino.stud.screen import HistoryWriter, LiveScreen, LogObserver, Observers
from casino.stud.tournament import run_tournament

INTERRUPTED = 130
USAGE = "usage: casino stud {dealer,player,tournament,check} ..."


def _guarded(body: Callable[[Streams], int], streams: Streams) -> int:
    """Run ``body`` under the program-entry contract."""
    try:
        return body(streams)
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        silence_closed_output(streams.stdout)
        return 0
    except CasinoError as error:
        streams.error(f"casino stud: {error}")
        return 1


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a whole number above 0: {text!r}")
    return value


def _whole(text: str) -> int:
    try:
        return wire.chips(text)
    except ParseError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"not a number of seconds (0 to 3600): {text!r}")
    return value


def _port(text: str) -> int:
    value = _whole(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"not a port (0 to 65535): {text!r}")
    return value


def _table_options(parser: ArgumentParser, hands: int | None) -> None:
    parser.add_argument("--stack", type=_positive, default=100, help="chips each (100)")
    parser.add_argument("--hands", type=_positive, default=hands, help="stop after H hands")
    parser.add_argument("--seed", type=_whole, help="shuffle seed (a fresh one by default)")
    parser.add_argument(
        "--reply-timeout", type=_seconds, default=1.0, metavar="S", help="seconds per reply (1)"
    )
    parser.add_argument("--history", metavar="FILE", help="write every hand as a JSON line")


def _settings(
    args: argparse.Namespace, players: int, port: int, wait: float | None
) -> DealerSettings:
    table = TableConfig(hands=args.hands, reply_timeout=args.reply_timeout)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    return DealerSettings(players, port, args.stack, seed, table, wait)


def _ranking(seats: list[Seat], out: TextIO) -> None:
    out.write("final ranking:\n")
    width = max([6, *(len(seat.avatar) for seat in seats)])
    for place, seat in enumerate(seats, 1):
        note = f"  ({seat.left})" if seat.left and seat.left != "game over" else ""
        out.write(f"{place:>3}  {seat.avatar:<{width}}  {seat.stack:>6}{note}\n")


def _with_history(
    args: argparse.Namespace, run: Callable[[Observer | None], int], shown: Observer
) -> int:
    if not args.history:
        return run(shown)
    try:
        with open(args.history, "w", encoding="utf-8") as history:
            return run(Observers(shown, HistoryWriter(history)))
    except OSError as error:
        raise CasinoError(f"cannot write {args.history}: {error.strerror or error}") from None


# ---------------------------------------------------------------- dealer


def dealer_main(argv: Sequence[str], streams: Streams) -> int:
    """``casino stud dealer --port P --players N …``."""
    parser = ArgumentParser(
        out=streams.stdout,
        prog="casino stud dealer",
        description="Deal three-card stud to N players on 127.0.0.1.",
    )
    parser.add_argument("--port", type=_port, required=True, help="port to listen on (0: any)")
    parser.add_argument("--players", type=_positive, required=True, help="players to wait for")
    _table_options(parser, None)
    args = parse_or_report(parser, argv, streams)
    if isinstance(args, int):
        return args
    if args.players < 2:
        streams.error("casino stud dealer: --players must be at least 2")
        return 2
    out = streams.stdout
    clock = MonotonicClock()
    shown: Observer = LiveScreen(out, clock) if out.isatty() else LogObserver(out)

    def listening(port: int) -> None:
        out.write(f"dealer listening on 127.0.0.1:{port}, waiting for {args.players} players\n")
        out.flush()

    def run(observer: Observer | None) -> int:
        settings = _settings(args, args.players, args.port, None)
        seats = asyncio.run(run_dealer(settings, clock, observer, listening))
        _ranking(seats, out)
        return 0

    return _guarded(lambda _: _with_history(args, run, shown), streams)


# ---------------------------------------------------------------- player


def player_main(argv: Sequence[str], streams: Streams) -> int:
    """``casino stud player HOST PORT …``."""
    parser = ArgumentParser(
        out=streams.stdout,
        prog="casino stud player",
        description="Play three-card stud against a dealer.",
    )
    parser.add_argument("host")
    parser.add_argument("port", type=_port)
    parser.add_argument("--id", default="casino", help="id sent at login (casino)")
    parser.add_argument("--avatar", default="Casino", help="name shown on the screen (Casino)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="ours")
    parser.add_argument("--seed", type=_whole, help="seed for a random strategy")
    parser.add_argument("--verbose", action="store_true", help="print every message but bets")
    args = parse_or_report(parser, argv, streams)
    if isinstance(args, int):
        return args
    if ":" in args.id:
        streams.error("casino stud player: --id must not contain ':'")
        return 2

    def run(streams: Streams) -> int:
        decider = STRATEGIES[args.strategy](random.Random(args.seed))
        session = PlayerSession(decider, args.id, args.avatar)
        connection = FrameSocket.connect(args.host, args.port)
        play(connection, session, streams.stdout if args.verbose else None)
        streams.stdout.write(f"done: {session.done}\n")
        return 0

    return _guarded(run, streams)


# ---------------------------------------------------------------- tournament


def tournament_main(argv: Sequence[str], streams: Streams) -> int:
    """``casino stud tournament --bot CMD … [--hands H] [--seed S]``."""
    parser = ArgumentParser(
        out=streams.stdout,
        prog="casino stud tournament",
        description="A Casino Day on 127.0.0.1: a dealer and one process per --bot.\n"
        f"CMD is a shipped strategy ({', '.join(sorted(STRATEGIES))}) or a command line\n"
        "with {host} and {port}, e.g. 'java Poker {host} {port}'.",
    )
    parser.add_argument("--bot", action="append", required=True, metavar="CMD")
    parser.add_argument("--wait", type=_seconds, default=30.0, help="seconds for all to log in")
    _table_options(parser, 2000)
    args = parse_or_report(parser, argv, streams)
    if isinstance(args, int):
        return args
    if len(args.bot) < 2:
        streams.error("casino stud tournament: give at least two --bot")
        return 2
    out = streams.stdout
    clock = MonotonicClock()

    def run(observer: Observer | None) -> int:
        settings = _settings(args, len(args.bot), 0, args.wait)
        seats = asyncio.run(run_tournament(args.bot, settings, clock, observer))
        _ranking(seats, out)
        return 0

    shown = LiveScreen(out, clock) if out.isatty() else _Silent()
    return _guarded(lambda _: _with_history(args, run, shown), streams)


class _Silent:
    def event(self, text: str) -> None:
        """Nothing."""

    def hand_over(self, record: object, seats: list[Seat]) -> None:
        """Nothing."""


# ---------------------------------------------------------------- check


def check_main(argv: Sequence[str], streams: Streams) -> int:
    """``casino stud check --bot CMD [--report json|junit|gradescope]``."""
    parser = ArgumentParser(
        out=streams.stdout,
        prog="casino stud check",
        description="The automatic tester: score a player program on the seed's rubric.\n"
        "CMD is a command line with {host} and {port}, e.g. 'java Poker {host} {port}'\n"
        f"(or a shipped strategy: {', '.join(sorted(STRATEGIES))}).",
    )
    parser.add_argument("--bot", required=True, metavar="CMD")
    parser.add_argument("--report", choices=sorted(FORMATS), help="also write a report file")
    parser.add_argument("--report-file", metavar="F", help="where (default per format)")
    args = parse_or_report(parser, argv, streams)
    if isinstance(args, int):
        return args
    if args.report_file and not args.report:
        streams.error("casino stud check: --report-file goes with --report json|junit|gradescope")
        return 2

    def run(streams: Streams) -> int:
        command = _check_command(args.bot)
        results = asyncio.run(checking.check_player(command, MonotonicClock(), checking.Limits()))
        streams.stdout.write(text_report(results))
        if args.report:
            formatter, default = FORMATS[args.report]
            target = Path(args.report_file or default)
            try:
                write_atomic(target, formatter(results))
            except OSError as error:
                raise CasinoError(f"cannot write {target}: {error.strerror or error}") from None
            streams.stdout.write(f"{args.report} report: {target}\n")
        return 0 if all(result.passed for result in results) else 1

    return _guarded(run, streams)


def _check_command(spec: str) -> list[str]:
    if spec in STRATEGIES:
        return [
            sys.executable,
            "-m",
            "casino.stud",
            "player",
            "{host}",
            "{port}",
            "--strategy",
            spec,
            "--seed",
            "1",
        ]
    command = shlex.split(spec)
    if not command:
        raise CasinoError("--bot is empty")
    return command


# ---------------------------------------------------------------- casino stud


SUBCOMMANDS: dict[str, Callable[[Sequence[str], Streams], int]] = {
    "dealer": dealer_main,
    "player": player_main,
    "tournament": tournament_main,
    "check": check_main,
}


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino stud SUBCOMMAND …``."""
    args = list(sys.argv[1:] if argv is None else argv)
    streams = Streams.of(stdin, stdout, stderr)
    if args[:1] in (["-h"], ["--help"]):
        streams.stdout.write(
            f"{USAGE}\n\nthree-card stud: the dealer, our player, "
            f"a tournament, and the automatic tester.\nbaselines: "
            f"{', '.join(BASELINES)}\n"
        )
        return 0
    if not args or args[0] not in SUBCOMMANDS:
        streams.error(USAGE)
        return 2
    return SUBCOMMANDS[args[0]](args[1:], streams)
