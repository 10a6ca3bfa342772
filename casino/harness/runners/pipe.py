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
from casino.harness.runners.procs import Containment

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
            contained.follow(process.pid)
            streams = _Streams(Limits.of(job))
            problem = _collect(process, data, streams, idle=job.timeout)
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


def _collect(
    process: subprocess.Popen[bytes], data: bytes, streams: _Streams, *, idle: float
) -> str | None:
    """Read the process's stdout and stderr into ``streams``; why it was stopped (``None``: it
    ended by itself)."""
    assert process.stdin and process.stdout and process.stderr
    threading.Thread(target=_feed, args=(process.stdin, data), daemon=True).start()
    fds = {process.stdout.fileno(): True, process.stderr.fileno(): False}
    limit = float("inf") if streams.limits.seconds is None else streams.limits.seconds
    started = time.monotonic()
    problem = _read_until_closed(fds, streams, idle=idle, limit=limit)
    if problem is None:
        try:
            process.wait(timeout=max(0.0, min(idle, started + limit - time.monotonic())))
        except subprocess.TimeoutExpired:
            problem = timed_out(
                f"timed out: it closed its output but did not exit within {idle:g} s"
            )
    if problem is not None:
        _kill_group(process)
        _read_until_closed(fds, streams, idle=_DRAIN_SECONDS, limit=_DRAIN_SECONDS)
        process.wait()
    process.stdout.close()
    process.stderr.close()
    return problem


def _read_until_closed(
    fds: dict[int, bool], streams: _Streams, *, idle: float, limit: float
) -> str | None:
    """Read every descriptor (``True``: stdout) until each is closed; a message if time ran
    out or a stream passed its limit first."""
    with selectors.DefaultSelector() as selector:
        for fd in fds:
            selector.register(fd, selectors.EVENT_READ)
        quiet_since = time.monotonic()
        deadline = quiet_since + limit
        while selector.get_map():
            now = time.monotonic()
            if now >= deadline:
                return overtime_problem(limit)
            if now - quiet_since >= idle:
                return timed_out(f"timed out: no output for {idle:g} s; it was stopped")
            for key, _ in selector.select(min(deadline, quiet_since + idle) - now):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fd)
                    continue
                quiet_since = time.monotonic()
                problem = streams.add(fds[key.fd], chunk)
                if problem is not None:
                    return problem
    return None


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
