"""``python -m casino.nimsys [--stage a|b|c] [--seed N]``: Nimsys on the standard streams.

- ``--stage c`` (the default) is Project C: AI players, the advanced game, and ``players.dat``
  in the working directory, loaded at the start and written at ``exit`` or end of input.
- ``--stage b`` is Project B: no AI, no advanced game, nothing stored.
- ``--stage a`` is Project A: two named players, play again ``Y/N``.
- ``--seed N`` is accepted as by every casino program; nothing in Nimsys is left to chance
  (the AI's moves are deterministic, also where it cannot force a win), so it changes nothing.

The program-entry contract (:mod:`casino.cmdline`) gives the exit status: 0, 2 for bad usage,
1 when the output was closed early (``| head``), 130 after Ctrl-C and 143/129 after SIGTERM/
SIGHUP. However the session ends, the players are saved first, as at ``exit``. A
``players.dat`` that cannot be read or parsed (not a regular file, too large, not UTF-8, not
the format) is reported in one line on stderr and moved aside (``players.dat.bad``); the
session starts with no players. A save that fails (a read-only ``players.dat``, a full disk)
is reported the same way, the file is left as it was, and the exit status is 1.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from casino.cmdline import ArgumentParser, Invocation, commands_help, run_program
from casino.interrupts import interruptible_lines, run_uninterrupted, signals_deferred
from casino.nim import storage
from casino.nim.registry import Registry
from casino.nim.shell import COMMANDS, PROJECT_B, PROJECT_C, NimsysShell
from casino.nim.stage_a import run_project_a
from casino.shell import Console, Streams

PROGRAM = "nimsys"
SAVE_FAILED_EXIT = 1


def _epilog() -> str:
    return commands_help(
        "commands (Projects B and C), one per line at the $ prompt:",
        COMMANDS,
        "In a game, each turn is a number of stones (Nim) or 'position count' (the advanced",
        "game). Project A asks its questions in turn instead.",
    )


def _parser(invocation: Invocation) -> ArgumentParser:
    parser = invocation.parser(
        description="Nim and the advanced game (COMP90041 Nimsys).", epilog=_epilog()
    )
    parser.add_argument("--stage", choices=("a", "b", "c"), default="c", help="project A, B or C")
    parser.add_seed_option("accepted; Nimsys uses no chance")
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run Nimsys; the exit status is 0, or 1 if players could not be saved, 2 for bad usage
    (and the contract's statuses for a closed output and signals)."""
    return run_program(PROGRAM, _run, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _run(invocation: Invocation) -> int:
    options = _parser(invocation).parse_args(invocation.argv)
    streams = invocation.streams
    console = Console(streams.stdin, streams.stdout)
    if options.stage == "c":
        return _project_c(invocation)
    if options.stage == "a":
        run_project_a(console)
    else:
        NimsysShell(console, Registry(), PROJECT_B).run()
    console.out.flush()
    return 0


def _project_c(invocation: Invocation) -> int:
    """Project C: players loaded, the session, and the players saved however it ended.

    Signals reach the session only while it waits for input (never in the middle of a
    command), and the save runs to its end before the program stops."""
    streams = invocation.streams
    path = Path(storage.FILE_NAME)
    with signals_deferred():
        loaded = storage.load(path)
        if loaded.warning:
            streams.error(f"{invocation.prog}: {loaded.warning}")
        registry = Registry(loaded.players)
        console = Console(interruptible_lines(streams.stdin), streams.stdout)
        try:
            NimsysShell(console, registry, PROJECT_C).run()
            console.out.flush()
        finally:
            saved = run_uninterrupted(
                lambda: _save(path, loaded, registry, streams, invocation.prog)
            )
    return 0 if saved else SAVE_FAILED_EXIT


def _save(
    path: Path, loaded: storage.Loaded, registry: Registry, streams: Streams, prog: str
) -> bool:
    """Write the players; False (and one line on stderr) if they could not be saved."""
    if not loaded.writable:
        problem: str | None = f"{path}: players not saved, to keep the file that is there"
    else:
        problem = storage.save(path, registry.sorted())
    if problem:
        _report(streams, f"{prog}: {problem}")
        return False
    return True


def _report(streams: Streams, message: str) -> None:
    """A line on stderr, even while an interruption is under way (a gone stderr is ignored)."""
    with contextlib.suppress(OSError, ValueError):
        streams.error(message)
