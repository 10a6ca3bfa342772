"""``python -m casino.nimsys [--stage a|b|c] [--seed N]``: Nimsys on the standard streams.

- ``--stage c`` (the default) is Project C: AI players, the advanced game, and ``players.dat``
  in the working directory, loaded at the start and written at ``exit`` or end of input.
- ``--stage b`` is Project B: no AI, no advanced game, nothing stored.
- ``--stage a`` is Project A: two named players, play again ``Y/N``.
- ``--seed N`` is accepted as by every casino program; nothing in Nimsys is left to chance
  (the AI's moves are deterministic, also where it cannot force a win), so it changes nothing.

Output closed early (``| head``) ends the session quietly with status 1 (players are still
saved). A ``players.dat`` that cannot be read or parsed is reported in one line on stderr and moved
aside (``players.dat.bad``); the session starts with no players. A save that fails is reported
the same way and the exit status is 1.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from casino.cmdline import ArgumentParser, parse_or_report, silence_closed_output
from casino.nim import storage
from casino.nim.registry import Registry
from casino.nim.shell import PROJECT_B, PROJECT_C, NimsysShell
from casino.nim.stage_a import run_project_a
from casino.shell import Console, Streams

PROGRAM = "nimsys"


def _parser(out: TextIO) -> ArgumentParser:
    parser = ArgumentParser(
        out=out, prog=PROGRAM, description="Nim and the advanced game (COMP90041 Nimsys)."
    )
    parser.add_argument("--stage", choices=("a", "b", "c"), default="c", help="project A, B or C")
    parser.add_argument("--seed", type=int, default=0, help="accepted; Nimsys uses no chance")
    return parser


def _own_streams(stdin: TextIO | None, stdout: TextIO | None) -> None:
    """Make the process's own streams survive any bytes: bad input is replaced, not fatal."""
    for stream, given in ((sys.stdin, stdin), (sys.stdout, stdout)):
        if given is None and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run Nimsys; the exit status is 0, or 1 if players could not be saved, 2 for bad usage."""
    streams = Streams.of(stdin, stdout, stderr)
    options = parse_or_report(
        _parser(streams.stdout), sys.argv[1:] if argv is None else argv, streams
    )
    if isinstance(options, int):
        return options
    _own_streams(stdin, stdout)
    console = Console(streams.stdin, streams.stdout)
    if options.stage == "c":
        return _project_c(console, streams, own_stdout=stdout is None)
    if options.stage == "a":
        completed = _session(lambda: run_project_a(console), console)
    else:
        completed = _session(NimsysShell(console, Registry(), PROJECT_B).run, console)
    return _status(completed, own_stdout=stdout is None)


def _session(run: Callable[[], None], console: Console) -> bool:
    """Run a session; False if it ended because its output was closed (``| head``)."""
    try:
        run()
        console.out.flush()
    except BrokenPipeError:
        return False
    return True


def _status(completed: bool, *, own_stdout: bool) -> int:
    """0 for a session that ran to its end, 1 for one whose output was closed.

    A closed stdout of the process is pointed at the null device, so that Python's final
    flush at exit reports no second error.
    """
    if completed:
        return 0
    if own_stdout:
        silence_closed_output(sys.stdout)
    return 1


def _project_c(console: Console, streams: Streams, *, own_stdout: bool) -> int:
    path = Path(storage.FILE_NAME)
    loaded = storage.load(path)
    if loaded.warning:
        streams.error(f"{PROGRAM}: {loaded.warning}")
    registry = Registry(loaded.players)
    completed = _session(NimsysShell(console, registry, PROJECT_C).run, console)
    status = _status(completed, own_stdout=own_stdout)
    if not loaded.writable:
        streams.error(f"{PROGRAM}: {path}: players not saved, to keep the file that is there")
        return 1
    problem = storage.save(path, registry.sorted())
    if problem:
        streams.error(f"{PROGRAM}: {problem}")
        return 1
    return status
