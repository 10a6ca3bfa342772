"""What every runner shares: the job it is given, the outcome it returns, how it starts a program.

A *target* is what a transcript drives: one of casino's own programs (by its name in
:data:`casino.programs.PROGRAMS`), or any command (``--program "java Nimsys"``). A transcript's
``seed`` reaches casino's programs as ``--seed N`` before the run's arguments, and an external
command only as the environment variable ``CASINO_SEED=N`` (its argv is exactly the command and
the run's ``args``: a student's program need not accept ``--seed``).

**Every run is bounded** (:class:`Limits`, the one place these numbers are set), whatever the
program does:

- *time*: at most the step ``timeout`` × the run's number of steps (at least one step) in all;
- *stdout*: at most :func:`output_limit` bytes — what the run's ``out`` chunks hold, plus
  :data:`PATTERN_MARGIN` per ``out_re`` step, plus :data:`OUTPUT_MARGIN`. A program printing
  more is stopped (``stopped: it printed more than N bytes``) and judged on what was kept, so a
  student's endless print loop costs casino a few hundred KiB, not gigabytes. (Runners that see
  text count characters: a character is at least one byte, so the message stays true.)
- *stderr*: the first :data:`STDERR_KEPT` bytes (plus the transcript's stated ``stderr``) are
  kept and the rest only counted (:attr:`Outcome.stderr_dropped`); beyond :data:`STDERR_MARGIN`
  more than the stated ``stderr`` the program is stopped (``… bytes to stderr``).
"""

from __future__ import annotations

import itertools
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import casino
from casino.harness.model import Out, OutRe, Run
from casino.programs import PROGRAMS, command_line


@dataclass(frozen=True)
class Target:
    """Casino's program ``program``, or the external ``command`` when one is given."""

    program: str | None
    command: tuple[str, ...] | None = None

    @property
    def external(self) -> bool:
        """Whether this is a command rather than one of casino's programs."""
        return self.command is not None


@dataclass(frozen=True)
class Job:
    """One run for a runner: what to start, where, with which steps and how patiently."""

    target: Target
    run: Run
    cwd: Path
    seed: int | None = None
    timeout: float = 10.0


@dataclass(frozen=True)
class Outcome:
    """What one run of a program did."""

    chunks: tuple[str, ...]
    """Its stdout, split where it read an input line (one chunk if the runner cannot tell)."""
    stderr: str = ""
    exit: int | None = None
    """Its exit status; ``None`` if it did not end by itself; negative: killed by that signal."""
    problem: str | None = None
    """Why the run did not end normally: timed out, crashed, could not start."""
    consumed: int | None = None
    """How many input lines it read (``None`` if the runner cannot tell)."""
    stderr_dropped: int = 0
    """Bytes of stderr not kept (:attr:`stderr` holds the first ones; a flood is capped,
    never silently)."""

    @property
    def output(self) -> str:
        """All of its stdout."""
        return "".join(self.chunks)


OUTPUT_MARGIN = 64 * 1024
"""Bytes of stdout a run may print beyond what its transcript expects."""
PATTERN_MARGIN = 64 * 1024
"""Bytes of stdout allowed for each ``out_re`` step (its length is not known in advance)."""
STDERR_KEPT = 64 * 1024
"""Bytes of stderr kept beyond the transcript's stated ``stderr``; the rest is only counted."""
STDERR_MARGIN = 1024 * 1024
"""Bytes of stderr beyond the stated ``stderr`` after which the program is stopped."""


def output_limit(run: Run) -> int:
    """Bytes of stdout ``run`` may print before it is stopped (see the module docstring)."""
    expected = sum(len(step.text.encode("utf-8")) for step in run.steps if isinstance(step, Out))
    patterns = sum(1 for step in run.steps if isinstance(step, OutRe))
    return expected + PATTERN_MARGIN * patterns + OUTPUT_MARGIN


@dataclass(frozen=True)
class Limits:
    """How much a run may print and how long it may take."""

    output: int
    """Bytes of stdout; one more and the program is stopped."""
    stderr_kept: int
    """Bytes of stderr kept (the rest is counted in :attr:`Outcome.stderr_dropped`)."""
    stderr: int
    """Bytes of stderr; one more and the program is stopped."""
    seconds: float | None
    """The whole run's time (``None``: no overall bound)."""

    @classmethod
    def of(cls, job: Job) -> Limits:
        """The limits of ``job``: from its transcript's expected output, steps and timeout."""
        run = job.run
        stated = len(run.stderr.encode("utf-8")) if run.stderr else 0
        return cls(
            output=output_limit(run),
            stderr_kept=stated + STDERR_KEPT,
            stderr=stated + STDERR_MARGIN,
            seconds=job.timeout * max(1, len(run.steps)),
        )


def flood_problem(limit: int, *, stderr: bool = False) -> str:
    """The problem of a run stopped for printing more than ``limit`` bytes."""
    return f"stopped: it printed more than {limit} bytes{' to stderr' if stderr else ''}"


def overtime_problem(seconds: float) -> str:
    """The problem of a run stopped at its overall deadline."""
    return f"timed out: still running after {seconds:g} s; it was stopped"


class Kept:
    """The first ``keep`` bytes of a stream, and how many came in all."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.data = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        """Take ``chunk``: keep what fits, count all of it."""
        room = self.keep - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.total += len(chunk)

    @property
    def dropped(self) -> int:
        """Bytes counted but not kept."""
        return self.total - len(self.data)


def cut(chunks: tuple[str, ...], limit: int) -> tuple[str, ...]:
    """``chunks`` with at most ``limit`` characters in all (the first ones)."""
    kept: list[str] = []
    for chunk in chunks:
        kept.append(chunk[: max(0, limit)])
        limit -= len(chunk)
    return tuple(kept)


class Runner(Protocol):
    """Runs one job and reports what happened; never raises for anything the program does."""

    name: str

    def run(self, job: Job) -> Outcome:
        """Start the program in ``job.cwd``, drive it through the run's steps, collect it."""
        ...


class TargetError(Exception):
    """A target that cannot be run at all (an unknown program name)."""


def check_program(name: str | None) -> str:
    """``name`` if casino has such a program, else :class:`TargetError` saying what exists."""
    if name is None:
        raise TargetError("the transcript names no program; give one with --program CMD")
    if name not in PROGRAMS:
        known = ", ".join(sorted(PROGRAMS))
        raise TargetError(f"unknown program {name!r} (casino has: {known}; or use --program CMD)")
    return name


def seed_argv(seed: int | None) -> list[str]:
    """How a seed reaches one of casino's programs: ``--seed N``, put before the run's args."""
    return [] if seed is None else ["--seed", str(seed)]


def process_command(job: Job) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that start ``job`` as a separate process."""
    env = dict(os.environ)
    if job.target.command is not None:
        if job.seed is not None:
            env["CASINO_SEED"] = str(job.seed)
        return [*job.target.command, *job.run.argv], env
    root = str(Path(casino.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    env["PYTHONUTF8"] = "1"
    argv = command_line(check_program(job.target.program))
    return [*argv, *seed_argv(job.seed), *job.run.argv], env


def split_at(text: str, marks: list[int]) -> tuple[str, ...]:
    """``text`` cut at each position in ``marks`` (non-decreasing)."""
    bounds = [0, *marks, len(text)]
    return tuple(text[start:end] for start, end in itertools.pairwise(bounds))


def decode(data: bytes | bytearray) -> str:
    """A program's output as text (UTF-8; undecodable bytes shown as U+FFFD)."""
    return data.decode("utf-8", errors="replace")


def signal_problem(status: int | None) -> str | None:
    """``killed by signal SIGSEGV`` for a negative status, else ``None``."""
    if status is None or status >= 0:
        return None
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = str(-status)
    return f"killed by signal {name}"
