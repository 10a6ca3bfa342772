"""Running Nimsys in-process, as the grader runs it: all input piped at once, not echoed."""

from __future__ import annotations

import io
from dataclasses import dataclass

from casino.nimsys import main


@dataclass(frozen=True)
class Run:
    """What one run printed, and its exit status."""

    status: int
    out: str
    err: str


def nimsys(text: str, *args: str) -> Run:
    """Run ``python -m casino.nimsys ARGS < text`` in this process (in the current directory)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(args), stdin=io.StringIO(text), stdout=out, stderr=err)
    return Run(status, out.getvalue(), err.getvalue())


def session(*lines: str, args: tuple[str, ...] = ()) -> str:
    """The stdout of a run fed ``lines``; it must succeed and print nothing on stderr."""
    run = nimsys("".join(line + "\n" for line in lines), *args)
    assert (run.status, run.err) == (0, "")
    return run.out
