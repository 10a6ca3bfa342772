"""The pipe runner, grader style: ``program < input > actual``.

Every ``in`` line goes to stdin at once (each followed by ``\\n``, then end of file); stdout and
stderr are collected as bytes and decoded as UTF-8; nothing is normalised. The program may be
silent for at most the transcript's step timeout, and may run at most that long per step in
all; it may print at most :func:`~casino.harness.runners.base.output_limit` bytes (stderr is
kept up to its own cap, the rest counted). Past any of these its whole process group is killed
and the run reported with what was kept of its output.
"""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import signal
import subprocess
import threading
import time
from typing import IO, TYPE_CHECKING

from casino.harness.runners.base import (
    Job,
    Kept,
    Limits,
    Outcome,
    RunnerName,
    cannot_start,
    decode,
    flood_problem,
    overtime_problem,
    process_command,
    quiet,
    timed_out,
)
from casino.harness.runners.procs import LINGER_SECONDS, Containment

if TYPE_CHECKING:  # a run folder comes back only from a sandbox that isolates
    from casino.harness.runners.runfolder import RunFolder

_DRAIN_SECONDS = 1.0


class PipeRunner:
    """Runs a program as a process with its stdin, stdout and stderr on pipes."""

    name = RunnerName.PIPE

    def run(self, job: Job) -> Outcome:
        """Start the program, feed it every input line, collect its output."""
        data = "".join(line + "\n" for line in job.run.inputs).encode("utf-8")
        # Whatever it starts ends with the run; isolated, its folder comes back through ``back``.
        with Containment() as contained, job.run_folder() or contextlib.nullcontext() as back:
            try:
                process = start_piped(job, back)
            except OSError as error:
                why = cannot_start(job, error.strerror or str(error))
                return Outcome(chunks=("",), problem=why)
            streams = _Streams(Limits.of(job))
            problem = _collect(process, data, streams, contained, idle=job.timeout)
            if back is not None:
                kept = back.collect()
                problem = problem or kept
        return Outcome(
            chunks=(decode(streams.out.data),),
            stderr=quiet(decode(streams.err.data)),
            exit=None if problem else job.status(process.returncode),
            problem=problem,
            stderr_dropped=streams.err.dropped,
        )


class _Streams:
    """What was kept of a program's stdout and stderr, within the run's limits."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.out = Kept(limits.output)
        self.err = Kept(limits.stderr_kept)

    def add(self, stdout: bool, chunk: bytes) -> str | None:
        """Take ``chunk`` of stdout (or stderr); a problem once the stream passes its limit."""
        if stdout:
            self.out.add(chunk)
            if self.out.total > self.limits.output:
                return flood_problem(self.limits.output)
        else:
            self.err.add(chunk)
            if self.err.total > self.limits.stderr:
                return flood_problem(self.limits.stderr, stderr=True)
        return None


def _feed(stream: IO[bytes], data: bytes) -> None:
    """Write all input, then close stdin (a program that stops reading early is fine)."""
    try:
        stream.write(data)
        stream.close()
    except OSError:
        pass


class _Input:
    """What is left to write to the program's stdin, written as it makes room (from the read
    loop: no thread of its own unless the program stops reading before its output ends)."""

    def __init__(self, stream: IO[bytes], data: bytes) -> None:
        self.stream = stream
        self.fd = stream.fileno()
        self.left = memoryview(data)
        os.set_blocking(self.fd, False)
        if self.write():
            self.close()

    @property
    def done(self) -> bool:
        """Whether stdin is closed (all written, or the program closed its end)."""
        return self.stream.closed

    def write(self) -> bool:
        """Write what the pipe takes now; whether that was the last of it (or stdin is broken:
        the program closed its end, and the rest is not for it)."""
        try:
            while self.left:
                self.left = self.left[os.write(self.fd, self.left) :]
        except BlockingIOError:
            return False
        except OSError:
            pass
        return True

    def close(self) -> None:
        """Close stdin: the program reads its end of file."""
        with contextlib.suppress(OSError):
            self.stream.close()

    def hand_over(self) -> None:
        """Its output has ended while the program is still to read the rest: a thread writes it
        (so that a program that lives on is judged on waiting, as before, not told EOF)."""
        if not self.done:
            os.set_blocking(self.fd, True)
            rest = bytes(self.left)
            threading.Thread(target=_feed, args=(self.stream, rest), daemon=True).start()


class _Leader:
    """The program's main process, watched from the read loop through its pidfd: once it has
    exited, its leftovers get :data:`~casino.harness.runners.procs.LINGER_SECONDS` to finish
    writing, then they are ended (:meth:`Containment.follow`'s rule, without its thread)."""

    def __init__(self, contained: Containment, process: subprocess.Popen[bytes]) -> None:
        self.contained = contained
        self.process = process
        self.fd = contained.exit_descriptor(process.pid)
        self.linger_until = float("inf")

    def exited(self) -> None:
        """Its pidfd became readable: the main process has exited (it is not reaped yet)."""
        self.linger_until = time.monotonic() + LINGER_SECONDS

    def end_leftovers(self, now: float) -> None:
        """Past the lingering time, end what the program left behind (once)."""
        if now >= self.linger_until:
            self.linger_until = float("inf")
            self.contained.end(leader=self.process.pid)

    def wait(self, timeout: float) -> bool:
        """Whether the main process exits within ``timeout`` seconds (without a pidfd, as
        ``Popen.wait`` sees it; the follow thread then ends the leftovers)."""
        if self.fd is None:
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                return False
            return True
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        return bool(poller.poll(timeout * 1000))


def _collect(
    process: subprocess.Popen[bytes],
    data: bytes,
    streams: _Streams,
    contained: Containment,
    *,
    idle: float,
) -> str | None:
    """Feed the process its input and read its stdout and stderr into ``streams``; why it was
    stopped (``None``: it ended by itself)."""
    assert process.stdin and process.stdout and process.stderr
    fds = {process.stdout.fileno(): True, process.stderr.fileno(): False}
    limit = float("inf") if streams.limits.seconds is None else streams.limits.seconds
    started = time.monotonic()
    given, leader = _Input(process.stdin, data), _Leader(contained, process)
    problem = _read_until_closed(fds, streams, idle=idle, limit=limit, given=given, leader=leader)
    if problem is None:
        given.hand_over()
        if not leader.wait(max(0.0, min(idle, started + limit - time.monotonic()))):
            problem = timed_out(
                f"timed out: it closed its output but did not exit within {idle:g} s"
            )
    if problem is not None:
        _kill_group(process)
        given.close()
        _read_until_closed(fds, streams, idle=_DRAIN_SECONDS, limit=_DRAIN_SECONDS)
    process.wait()
    process.stdout.close()
    process.stderr.close()
    return problem


def _read_until_closed(
    fds: dict[int, bool],
    streams: _Streams,
    *,
    idle: float,
    limit: float,
    given: _Input | None = None,
    leader: _Leader | None = None,
) -> str | None:
    """Read every descriptor (``True``: stdout) until each is closed, writing what is left of
    ``given`` as the program makes room and minding the ``leader``'s exit; a message if time
    ran out or a stream passed its limit first."""
    with selectors.DefaultSelector() as selector:
        for fd in fds:
            selector.register(fd, selectors.EVENT_READ)
        if given is not None and not given.done:
            selector.register(given.fd, selectors.EVENT_WRITE)
        if leader is not None and leader.fd is not None:
            selector.register(leader.fd, selectors.EVENT_READ)
        quiet_since = time.monotonic()
        deadline = quiet_since + limit
        while fds.keys() & selector.get_map().keys():
            now = time.monotonic()
            if now >= deadline:
                return overtime_problem(limit)
            if now - quiet_since >= idle:
                return timed_out(f"timed out: no output for {idle:g} s; it was stopped")
            lingering = deadline
            if leader is not None:
                leader.end_leftovers(now)
                lingering = leader.linger_until
            for key, _ in selector.select(min(deadline, quiet_since + idle, lingering) - now):
                if key.fd not in fds:
                    _other(key.fd, selector, given, leader)
                    continue
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fd)
                    continue
                quiet_since = time.monotonic()
                problem = streams.add(fds[key.fd], chunk)
                if problem is not None:
                    return problem
    return None


def _other(
    fd: int, selector: selectors.BaseSelector, given: _Input | None, leader: _Leader | None
) -> None:
    """Stdin has room (write more; done: no longer watched, closed), or the leader exited."""
    if leader is not None and fd == leader.fd:
        selector.unregister(fd)
        leader.exited()
    elif given is not None and given.write():
        selector.unregister(fd)
        given.close()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the program and everything it started (it leads its own session)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()


def start_piped(job: Job, back: RunFolder | None) -> subprocess.Popen[bytes]:
    """``job``'s program with stdin, stdout and stderr on pipes, in a session of its own, the
    run folder's descriptor passed on when it has one (``OSError`` if it cannot start): how the
    pipe runner and the live consoles start a program alike."""
    argv, env = process_command(job, back)
    return subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=job.cwd,
        env=env,
        start_new_session=True,
        preexec_fn=job.preexec(),
        pass_fds=() if back is None else (back.fd,),
    )
