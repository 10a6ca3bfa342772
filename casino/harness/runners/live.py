"""A program on a live console: read what it printed so far, type a line, read on.

The transcript runners know every line to type before the program starts; a played game
(:mod:`casino.harness.play`) chooses each line from what the program has just printed. These
consoles give it that, over the two ways a separate program runs:

- :class:`LivePipe`: stdin, stdout and stderr on pipes, as the pipe runner starts a program
  (the same command, containment and sandbox), but stdin stays open and lines are written one
  at a time, as they are chosen;
- :class:`LiveTerminal`: the pty runner's :class:`~casino.harness.runners.terminal.Conversation`
  (echo and ``\\r\\n`` undone).

Both are bounded as every runner is (:class:`~casino.harness.runners.base.Limits`): stdout and
stderr caps, and an overall deadline; past one the program is stopped and :attr:`problem` says
why. Both end everything the program started (:class:`~casino.harness.runners.procs.Containment`).
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import os
import select
import selectors
import signal
import subprocess
import time
from typing import TYPE_CHECKING, Protocol

from casino.errors import SetupError
from casino.harness.runners.base import (
    Job,
    Kept,
    Limits,
    Problem,
    RunnerName,
    cannot_start,
    decode,
    flood_problem,
    overtime_problem,
    quiet,
    timed_out,
)
from casino.harness.runners.pipe import start_piped
from casino.harness.runners.procs import Containment
from casino.harness.runners.terminal import Conversation, StartError

if TYPE_CHECKING:  # a run folder comes back only from a sandbox that isolates
    from casino.harness.runners.runfolder import RunFolder

_SIZE = 65536
_DRAIN_SECONDS = 1.0


class CannotStart(SetupError):
    """The program could not be started (the message names it as typed)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem = problem
        """Why, with its kind (:attr:`FailureKind.CANNOT_START`)."""


class LiveConsole(Protocol):
    """A running program whose output is read as it comes and whose input is typed live."""

    @property
    def problem(self) -> str | None:
        """Why the program was stopped (a limit passed), once it was."""
        ...

    @property
    def closed(self) -> bool:
        """Whether its output has closed (it ended)."""
        ...

    @property
    def text(self) -> str:
        """Everything it printed so far (within the output cap)."""
        ...

    @property
    def size(self) -> int:
        """How many characters it printed so far (within the output cap)."""
        ...

    def since(self, offset: int) -> str:
        """What it printed from character ``offset`` on."""
        ...

    def read(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for more output; ``False`` on silence, at its end, or once a
        limit is passed."""
        ...

    def send(self, line: str) -> None:
        """Type ``line`` and Enter."""
        ...

    def end_input(self) -> None:
        """End its input (end of file)."""
        ...

    def finish(self, grace: float) -> tuple[int | None, str, int]:
        """Give it ``grace`` seconds to end, then stop it and everything it started; its exit
        status (``None``: it had to be stopped), its stderr and the stderr bytes not kept."""
        ...


def start(runner: RunnerName, job: Job, limits: Limits) -> LiveConsole:
    """``job``'s program on a live console of ``runner`` (``pipe`` or ``pty``);
    :class:`CannotStart` if it cannot be started."""
    if runner is RunnerName.PTY:
        try:
            return LiveTerminal(job, limits)
        except StartError as error:
            raise CannotStart(error.problem) from None
    return LivePipe(job, limits)


class LivePipe:
    """A program with its standard streams on pipes, typed to one line at a time."""

    def __init__(self, job: Job, limits: Limits) -> None:
        """Start ``job``'s program as the pipe runner would (:class:`CannotStart`)."""
        self.problem: str | None = None
        self.closed = False
        self.limits = limits
        self.timeout = job.timeout
        self.deadline = time.monotonic() + (limits.seconds or float("inf"))
        self.out = Kept(limits.output)
        self.err = Kept(limits.stderr_kept)
        self._text: list[str] = []
        self._starts = [0]
        """Where each chunk of :attr:`_text` starts, then the size of all of them."""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._contained = Containment()
        self._back: RunFolder | None = job.run_folder()
        try:
            self.process = self._spawn(job)
        except BaseException:
            self._release()
            raise
        self._contained.follow(self.process.pid)
        assert self.process.stdout and self.process.stderr
        self._streams = {self.process.stdout.fileno(): True, self.process.stderr.fileno(): False}
        self._selector = selectors.DefaultSelector()
        for fd in self._streams:
            self._selector.register(fd, selectors.EVENT_READ)

    def _spawn(self, job: Job) -> subprocess.Popen[bytes]:
        back = self._back.__enter__() if self._back is not None else None
        try:
            return start_piped(job, back)
        except OSError as error:
            raise CannotStart(cannot_start(job, error.strerror or str(error))) from None

    @property
    def text(self) -> str:
        """What it printed so far."""
        return "".join(self._text)

    @property
    def size(self) -> int:
        """Characters printed so far."""
        return self._starts[-1]

    def since(self, offset: int) -> str:
        """What it printed from ``offset`` on (the chunks from there: no copy of the rest)."""
        first = max(0, bisect.bisect_right(self._starts, offset) - 1)
        return "".join(self._text[first:])[offset - self._starts[first] :]

    def _add(self, text: str) -> None:
        if text:
            self._text.append(text)
            self._starts.append(self._starts[-1] + len(text))

    def read(self, seconds: float) -> bool:
        """Read what comes within ``seconds`` (stderr too); ``True`` once stdout brought some."""
        end = min(time.monotonic() + seconds, self.deadline)
        while self.problem is None and not self.closed:
            now = time.monotonic()
            if now >= self.deadline:
                self.problem = overtime_problem(self.limits.seconds or 0.0)
                return False
            if now >= end:
                return False
            for key, _ in self._selector.select(end - now):
                if self._take(key.fd) and self._streams[key.fd]:
                    return True
        return False

    def _take(self, fd: int) -> bool:
        """Read ``fd`` once; whether it brought anything."""
        chunk = os.read(fd, _SIZE)
        stdout = self._streams[fd]
        if not chunk:
            self._selector.unregister(fd)
            if stdout:
                self.closed = True
                self._add(self._decoder.decode(b"", final=True))
            return False
        kept = self.out if stdout else self.err
        before = len(kept.data)
        kept.add(chunk)
        if stdout:
            self._add(self._decoder.decode(bytes(kept.data[before:])))
            if kept.total > self.limits.output:
                self.problem = flood_problem(self.limits.output)
        elif kept.total > self.limits.stderr:
            self.problem = flood_problem(self.limits.stderr, stderr=True)
        return True

    def send(self, line: str) -> None:
        """Write ``line`` and a newline (a program that has ended is not an error). Its stdin
        does not block: a program that leaves a full pipe unread for the step timeout is
        stopped (:attr:`problem`)."""
        assert self.process.stdin
        data = (line + "\n").encode("utf-8")
        fd = self.process.stdin.fileno()
        os.set_blocking(fd, False)
        end = time.monotonic() + self.timeout
        while data and self.problem is None:
            try:
                data = data[os.write(fd, data) :]
            except BlockingIOError:
                remaining = end - time.monotonic()
                if remaining <= 0:
                    self.problem = timed_out(f"timed out: it read no input for {self.timeout:g} s")
                else:
                    select.select([], [fd], [], remaining)
            except OSError:
                return

    def end_input(self) -> None:
        """Close its stdin."""
        assert self.process.stdin
        with contextlib.suppress(OSError):
            self.process.stdin.close()

    def finish(self, grace: float) -> tuple[int | None, str, int]:
        """Wait ``grace`` seconds at most for it to end (reading on), then stop it."""
        self.end_input()
        end = min(time.monotonic() + grace, self.deadline)
        while self.problem is None and not self.closed and time.monotonic() < end:
            self.read(end - time.monotonic())
        status: int | None = None
        if self.problem is None and self.closed:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = self.process.wait(timeout=max(0.0, min(grace, end - time.monotonic())))
        if status is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.kill()
            self.process.wait()
        drain = time.monotonic() + _DRAIN_SECONDS
        while self._selector.get_map() and time.monotonic() < drain:
            for key, _ in self._selector.select(drain - time.monotonic()):
                if not self._streams[key.fd] or self.out.total <= self.limits.output:
                    self._take(key.fd)
        self._release()
        return status, quiet(decode(self.err.data)), self.err.dropped

    def _release(self) -> None:
        """End everything it started; bring its folder back; close the pipes."""
        self._contained.close()
        if self._back is not None:
            self._back.collect()
            self._back.__exit__()
        process = getattr(self, "process", None)
        if process is not None:
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        selector = getattr(self, "_selector", None)
        if selector is not None:
            selector.close()


class LiveTerminal:
    """A program in a pseudo-terminal (the pty runner's conversation), typed to live."""

    def __init__(self, job: Job, limits: Limits) -> None:
        """Start ``job``'s program in a terminal (:class:`StartError` if it cannot be)."""
        self.talk = Conversation(job, limits)

    @property
    def problem(self) -> str | None:
        """Why it was stopped, if it was."""
        return self.talk.problem

    @property
    def closed(self) -> bool:
        """Whether the terminal closed."""
        return self.talk.closed

    @property
    def text(self) -> str:
        """What it printed so far (echo and ``\\r\\n`` undone)."""
        return self.talk.screen.text

    @property
    def size(self) -> int:
        """Characters printed so far."""
        return len(self.talk.screen.text)

    def since(self, offset: int) -> str:
        """What it printed from ``offset`` on."""
        return self.talk.screen.text[offset:]

    def read(self, seconds: float) -> bool:
        """Read what the terminal shows within ``seconds``."""
        return self.talk.read_once(seconds)

    def send(self, line: str) -> None:
        """Type ``line`` (its echo is taken off the screen)."""
        self.talk.send(line)

    def end_input(self) -> None:
        """Type Ctrl-D."""
        self.talk.end_input()

    def finish(self, grace: float) -> tuple[int | None, str, int]:
        """Read to its end (``grace`` seconds of silence at most), then stop it."""
        self.end_input()
        self.talk.read_until_end(within=grace)
        exit_status, stderr = self.talk.finish()
        return (None if self.talk.killed else exit_status), stderr, self.talk.stderr.dropped
