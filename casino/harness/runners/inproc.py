"""The in-process runner: call a casino program's ``main`` directly, in this process.

The program gets a stdin that hands out the transcript's ``in`` lines and notes, at each line,
how much the program had printed: its output splits into the exact chunks between reads. The
working directory is the job's (a fresh temporary one per transcript). A step may wait at most
the transcript's timeout: ``signal.setitimer`` is re-armed at every read and, when it fires,
raises into the program, which is then reported as timed out with what it had printed (this
needs the main thread; elsewhere there is no time limit). The program's output is capped as
for every runner (:class:`~casino.harness.runners.base.Limits`, counted in characters): a
write past the limit raises into the program, which is then reported as stopped; its stderr
keeps only the first characters and counts the rest.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import FrameType
from typing import TextIO

from casino.harness.runners.base import (
    Job,
    Limits,
    Outcome,
    RunnerName,
    TargetError,
    check_program,
    flood_problem,
    seed_argv,
    split_at,
    timed_out,
)
from casino.programs import MainFunction, load_main

STDERR_UNLIMITED = sys.maxsize
"""The stderr cap when none is given (a live recording keeps everything)."""


class StepTimeout(BaseException):
    """Raised into a program that waited longer than a step may (not an ``Exception``, so a
    program's own ``except Exception`` does not swallow it)."""


class OutputFlood(BaseException):
    """Raised into a program that printed more than its run may (a ``BaseException``, as
    :class:`StepTimeout`)."""


class Capture(io.StringIO):
    """An output stream the program cannot close from under the runner; with a ``limit``, a
    write that would take it past that many characters keeps what fits and raises
    :class:`OutputFlood`."""

    def __init__(self, limit: int | None = None) -> None:
        super().__init__()
        self.limit = limit

    def write(self, text: str, /) -> int:
        """Keep ``text`` (what fits under the limit)."""
        if self.limit is not None and self.tell() + len(text) > self.limit:
            super().write(text[: max(0, self.limit - self.tell())])
            raise OutputFlood
        return super().write(text)

    def close(self) -> None:
        """Ignored: the runner reads the text after the program is done."""


class Capped(Capture):
    """A stream keeping its first ``keep`` characters and counting the bytes of the rest."""

    def __init__(self, keep: int) -> None:
        super().__init__()
        self.keep = keep
        self.dropped = 0

    def write(self, text: str, /) -> int:
        """Keep what fits of ``text``; count the rest."""
        room = max(0, self.keep - self.tell())
        if len(text) > room:
            self.dropped += len(text[room:].encode("utf-8", errors="replace"))
            super().write(text[:room])
        else:
            super().write(text)
        return len(text)


class ScriptedInput(io.StringIO):
    """A stdin serving ``lines`` one at a time; at each line it records how much of ``output``
    had been written (:attr:`marks`) and calls ``on_line`` (which re-arms the step timer)."""

    def __init__(
        self, lines: Iterable[str], output: io.StringIO, on_line: Callable[[], object]
    ) -> None:
        super().__init__()
        self._lines: Iterator[str] = iter(lines)
        self._output = output
        self._on_line = on_line
        self._pending = ""
        self.marks: list[int] = []

    def _pull(self) -> bool:
        try:
            line = next(self._lines)
        except StopIteration:
            return False
        self.marks.append(self._output.tell())
        self._on_line()
        self._pending += line + "\n"
        return True

    def _take(self, size: int) -> str:
        text, self._pending = self._pending[:size], self._pending[size:]
        return text

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        """The next line, with its newline; ``""`` at end of input."""
        if "\n" not in self._pending:
            self._pull()
        end = self._pending.find("\n") + 1 or len(self._pending)
        if size >= 0:
            end = min(end, size)
        return self._take(end)

    def read(self, size: int | None = -1, /) -> str:
        """Up to ``size`` characters (all the remaining input if ``size`` is negative)."""
        while (size is None or size < 0 or len(self._pending) < size) and self._pull():
            pass
        return self._take(len(self._pending) if size is None or size < 0 else size)


@contextlib.contextmanager
def step_timer(seconds: float | None) -> Iterator[Callable[[], object]]:
    """A timer raising :class:`StepTimeout` after ``seconds``; yields the function re-arming it.

    Without a limit, or outside the main thread (where signals cannot be delivered), the timer
    does nothing.
    """
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise StepTimeout

    previous = signal.signal(signal.SIGALRM, expire)

    def arm() -> object:
        return signal.setitimer(signal.ITIMER_REAL, seconds)

    arm()
    try:
        yield arm
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _inside(cwd: Path, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> Iterator[None]:
    """Work in ``cwd`` with ``sys.std*`` pointing at the given streams (for ``print``)."""
    saved = os.getcwd(), sys.stdin, sys.stdout, sys.stderr
    os.chdir(cwd)
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved[1:]
        os.chdir(saved[0])


def call_main(
    main: MainFunction,
    argv: list[str],
    lines: Iterable[str],
    *,
    cwd: Path,
    timeout: float | None,
    stdout: Capture | None = None,
    limits: Limits | None = None,
) -> Outcome:
    """Run ``main(argv)`` on ``lines`` in ``cwd`` and report what it printed and returned
    (within ``limits``' output and stderr caps, if given)."""
    out = stdout or Capture(None if limits is None else limits.output)
    err = Capped(STDERR_UNLIMITED if limits is None else limits.stderr_kept)
    status: int | None = None
    problem: str | None = None
    with step_timer(timeout) as rearm:
        stdin = ScriptedInput(lines, out, rearm)
        try:
            with _inside(cwd, stdin, out, err):
                status, problem = _exit_status(main, argv, stdin, out, err)
        except StepTimeout:
            if status is None:  # not a timer that fired just after the program returned
                problem = _timed_out(timeout, len(stdin.marks))
        except OutputFlood:
            problem = flood_problem(out.limit or 0)
    return Outcome(
        chunks=split_at(out.getvalue(), stdin.marks),
        stderr=err.getvalue(),
        exit=status,
        problem=problem,
        consumed=len(stdin.marks),
        stderr_dropped=err.dropped,
    )


def _timed_out(timeout: float | None, read: int) -> str:
    lines = f"{read} input line{'' if read == 1 else 's'}"
    return timed_out(
        f"timed out: no input was read for {timeout:g} s (after {lines}); it was stopped"
    )


def _exit_status(
    main: MainFunction, argv: list[str], stdin: TextIO, stdout: TextIO, stderr: Capture
) -> tuple[int, str | None]:
    """What ``main`` returned, or the status ``sys.exit`` or a crash would give a process
    (with the crash as the problem, its traceback on stderr as Python would print it)."""
    try:
        status = main(argv, stdin=stdin, stdout=stdout, stderr=stderr)
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            return stop.code or 0, None
        stderr.write(f"{stop.code}\n")
        return 1, None
    except (StepTimeout, OutputFlood, KeyboardInterrupt):
        raise
    except BaseException as error:
        below_us = error.__traceback__.tb_next if error.__traceback__ else None
        stderr.write("".join(traceback.format_exception(type(error), error, below_us)))
        return 1, f"crashed: {type(error).__name__}: {error}"
    return (status if isinstance(status, int) else 0), None


class InProcessRunner:
    """Runs casino's own programs by calling their ``main`` (``mains`` adds or overrides
    programs by name, for tests)."""

    name = RunnerName.INPROC

    def __init__(self, mains: Mapping[str, MainFunction] | None = None) -> None:
        self._mains = dict(mains or {})

    def main_of(self, program: str | None) -> MainFunction:
        """The ``main`` of ``program``; :class:`TargetError` if there is none."""
        if program in self._mains:
            return self._mains[program]
        name = check_program(program)
        try:
            return load_main(name)
        except (ImportError, AttributeError) as error:
            raise TargetError(f"cannot load program {name!r}: {error}") from None

    def run(self, job: Job) -> Outcome:
        """Call the program's ``main`` on the run's input lines."""
        if job.target.external:
            raise TargetError("the in-process runner runs casino's own programs only")
        main = self.main_of(job.target.program)
        argv = [*seed_argv(job.seed), *job.run.argv]
        return call_main(
            main, argv, job.run.inputs, cwd=job.cwd, timeout=job.timeout, limits=Limits.of(job)
        )
