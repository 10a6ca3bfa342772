"""Running Nimsys in-process, as the grader runs it: all input piped at once, not echoed."""

from __future__ import annotations

from casino.nimsys import main
from casino.programs import Completed as Run
from casino.programs import run_captured

__all__ = ["Run", "nimsys", "session"]


def nimsys(text: str, *args: str) -> Run:
    """Run ``python -m casino.nimsys ARGS < text`` in this process (in the current directory)."""
    return run_captured(main, args, text)


def session(*lines: str, args: tuple[str, ...] = ()) -> str:
    """The stdout of a run fed ``lines``; it must succeed and print nothing on stderr."""
    run = nimsys("".join(line + "\n" for line in lines), *args)
    assert (run.status, run.err) == (0, "")
    return run.out
