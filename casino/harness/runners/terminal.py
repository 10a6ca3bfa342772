"""The pty runner: the program in a pseudo-terminal, driven like a patient user (pexpect).

Before typing each ``in`` line it waits until the program has printed the ``out`` chunks that
come before it (at most the step timeout); as soon as the output can no longer become what is
expected, it stops typing, ends the input (Ctrl-D) and collects the rest. The terminal's echo
and ``\\r\\n`` are undone by :class:`~casino.harness.runners.screen.TerminalCapture`. The
program's stderr goes to a file, not to the terminal, so it is compared apart as with the other
runners. ``TERM=dumb``: no colour or cursor tricks are invited.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import termios
import time
from enum import Enum

import pexpect

from casino.harness.diff import piece_regex
from casino.harness.model import Out, OutRe, Step, segments, step_label
from casino.harness.runners.base import (
    Job,
    Outcome,
    cannot_start,
    decode,
    process_command,
    start_failure,
)
from casino.harness.runners.procs import Containment
from casino.harness.runners.screen import TerminalCapture

_SIZE = 65536


class Wait(Enum):
    """How waiting for a chunk of output ended."""

    SEEN = "seen"
    DIVERGED = "diverged"
    TIMEOUT = "timeout"
    ENDED = "ended"


def _label(steps: tuple[Step, ...], number: int) -> str:
    if number > len(steps):
        return "the end of the session"
    return step_label(steps[number - 1], number)


def spawn(job: Job, stderr_path: str) -> pexpect.spawn:
    """Start the job's program in a pseudo-terminal with its stderr going to ``stderr_path``
    (:class:`StartError` if it cannot be started)."""
    argv, env = process_command(job)
    env["TERM"] = "dumb"

    def stderr_to_file() -> None:
        fd = os.open(stderr_path, os.O_WRONLY)
        os.dup2(fd, 2)
        os.close(fd)

    try:
        child = pexpect.spawn(
            argv[0],
            argv[1:],
            cwd=str(job.cwd),
            env=env,
            encoding="utf-8",
            codec_errors="replace",
            preexec_fn=stderr_to_file,
            dimensions=(24, 200),
        )
    except pexpect.ExceptionPexpect:  # not found, or not executable
        raise StartError(cannot_start(job, start_failure(argv[0], env))) from None
    except OSError as error:  # exec failed (the error comes back without its strerror)
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise StartError(cannot_start(job, reason)) from None
    child.delaybeforesend = None  # each line is typed only once its prompt has appeared
    child.ptyproc.delayafterclose = 0.0  # finish() has already waited for the program to end
    return child


class StartError(Exception):
    """The program could not be started."""


class PtyRunner:
    """Runs a program in a pseudo-terminal, typing each line once its prompt has appeared."""

    name = "pty"

    def run(self, job: Job) -> Outcome:
        """Start the program, converse with it, collect what it printed and how it ended."""
        try:
            talk = Conversation(job)
        except StartError as error:
            return Outcome(chunks=("",), problem=str(error))
        try:
            problem = talk.converse(job.run.steps)
        finally:  # also when casino is stopped: nothing it started may outlive it
            exit_status, stderr = talk.finish()
        return Outcome(talk.screen.chunks(), stderr, None if problem else exit_status, problem)


class Conversation:
    """One session with a program in a terminal: wait for output, type lines, end input."""

    def __init__(self, job: Job) -> None:
        """Start the job's program (:class:`StartError` if it cannot be)."""
        self.timeout = job.timeout
        self.screen = TerminalCapture()
        self.closed = False
        """Whether the terminal has closed (the program ended, or closed its side)."""
        self._input_ended = False
        fd, self._stderr_path = tempfile.mkstemp(prefix="casino-stderr-")
        os.close(fd)
        self._contained = Containment()
        try:
            self.child = spawn(job, self._stderr_path)
        except BaseException:
            self._contained.close()
            os.unlink(self._stderr_path)
            raise
        self._contained.follow(self.child.pid)

    def send(self, line: str) -> None:
        """Type ``line`` and Enter; if the terminal echoes, wait for that echo to be shown (it
        comes before anything the program prints in answer), so it can be removed exactly."""
        try:
            echoed = bool(self.child.getecho())
        except (OSError, termios.error):  # the program has gone: nothing echoes any more
            echoed = False
        self.child.sendline(line)
        self.screen.sent(line, echoed=echoed)
        deadline = time.monotonic() + self.timeout
        while self.screen.awaiting_echo and not self.closed:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.read_once(remaining):
                break
        self.screen.forget_echo()

    def finish(self) -> tuple[int | None, str]:
        """Stop the program (and what it started) if it still runs; its exit status (negative:
        killed by that signal) and its stderr."""
        self.screen.close()
        child = self.child
        # A program that closed the terminal is exiting: give it the step timeout to finish.
        deadline = time.monotonic() + (self.timeout if self.closed else 0.0)
        while child.isalive() and time.monotonic() < deadline:
            time.sleep(0.002)
        if child.isalive():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
        with contextlib.suppress(pexpect.ExceptionPexpect, OSError):
            child.wait()
        child.close(force=True)
        self._contained.close()
        try:
            with open(self._stderr_path, "rb") as handle:
                stderr = decode(handle.read())
        finally:
            os.unlink(self._stderr_path)
        if child.signalstatus is not None:
            return -int(child.signalstatus), stderr
        return (None if child.exitstatus is None else int(child.exitstatus)), stderr

    def converse(self, steps: tuple[Step, ...]) -> str | None:
        """Type each line once its output is there; end the input; wait for the end.

        The end of input (Ctrl-D) is typed right after the last line: the program sees it only
        when it reads again, exactly as with a pipe. Returns why the program had to be
        stopped, or ``None`` if it ended by itself.
        """
        plan = segments(steps)
        for segment in plan:
            if segment is plan[-1]:
                self.end_input()
            start = self.screen.marks[-1] if self.screen.marks else 0
            waited = self.wait_for(segment.outputs, start)
            if waited is Wait.TIMEOUT:
                label = _label(steps, segment.first)
                return f"timed out: waited {self.timeout:g} s for {label}; it was stopped"
            if waited is Wait.ENDED:
                return None
            if waited is Wait.DIVERGED or segment.line is None:
                break
            self.send(segment.line.text)
        self.end_input()
        if self.read_until_end():
            return None
        return f"timed out: it did not end within {self.timeout:g} s after its input ended"

    def end_input(self) -> None:
        """Type Ctrl-D once (at the start of a line: end of input)."""
        if not self._input_ended:
            with contextlib.suppress(OSError):
                self.child.sendeof()
            self._input_ended = True

    def wait_for(self, pieces: tuple[Out | OutRe, ...], start: int) -> Wait:
        """Read until the output from ``start`` is ``pieces``, cannot become it, or time is up."""
        literal = all(isinstance(piece, Out) for piece in pieces)
        expected = "".join(piece.text for piece in pieces if isinstance(piece, Out))
        pattern = None if literal else piece_regex(pieces)
        deadline = time.monotonic() + self.timeout
        while True:
            got = self.screen.text[start:]
            if pattern is not None:
                if pattern.fullmatch(got):
                    return Wait.SEEN
            elif got == expected:
                return Wait.SEEN
            elif not expected.startswith(got):
                return Wait.DIVERGED
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Wait.TIMEOUT
            if not self.read_once(remaining):
                return Wait.ENDED if self.closed else Wait.TIMEOUT

    def read_until_end(self) -> bool:
        """Read until the terminal closes; ``False`` if it stays silent for the timeout first."""
        while self.read_once(self.timeout):
            pass
        return self.closed

    def read_once(self, timeout: float) -> bool:
        """Read what comes within ``timeout``: ``False`` on silence or when the terminal closed
        (then :attr:`closed` is set)."""
        try:
            self.screen.feed(self.child.read_nonblocking(_SIZE, timeout=timeout))
        except pexpect.TIMEOUT:
            return False
        except pexpect.EOF:
            self.closed = True
            return False
        return True
