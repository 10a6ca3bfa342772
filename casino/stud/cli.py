"""``casino stud dealer|player|tournament|check``: the command lines of three-card stud.

Each subcommand is thin: parse with :mod:`casino.cmdline`, run the asyncio or socket code,
print. All of them run under the one program-entry contract (:func:`casino.cmdline.run_program`:
a bad command line → one line and 2, a :class:`CasinoError` → one line and 1, Ctrl-C → 130,
SIGTERM → 143, a closed stdout → quiet), each as a program named ``stud dealer`` etc. (or
``casino stud dealer`` as typed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shlex
from collections.abc import Callable, Sequence
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
from casino.net.client import FrameSocket
from casino.net.stream import LOOPBACK
from casino.programs import python_module
from casino.stud import protocol as wire
from casino.stud.bots import BASELINES, STRATEGIES
from casino.stud.dealer import (
    MAX_PLAYERS,
    DealerSettings,
    Observer,
    Seat,
    TableConfig,
    run_dealer,
)
from casino.stud.player import PlayerSession, play
from casino.stud.screen import HistoryWriter, LiveScreen, LogObserver, Observers
from casino.stud.tournament import bot_template, run_tournament

if TYPE_CHECKING:
    from casino.grade.studbook import ClassSetup
    from casino.grade.studday import Standing

USAGE = "usage: stud [-h] {dealer,player,tournament,check} ..."


def _guarded(body: Callable[[], int]) -> int:
    """``body()``, a :class:`CasinoError` (a bad bot command, a file that cannot be written, a
    dealer that cannot listen) being one line and status 1 under the contract."""
    try:
        return body()
    except CasinoError as error:
        raise FileProblem(str(error)) from None


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


_seconds = seconds(3600)


def _port(text: str) -> int:
    value = _whole(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"not a port (0 to 65535): {text!r}")
    return value


def _table_options(parser: ArgumentParser, hands: int | None) -> None:
    parser.add_argument("--stack", type=_positive, default=100, help="chips each (100)")
    parser.add_argument("--hands", type=_positive, default=hands, help="stop after H hands")
    parser.add_seed_option("shuffle seed (a fresh one by default)")
    parser.add_argument(
        "--reply-timeout", type=_seconds, default=1.0, metavar="S", help="seconds per reply (1)"
    )
    parser.add_argument("--history", metavar="FILE", help="write every hand as a JSON line")


def _settings(
    args: argparse.Namespace, players: int, port: int, wait: float | None
) -> DealerSettings:
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


def dealer_main(invocation: Invocation) -> int:
    """``casino stud dealer --port P --players N [--host H] …``."""
    streams = invocation.streams
    parser = invocation.parser(
        description="Deal three-card stud to N players who connect to HOST:PORT.",
    )
    parser.add_argument("--port", type=_port, required=True, help="port to listen on (0: any)")
    parser.add_argument("--players", type=_positive, required=True, help="players to wait for")
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

    return _guarded(lambda: _with_history(args, run, shown))


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
        decider = STRATEGIES[args.strategy](random.Random(args.seed))
        session = PlayerSession(decider, args.id, args.avatar)
        connection = FrameSocket.connect(args.host, args.port)
        play(connection, session, streams.stdout if args.verbose else None)
        streams.stdout.write(f"done: {session.done}\n")
        return 0

    return _guarded(run)


# ---------------------------------------------------------------- tournament


def tournament_main(invocation: Invocation) -> int:
    """``casino stud tournament --bot CMD … [--hands H] [--seed S]``, or a class's Casino
    Day: ``casino stud tournament SUBMISSIONS --run CMD [--build CMD] [--out DIR]``."""
    streams = invocation.streams
    parser = invocation.parser(
        description="A Casino Day on 127.0.0.1: a dealer and one process per --bot.\n"
        f"CMD is a shipped strategy ({', '.join(sorted(STRATEGIES))}) or a command line\n"
        "with {host} and {port}, e.g. 'java Poker {host} {port}'. With SUBMISSIONS (and\n"
        "any --bot), a class's Casino Day: the standings in tournament.csv under --out.",
        epilog=CLASS_EPILOG,
    )
    parser.add_argument("--bot", action="append", default=[], metavar="CMD")
    parser.add_argument("--wait", type=_seconds, default=30.0, help="seconds for all to log in")
    _table_options(parser, 2000)
    _class_options(parser)
    args = parser.parse_args(invocation.argv)
    out = streams.stdout
    clock = MonotonicClock()
    shown = LiveScreen(out, clock) if out.isatty() else _Silent()
    if _a_class(args, bots_make_a_class=False):
        return _guarded(
            lambda: _with_history(args, lambda seen: _casino_day(args, out, seen), shown)
        )
    if not 2 <= len(args.bot) <= MAX_PLAYERS:
        raise UsageError(f"give from 2 to {MAX_PLAYERS} --bot (52 cards, 3 each)")

    def run(observer: Observer | None) -> int:
        settings = _settings(args, len(args.bot), 0, args.wait)
        seats = asyncio.run(run_tournament(args.bot, settings, clock, observer, alone=clock))
        _ranking(seats, out)
        return 0

    return _guarded(lambda: _with_history(args, run, shown))


def _casino_day(args: argparse.Namespace, out: TextIO, observer: Observer | None) -> int:
    """A class's Casino Day: every player that comes at the table (or tables), the standings
    under ``--out``."""
    from casino.grade.studbook import prepare, scratch_folder
    from casino.grade.studday import DayConfig, casino_day, standings_csv, standings_json

    setup, sandbox = _class_setup(args)
    target = _out_folder(args.out)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    table = TableConfig(hands=args.hands, reply_timeout=args.reply_timeout)
    config = DayConfig(table, args.stack, seed, args.wait)
    source = Path(args.submissions) if args.submissions is not None else None
    with scratch_folder() as scratch:
        entries = prepare(source, setup, _bots(args.bot, bot_template), scratch)
        rows = asyncio.run(casino_day(entries, config, MonotonicClock(), observer))
    try:
        write_atomic(target / "tournament.csv", standings_csv(rows))
        write_atomic(target / "tournament.json", standings_json(rows, config))
    except OSError as error:
        why = error.strerror or error
        raise CasinoError(f"cannot write the results to {target}: {why}") from None
    out.write(_standings_text(rows))
    out.write(f"seed {seed}; sandbox: {sandbox}\n")
    out.write(f"gradebook: {target / 'tournament.csv'} (and tournament.json)\n")
    return 0


def _standings_text(rows: Sequence[Standing]) -> str:
    """The standings as printed: place, student, (table,) chips, hands, why it left."""
    lines = ["standings:"]
    width = max([7, *(len(row.student) for row in rows)])
    tables = len({row.table for row in rows if row.table is not None}) > 1
    for row in rows:
        place = "-" if row.rank is None else str(row.rank)
        chips = "" if row.chips is None else str(row.chips)
        note = f"  ({row.removed})" if row.removed else ""
        where = f"  table {row.table or '-'}" if tables else ""
        lines.append(
            f"{place:>3}  {row.student:<{width}}{where}  {chips:>6}  {row.hands:>5} hands{note}"
        )
    return "\n".join(lines) + "\n"


class _Silent:
    def event(self, text: str) -> None:
        """Nothing."""

    def hand_over(self, record: object, seats: list[Seat]) -> None:
        """Nothing."""


# ---------------------------------------------------------------- check


def check_main(invocation: Invocation) -> int:
    """``casino stud check --bot CMD [--report …]``, or a class: ``casino stud check
    SUBMISSIONS --run CMD [--build CMD] [--out DIR]`` (and/or several ``--bot``)."""
    from casino.stud import check as checking  # the tester and the harness are for check alone:
    from casino.stud.report import FORMATS  # a player starts without them

    streams = invocation.streams
    parser = invocation.parser(
        description="The automatic tester: score player programs on the seed's rubric.\n"
        "CMD is a command line with {host} and {port}, e.g. 'java Poker {host} {port}'\n"
        f"(or a shipped strategy: {', '.join(sorted(STRATEGIES))}). The program is started\n"
        f"once per probe group ({len(checking.GROUPS)} sessions), so a hang-up costs that "
        "group alone;\nthe rubric and its points are in docs/stud.md. One --bot: a report, "
        "status 0 for full marks.\nA class (SUBMISSIONS, or several --bot): each player "
        "tested, a gradebook,\nfeedback and a summary under --out, status 0 once done.",
        epilog=CHECK_EPILOG,
    )
    parser.add_argument("--bot", action="append", default=[], metavar="CMD", help="a player")
    parser.add_argument("--report", choices=sorted(FORMATS), help="also write a report file")
    parser.add_argument("--report-file", metavar="F", help="where (default per format)")
    _class_options(parser)
    parser.add_argument("--jobs", type=_positive, default=2, help="players tested at once (2)")
    parser.add_argument(
        "--due", action="append", default=[], metavar="PART=WHEN", help="1=WHEN, 2=WHEN"
    )
    args = parser.parse_args(invocation.argv)
    if args.due and args.submissions is None:
        raise UsageError("--due goes with SUBMISSIONS")
    if args.report_file and not args.report:
        raise UsageError("--report-file goes with --report json|junit|gradescope")
    if _a_class(args):
        if args.report:
            raise UsageError("--report is for one --bot; a class gets a gradebook under --out")
        return _guarded(lambda: _check_class(args, streams.stdout))
    return _guarded(lambda: _check_one(args, streams.stdout))


CLASS_EPILOG = """\
SUBMISSIONS is what casino grade takes: a folder of one folder per student, a zip of them,
Moodle's or Canvas's bulk download, or a file listing Git repositories. Each is copied, built
once with --build (through sh) and started with --run, written as typed in its folder, in a
sandbox of its own (bubblewrap; no network: it reaches the dealer through a loopback relay in
its sandbox, docs/stud.md); --trust-submissions runs them without. --bot players run as typed.
"""
CHECK_EPILOG = (
    CLASS_EPILOG
    + """\
--due 1=WHEN --due 2=WHEN: the seed's Part 1 and Part 2 deadlines (e.g. 2024-03-27T23:59-07:00);
a part turned in after its due earns none of its points (a Git repository: as it was at the
last due, Part 1 by its first commit; otherwise the submission's time; docs/stud.md).
"""
)


def _class_options(parser: ArgumentParser) -> None:
    """The options of a class of submissions (``check`` and ``tournament``)."""
    parser.add_argument(
        "submissions", nargs="?", metavar="SUBMISSIONS", help="a class's submissions"
    )
    parser.add_argument("--run", metavar="CMD", help="each submission's player command")
    parser.add_argument("--build", metavar="CMD", help="run once per submission")
    parser.add_argument("--out", metavar="DIR", help="where a class's files go (grades)")
    parser.add_argument(
        "--build-timeout", type=_seconds, default=120.0, metavar="S", help="for the build (120)"
    )
    parser.add_argument(
        "--trust-submissions", action="store_true", help="run them without their own sandbox"
    )
    parser.add_argument("--network", action="store_true", help="let them use the network")


def _a_class(args: argparse.Namespace, bots_make_a_class: bool = True) -> bool:
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


def _check_one(args: argparse.Namespace, out: TextIO) -> int:
    from casino.stud import check as checking
    from casino.stud.report import FORMATS, text_report

    command = _check_command(args.bot[0])
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


def _class_setup(args: argparse.Namespace) -> tuple[ClassSetup, str]:
    """How the submissions are built and run, and the sandbox in one line."""
    from casino.grade.cli import describe
    from casino.grade.studbook import ClassSetup
    from casino.harness.runners.netns import network_isolation_works
    from casino.harness.runners.sandbox import Sandbox, isolation_works

    try:
        run = tuple(shlex.split(args.run or ""))
    except ValueError as error:
        raise UsageError(f"--run: {error}") from None
    if args.submissions is not None and not run:
        raise UsageError("--run needs a command")
    isolate = not args.trust_submissions
    if isolate and args.submissions is not None and not isolation_works():
        raise CasinoError(NO_SANDBOX)
    sandbox = Sandbox(
        cpu_seconds=CLASS_CPU_SECONDS,
        memory=CLASS_MEMORY,
        processes=CLASS_PROCESSES,
        file_size=CLASS_FILE_SIZE,
        isolate_network=not args.network and (isolate or network_isolation_works()),
        isolate=isolate,
    )
    shown = _described(describe(sandbox)) if args.submissions is not None else ""
    if args.bot:
        shown += f"{'; ' if shown else ''}--bot players run as typed, without one"
    return ClassSetup(run, args.build, sandbox, args.build_timeout), shown


def _described(sandbox: str) -> str:
    """``casino grade``'s line about the sandbox, as it is for a player: its run folder is
    not a size-capped copy (the dealer's socket is in it), and a cut network leaves it the
    relay to the dealer (``docs/stud.md``)."""
    parts = [part for part in sandbox.split("; ") if not part.startswith("run folder up to")]
    relay = "network cut off but for the dealer (loopback relay)"
    return "; ".join(relay if part.startswith("network cut off") else part for part in parts)


CLASS_CPU_SECONDS = 600
"""CPU seconds a player may use in one run (a whole tournament is one run)."""
CLASS_MEMORY = 1 << 30
CLASS_PROCESSES = 256
CLASS_FILE_SIZE = 64 << 20
NO_SANDBOX = (
    "this machine cannot run the players in a sandbox (bubblewrap, `bwrap`, with user "
    "namespaces); give --trust-submissions to run them without one"
)


def _bots(
    specs: list[str], command: Callable[[str, int], list[str]]
) -> list[tuple[str, list[str]]]:
    """Each ``--bot`` with a name of its own (the spec, numbered when given twice)."""
    named: list[tuple[str, list[str]]] = []
    for index, spec in enumerate(specs):
        name, number = spec, 1
        while name in {taken for taken, _ in named}:
            number += 1
            name = f"{spec} ({number})"
        named.append((name, command(spec, index)))
    return named


def _out_folder(given: str | None, *inside: str) -> Path:
    """``--out`` (``grades`` by default) and the folders in it, made before any work."""
    target = Path(given or "grades")
    try:
        for name in ("", *inside):
            (target / name).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CasinoError(f"cannot write to {target}: {error.strerror or error}") from None
    return target


def _check_class(args: argparse.Namespace, out: TextIO) -> int:
    from casino.grade.studbook import (
        MAX_POINTS,
        check_class,
        prepare,
        scratch_folder,
        write_books,
    )
    from casino.grade.studdues import parse_dues
    from casino.harness.report import points_text
    from casino.stud import check as checking

    setup, sandbox = _class_setup(args)
    target = _out_folder(args.out, "feedback")
    source = Path(args.submissions) if args.submissions is not None else None
    with scratch_folder() as scratch:
        bots = _bots(args.bot, lambda spec, _: _check_command(spec))
        entries = prepare(source, setup, bots, scratch, parse_dues(args.due))
        clock, limits = MonotonicClock(), checking.Limits()
        graded = asyncio.run(check_class(entries, clock, limits, args.jobs))
    try:
        write_books(target, graded, sandbox)
    except OSError as error:
        why = error.strerror or error
        raise CasinoError(f"cannot write the results to {target}: {why}") from None
    for one in graded:
        note = f"  ({one.note})" if one.note else ""
        out.write(f"{one.entry.name}: {points_text(one.score)}/{points_text(MAX_POINTS)}{note}\n")
    out.write(
        f"tested {len(graded)} player{'' if len(graded) == 1 else 's'}; sandbox: {sandbox}\n"
        f"gradebook: {target / 'gradebook.csv'} (and gradebook.json)\n"
        f"feedback: {target / 'feedback'}/STUDENT.txt\nsummary: {target / 'summary.html'}\n"
    )
    return 0


def _check_command(spec: str) -> list[str]:
    if spec in STRATEGIES:
        return [
            *python_module("casino.stud"),
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


SUBCOMMANDS: dict[str, Callable[[Invocation], int]] = {
    "dealer": dealer_main,
    "player": player_main,
    "tournament": tournament_main,
    "check": check_main,
}
HELP = f"""{USAGE}

Three-card stud: the dealer, our player, a Casino Day tournament, and the course's automatic
tester. `stud SUBCOMMAND --help` describes each. Baselines: {", ".join(BASELINES)}.
The dealer, the tournament and the player take --seed N (default: $CASINO_SEED if set).
"""


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino stud SUBCOMMAND …`` under the program-entry contract."""

    def dispatch(invocation: Invocation) -> int:
        args = invocation.argv
        if args[:1] in (["-h"], ["--help"]):
            invocation.streams.stdout.write(HELP)
            return 0
        if not args or args[0] not in SUBCOMMANDS:
            raise UsageError(
                f"expected one of {', '.join(SUBCOMMANDS)}, got {' '.join(args[:1])!r}"
            )
        return run_subcommand(invocation, "stud", SUBCOMMANDS[args[0]])

    return run_program("stud", dispatch, argv, stdin=stdin, stdout=stdout, stderr=stderr)
