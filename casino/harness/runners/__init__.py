"""The three runners, one interface (:class:`~casino.harness.runners.base.Runner`).

- ``inproc``: calls a casino program's ``main`` in this process; output splits exactly where
  the program reads input. Fast; the default for casino's own programs.
- ``pipe``: grader style (``java Nimsys < in``): every ``in`` line on stdin at once; the default
  for ``--program``.
- ``pty``: a pseudo-terminal driven with pexpect: waits for each ``out`` before typing the next
  ``in``; the terminal's echo and ``\\r\\n`` are normalised away.

Played games (``play:`` transcripts) use the same pipe and terminal as live consoles, each line
chosen from what the program has just printed (:mod:`casino.harness.runners.live`).
"""

from __future__ import annotations

from casino.harness.names import RUNNER_NAMES as RUNNER_NAMES
from casino.harness.runners.base import Runner, RunnerName


def make_runner(name: str) -> Runner:
    """A new runner by its name (``ValueError`` for any other name)."""
    if name == RunnerName.INPROC:
        from casino.harness.runners.inproc import InProcessRunner

        return InProcessRunner()
    if name == RunnerName.PIPE:
        from casino.harness.runners.pipe import PipeRunner

        return PipeRunner()
    if name == RunnerName.PTY:
        from casino.harness.runners.terminal import PtyRunner

        return PtyRunner()
    raise ValueError(f"unknown runner {name!r} (choose from {', '.join(RUNNER_NAMES)})")
