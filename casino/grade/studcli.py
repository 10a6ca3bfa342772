"""``casino stud check`` and a class's ``casino stud tournament``: three-card stud's grading.

The game's command line is :mod:`casino.stud.cli` (the dealer, the player, a tournament of
``--bot`` players, one player's check); what takes a class in, builds and sandboxes it and
writes a gradebook is here, on the grading side, so that no game package imports
:mod:`casino.grade`. :data:`main` is the whole ``casino stud`` program: the game's
subcommands with ``check`` and the class's Casino Day added; :func:`casino.programs.load_main`
gives it for ``casino stud`` and ``python -m casino.stud`` alike. Options, help, output and
exit codes are those the command always had.
"""

from __future__ import annotations

import argparse
import functools
import random
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from casino.clock import MonotonicClock
from casino.cmdline import Invocation, UsageError
from casino.errors import CasinoError
from casino.files import write_atomic
from casino.programs import MainFunction
from casino.stud import cli
from casino.stud.bots import STRATEGIES

if TYPE_CHECKING:
    from casino.grade.studbook import ClassSetup
    from casino.grade.studday import Standing
    from casino.stud.dealer import Observer


def check_main(invocation: Invocation) -> int:
    """``casino stud check --bot CMD [--report …]``, or a class: ``casino stud check
    SUBMISSIONS --run CMD [--build CMD] [--out DIR]`` (and/or several ``--bot``)."""
    from casino.stud.report import FORMATS  # the tester's reports and the harness are for
    from casino.stud.rubric import GROUPS  # check alone: a player starts without them

    streams = invocation.streams
    parser = invocation.parser(
        description="The automatic tester: score player programs on the seed's rubric.\n"
        "CMD is a command line with {host} and {port}, e.g. 'java Poker {host} {port}'\n"
        f"(or a shipped strategy: {', '.join(sorted(STRATEGIES))}). The program is started\n"
        f"once per probe group ({len(GROUPS)} sessions), so a hang-up costs that "
        "group alone;\nthe rubric and its points are in docs/stud.md. One --bot: a report, "
        "status 0 for full marks.\nA class (SUBMISSIONS, or several --bot): each player "
        "tested, a gradebook,\nfeedback and a summary under --out, status 0 once done.",
        epilog=CHECK_EPILOG,
    )
    parser.add_argument("--bot", action="append", default=[], metavar="CMD", help="a player")
    parser.add_argument("--report", choices=sorted(FORMATS), help="also write a report file")
    parser.add_argument("--report-file", metavar="F", help="where (default per format)")
    cli.class_options(parser)
    parser.add_argument("--jobs", type=cli.positive, default=2, help="players tested at once (2)")
    parser.add_argument(
        "--due", action="append", default=[], metavar="PART=WHEN", help="1=WHEN, 2=WHEN"
    )
    args = parser.parse_args(invocation.argv)
    if args.due and args.submissions is None:
        raise UsageError("--due goes with SUBMISSIONS")
    if args.report_file and not args.report:
        raise UsageError("--report-file goes with --report json|junit|gradescope")
    if cli.a_class(args):
        if args.report:
            raise UsageError("--report is for one --bot; a class gets a gradebook under --out")
        return cli.guarded(lambda: _check_class(args, streams.stdout))
    return cli.guarded(lambda: cli.check_one(args, streams.stdout))


CHECK_EPILOG = (
    cli.CLASS_EPILOG
    + """\
--due 1=WHEN --due 2=WHEN: the seed's Part 1 and Part 2 deadlines (e.g. 2024-03-27T23:59-07:00);
a part turned in after its due earns none of its points (a Git repository: as it was at the
last due, Part 1 by its first commit; otherwise the submission's time; docs/stud.md).
"""
)


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
    import asyncio

    from casino.grade.studbook import MAX_POINTS, check_class, prepare, scratch_folder, write_books
    from casino.grade.studdues import parse_dues
    from casino.harness.report import points_text
    from casino.stud import check as checking

    setup, sandbox = _class_setup(args)
    target = _out_folder(args.out, "feedback")
    source = Path(args.submissions) if args.submissions is not None else None
    with scratch_folder() as scratch:
        bots = _bots(args.bot, lambda spec, _: cli.check_command(spec))
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


def _casino_day(args: argparse.Namespace, out: TextIO, observer: Observer | None) -> int:
    """A class's Casino Day: every player that comes at the table (or tables), the standings
    under ``--out``."""
    import asyncio

    from casino.grade.studbook import prepare, scratch_folder
    from casino.grade.studday import DayConfig, casino_day, standings_csv, standings_json
    from casino.stud.dealer import TableConfig
    from casino.stud.tournament import bot_template

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


# ---------------------------------------------------------------- casino stud

main: MainFunction = cli.program(
    {
        **cli.SUBCOMMANDS,
        "tournament": functools.partial(cli.tournament_main, class_day=_casino_day),
        "check": check_main,
    }
)
"""``casino stud SUBCOMMAND …``: the game's subcommands and the grading side's."""

if __name__ == "__main__":
    raise SystemExit(main())
