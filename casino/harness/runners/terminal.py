"""The pty runner: the program in a pseudo-terminal, driven like a patient user (pexpect).

Before typing each ``in`` line it waits until the program has printed the ``out`` chunks that
come before it (at most the step timeout); Ctrl-D (end of input) follows the last line. The
terminal's echo and ``\\r\\n`` are undone by
:class:`~casino.harness.runners.screen.TerminalCapture`. The program's stderr goes to a pipe, not
to the terminal, so it is compared apart as with the other runners. ``TERM=dumb``: no colour or
cursor tricks are invited.

When the output can no longer match (if the run's output is all ``out`` steps, as soon as what
was printed is no longer the start of the expected text; with ``out_re`` steps, when a chunk
cannot become its steps' text) it stops waiting for prompts: it types the rest of the input,
ends it and reads until the program ends (:meth:`Conversation.play_out`), so the run ends as
through a pipe — its files, for a chain's next run, and the facts a rubric grades, the same.
So it does, too, when the program stays silent for the step timeout before a line is due (a
prompt that never comes: it may be waiting for the line all the same); the run then ends as
through a pipe, and only a program that still does not end is reported as timed out (with
the step it was waiting at). A run that stops answering is judged on what it printed, as
with every runner (``docs/transcripts.md``, *A run that stops answering*).
Every run is bounded as with every runner
(:class:`~casino.harness.runners.base.Limits`): the whole run may take the step timeout ×
its steps, print :func:`~casino.harness.runners.base.output_limit` characters, and write a
capped amount to stderr; past any of these the program is stopped.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import select
import shutil
import signal
import tempfile
import termios
import time
from enum import Enum
from typing import TYPE_CHECKING, Any

import pexpect
import ptyprocess  # type: ignore[import-untyped]

from casino.errors import SetupError
from casino.harness import regex
from casino.harness.matching import piece_regex
from casino.harness.model import Out, OutAny, Output, OutRe, Segment, Step, segments, step_label
from casino.harness.nearmiss import expected_texts
from casino.harness.runners.base import (
    Job,
    Kept,
    Limits,
    Outcome,
    Problem,
    RunnerName,
    cannot_start,
    cut,
    decode,
    flood_problem,
    overtime_problem,
    process_command,
    quiet,
    start_failure,
    timed_out,
)
from casino.harness.runners.procs import Containment
from casino.harness.runners.screen import TerminalCapture

if TYPE_CHECKING:  # a run folder comes back only from a sandbox that isolates
    from casino.harness.runners.runfolder import RunFolder

_SIZE = 65536
_DRAIN_SECONDS = 1.0
"""Seconds to wait, once the program has gone, for the end of its stderr."""


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


def spawn(job: Job, stderr_path: str, back: RunFolder | None = None) -> pexpect.spawn:
    """Start the job's program in a pseudo-terminal with its stderr going to ``stderr_path``
    (:class:`StartError` if it cannot be started); its run folder comes back through
    ``back`` if it is isolated."""
    try:
        argv, env = process_command(job, back)
    except OSError as error:  # a sandboxed program that could not be started
        raise StartError(cannot_start(job, error.strerror or str(error))) from None
    env["TERM"] = "dumb"
    limit = job.preexec()

    def stderr_to_file() -> None:
        fd = os.open(stderr_path, os.O_WRONLY)
        os.dup2(fd, 2)
        os.close(fd)
        if back is not None:  # ptyprocess keeps it open but, unlike subprocess, not across exec
            os.set_inheritable(back.fd, True)
        if limit is not None:
            limit()

    try:
        child = _spawner(() if back is None else (back.fd,))(
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


def _spawner(fds: tuple[int, ...]) -> type[pexpect.spawn]:
    """``pexpect.spawn`` keeping ``fds`` open in the program (pexpect closes all but 0–2)."""

    class Spawn(pexpect.spawn):  # type: ignore[misc]
        def _spawnpty(self, args: list[str], **kwargs: Any) -> ptyprocess.PtyProcess:
            return ptyprocess.PtyProcess.spawn(args, pass_fds=fds, **kwargs)

    return Spawn


class StartError(SetupError):
    """The program could not be started."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem = problem
        """Why, with its kind (:attr:`FailureKind.CANNOT_START`)."""


class PtyRunner:
    """Runs a program in a pseudo-terminal, typing each line once its prompt has appeared."""

    name = RunnerName.PTY

    def run(self, job: Job) -> Outcome:
        """Start the program, converse with it, collect what it printed and how it ended."""
        limits = Limits.of(job)
        try:
            talk = Conversation(job, limits)
        except StartError as error:
            return Outcome(chunks=("",), problem=error.problem)
        try:
            problem = talk.converse(job.run.steps)
        finally:  # even when casino itself is interrupted: the program does not outlive it
            exit_status, stderr = talk.finish()
        if problem is None and talk.killed:
            problem = timed_out(
                f"timed out: it closed its output but did not exit within {job.timeout:g} s"
            )
        problem = problem or talk.back_problem
        return Outcome(
            cut(talk.screen.chunks(), limits.output),
            stderr,
            None if problem or talk.killed else job.status(exit_status),
            problem,
            stderr_dropped=talk.stderr.dropped,
        )


class Conversation:
    """One session with a program in a terminal: wait for output, type lines, end input.

    Whatever it is waiting for, it stops once the program passes ``limits`` (then
    :attr:`problem` says why and reading returns nothing more).
    """

    def __init__(self, job: Job, limits: Limits) -> None:
        """Start the job's program (:class:`StartError` if it cannot be)."""
        self.timeout = job.timeout
        self.limits = limits
        self.deadline = time.monotonic() + (
            float("inf") if limits.seconds is None else limits.seconds
        )
        self.screen = TerminalCapture()
        self.stderr = Kept(limits.stderr_kept)
        self.closed = False
        """Whether the terminal has closed (the program ended, or closed its side)."""
        self.problem: str | None = None
        """Why the program was stopped (a limit passed), once it was."""
        self.killed = False
        """Whether :meth:`finish` had to kill the program."""
        self.back_problem: str | None = None
        """Why the run folder did not come back (it held more than it may), once finished."""
        self._input_ended = False
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._folder = tempfile.mkdtemp(prefix="casino-pty-")
        fifo = os.path.join(self._folder, "stderr")
        os.mkfifo(fifo, 0o600)
        self._stderr_fd: int | None = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self._contained = Containment()
        self._back = job.run_folder()
        try:
            self.child = spawn(job, fifo, self._back)
        except BaseException:
            self._contained.close()
            self._close_stderr()
            if self._back is not None:
                self._back.__exit__()
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
        wait = self.timeout if self.closed and self.problem is None else 0.0
        deadline = min(time.monotonic() + wait, self.deadline)
        while running(child.pid) and time.monotonic() < deadline:
            self._wait_on_stderr(0.002)  # a program blocked writing to stderr can still end
        if running(child.pid):
            self.killed = True
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child.pid, signal.SIGKILL)
        with contextlib.suppress(pexpect.ExceptionPexpect, OSError):
            child.wait()
        child.close(force=True)
        self._contained.close()
        if self._back is not None:
            self.back_problem = self._back.collect()
            self._back.__exit__()
        self._drain_stderr()
        self._close_stderr()
        stderr = quiet(decode(self.stderr.data))
        if child.signalstatus is not None:
            return -int(child.signalstatus), stderr
        return (None if child.exitstatus is None else int(child.exitstatus)), stderr

    def converse(self, steps: tuple[Step, ...]) -> str | None:
        """Type each line once its output is there; end the input; wait for the end.

        The end of input (Ctrl-D) is typed right after the last line: the program sees it only
        when it reads again, exactly as with a pipe. Returns why the program had to be
        stopped, or ``None`` if it ended by itself or its output could no longer match.
        """
        plan = segments(steps)
        expected = _literal_text(steps)
        for index, segment in enumerate(plan):
            if segment is plan[-1]:
                self.end_input()
            if expected is not None:
                waited = self.wait_for_text(expected, _segment_end(plan, index))
            else:
                start = self.screen.marks[-1] if self.screen.marks else 0
                waited = self.wait_for(segment.outputs, start)
            if self.problem is not None:
                return self.problem
            if waited is Wait.TIMEOUT:
                label = _label(steps, segment.first)
                stalled = timed_out(
                    f"timed out: waited {self.timeout:g} s for {label}; it was stopped"
                )
                return self.stalled(stalled, [s.line.text for s in plan[index:] if s.line])
            if waited is Wait.ENDED:
                return None
            if waited is Wait.DIVERGED:
                return self.play_out([s.line.text for s in plan[index:] if s.line is not None])
            if segment.line is None:
                break
            self.send(segment.line.text)
        return self.play_out([])

    def stalled(self, why: str, lines: list[str]) -> str | None:
        """The program printed nothing more for the step timeout before ``lines`` (the rest of
        the input): perhaps it waits for a line its prompt did not announce. Type them as a
        pipe would have given them (:meth:`play_out`); if it then ends by itself, the run
        ended as through a pipe (``None``), else ``why`` (or the limit it passed) says how it
        was stopped. With no line left to type, it has stopped answering: ``why``."""
        if not lines or self._input_ended:
            return why
        return None if self.play_out(lines) is None else self.problem or why

    def play_out(self, lines: list[str]) -> str | None:
        """Type ``lines`` (the rest of the input, each once the previous one is echoed), end
        the input and read until the program ends: once its output can no longer match, the
        run still ends as it would through a pipe, having read all its input — its files
        too, which the next run of a chain reads, and the facts a rubric grades. Returns why
        it had to be stopped, if it had to be. The terminal's echo is turned off first: typed
        while the program still prints (a flood, say), an echo would land in the middle of its
        lines, where it cannot be told from them and taken out."""
        with contextlib.suppress(OSError, termios.error):
            self.child.setecho(False)
        for line in lines:
            if self.closed or self.problem is not None:
                break
            self.send(line)
        self.end_input()
        if self.read_until_end():
            return self.problem
        return self.problem or (
            timed_out(f"timed out: it did not end within {self.timeout:g} s after its input ended")
        )

    def end_input(self) -> None:
        """Type Ctrl-D once (at the start of a line: end of input)."""
        if not self._input_ended:
            with contextlib.suppress(OSError):
                self.child.sendeof()
            self._input_ended = True

    def wait_for_text(self, expected: str, end: int) -> Wait:
        """Read until the output holds ``expected[:end]``, is no longer the start of
        ``expected`` (the whole run's text), or time is up."""
        deadline = time.monotonic() + self.timeout
        while True:
            got = self.screen.text
            if not expected.startswith(got):
                return Wait.DIVERGED
            if len(got) >= end:
                return Wait.SEEN
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Wait.TIMEOUT
            if not self.read_once(remaining):
                return Wait.ENDED if self.closed else Wait.TIMEOUT

    def wait_for(self, pieces: tuple[Output, ...], start: int) -> Wait:
        """Read until the output from ``start`` is ``pieces``, cannot become it, or time is up."""
        literal = all(isinstance(piece, Out) for piece in pieces)
        expected = "".join(piece.text for piece in pieces if isinstance(piece, Out))
        pattern = None if literal else piece_regex(pieces)
        choices = expected_texts(pieces, _MAX_CHOICES)
        deadline = time.monotonic() + self.timeout
        while True:
            got = self.screen.text[start:]
            if pattern is not None:
                try:
                    if _matches(pattern, got, bounded=choices is None):
                        return Wait.SEEN
                except regex.PatternTimeout:
                    return Wait.DIVERGED  # judged (and named) when the output is compared
                if choices is not None and not any(text.startswith(got) for text in choices):
                    return Wait.DIVERGED
            elif got == expected:
                return Wait.SEEN
            elif not expected.startswith(got):
                return Wait.DIVERGED
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Wait.TIMEOUT
            if not self.read_once(remaining):
                return Wait.ENDED if self.closed else Wait.TIMEOUT

    def read_until_end(self, within: float | None = None) -> bool:
        """Read until the terminal closes; ``False`` if it stays silent for the timeout first,
        or is still open after ``within`` seconds (if given), or a limit was passed."""
        end = time.monotonic() + (float("inf") if within is None else within)
        while time.monotonic() < end and self.read_once(min(self.timeout, end - time.monotonic())):
            pass
        return self.closed

    def read_once(self, timeout: float) -> bool:
        """Read what the terminal shows within ``timeout`` (taking in stderr meanwhile):
        ``False`` on silence, when the terminal closed (then :attr:`closed` is set), or when a
        limit was passed (then :attr:`problem` is set)."""
        end = min(time.monotonic() + timeout, self.deadline)
        while self.problem is None and not self.closed:
            now = time.monotonic()
            if now >= self.deadline:
                self.problem = overtime_problem(self.limits.seconds or 0.0)
                return False
            fds = [self.child.child_fd]
            if self._stderr_fd is not None:
                fds.append(self._stderr_fd)
            ready = select.select(fds, [], [], max(0.0, end - now))[0]
            if self._stderr_fd is not None and self._stderr_fd in ready:
                self._read_stderr()
            if self.child.child_fd in ready:
                return self._read_screen()
            if end <= now:
                return False
        return False

    def _read_screen(self) -> bool:
        """Take what the terminal shows now; ``False`` if it closed or printed too much."""
        # Read the terminal directly: pexpect's read_nonblocking() waits for the program once
        # the terminal has closed, which a program that closed it and runs on never ends.
        try:
            data = os.read(self.child.child_fd, _SIZE)
        except BlockingIOError:
            return True
        except OSError:  # EIO: the terminal has closed (Linux)
            data = b""
        if not data:
            self.screen.feed(self._decoder.decode(b"", final=True))
            self.closed = True
            return False
        self.screen.feed(self._decoder.decode(data))
        limit = self.limits.output
        if self.screen.size_at_most > limit and len(self.screen.text) > limit:
            self.problem = flood_problem(limit)
            return False
        return True

    def _read_stderr(self) -> None:
        """Take what the program wrote to stderr (closing it at its end)."""
        assert self._stderr_fd is not None
        try:
            chunk = os.read(self._stderr_fd, _SIZE)
        except BlockingIOError:
            return
        if not chunk:
            self._forget_stderr()
            return
        self.stderr.add(chunk)
        if self.stderr.total > self.limits.stderr and self.problem is None:
            self.problem = flood_problem(self.limits.stderr, stderr=True)

    def _wait_on_stderr(self, seconds: float) -> None:
        """Wait ``seconds`` at most, taking in stderr if some comes."""
        if self._stderr_fd is None:
            time.sleep(seconds)
        elif select.select([self._stderr_fd], [], [], seconds)[0]:
            self._read_stderr()

    def _drain_stderr(self) -> None:
        """Read the rest of stderr once the program has gone (a moment at most)."""
        end = time.monotonic() + _DRAIN_SECONDS
        while self._stderr_fd is not None and self.stderr.total <= self.limits.stderr:
            remaining = end - time.monotonic()
            if remaining <= 0 or not select.select([self._stderr_fd], [], [], remaining)[0]:
                return
            self._read_stderr()

    def _close_stderr(self) -> None:
        self._forget_stderr()
        shutil.rmtree(self._folder, ignore_errors=True)

    def _forget_stderr(self) -> None:
        """Close the stderr pipe, forgotten first: a stop signal raised between the two steps
        (``Stopped`` comes between any two) leaves nothing for the cleanup to close again, whose
        ``Bad file descriptor`` would hide the stop (casino exiting 1 instead of 143)."""
        fd, self._stderr_fd = self._stderr_fd, None
        if fd is not None:
            os.close(fd)


def _matches(pattern: re.Pattern[str], text: str, *, bounded: bool) -> bool:
    """Whether ``pattern`` matches all of ``text``: within the ``out_re`` time budget where
    it holds a pattern (``bounded``), directly where it is only texts (a finite list of
    choices, which cannot backtrack for long)."""
    if bounded:
        return regex.fullmatch(pattern, text)
    return pattern.fullmatch(text) is not None


def running(pid: int) -> bool:
    """Whether our child ``pid`` has not exited yet, without waiting and without reaping it.

    (Not pexpect's ``isalive()``: once the terminal has closed, it *waits* for the program,
    so a program that closes its terminal and goes on running would block casino.)"""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:
        return False


def _literal_text(steps: tuple[Step, ...]) -> str | None:
    """The run's whole expected output if it has no ``out_re``/``out_any`` step, else ``None``."""
    if any(isinstance(step, (OutRe, OutAny)) for step in steps):
        return None
    return "".join(step.text for step in steps if isinstance(step, Out))


_MAX_CHOICES = 4096
"""``out_any`` texts in one segment are followed as whole texts up to this many combinations."""


def _segment_end(plan: list[Segment], index: int) -> int:
    """Where segment ``index``'s expected output ends in the run's whole (literal) text."""
    return sum(
        len(piece.text)
        for segment in plan[: index + 1]
        for piece in segment.outputs
        if isinstance(piece, Out)
    )
