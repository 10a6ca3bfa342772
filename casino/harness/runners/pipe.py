"""The pipe runner, grader style: ``program < input > actual``.

Every ``in`` line goes to stdin at once (each followed by ``\\n``, then end of file); stdout and
stderr are collected as bytes and decoded as UTF-8; nothing is normalised. The program may be
silent for at most the transcript's step timeout, and may run at most that long per step in
all; then its whole process group is killed and the run reported with what it had printed.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import threading
import time
from typing import IO

from casino.harness.runners.base import Job, Outcome, cannot_start, decode, process_command
from casino.harness.runners.procs import Containment

_DRAIN_SECONDS = 1.0


class PipeRunner:
    """Runs a program as a process with its stdin, stdout and stderr on pipes."""

    name = "pipe"

    def run(self, job: Job) -> Outcome:
        """Start the program, feed it every input line, collect its output."""
        argv, env = process_command(job)
        data = "".join(line + "\n" for line in job.run.inputs).encode("utf-8")
        with Containment() as contained:  # whatever it starts ends with the run
            try:
                process = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd=job.cwd,
                    env=env,
                    start_new_session=True,
                )
            except OSError as error:
                why = cannot_start(job, error.strerror or str(error))
                return Outcome(chunks=("",), problem=why)
            contained.follow(process.pid)
            limit = job.timeout * max(1, len(job.run.steps))
            out, err, problem = _collect(process, data, idle=job.timeout, limit=limit)
        return Outcome(
            chunks=(decode(out),),
            stderr=decode(err),
            exit=None if problem else process.returncode,
            problem=problem,
        )


def _feed(stream: IO[bytes], data: bytes) -> None:
    """Write all input, then close stdin (a program that stops reading early is fine)."""
    try:
        stream.write(data)
        stream.close()
    except OSError:
        pass


def _collect(
    process: subprocess.Popen[bytes], data: bytes, *, idle: float, limit: float
) -> tuple[bytes, bytes, str | None]:
    """The process's stdout and stderr, and why it was stopped (``None``: it ended itself)."""
    assert process.stdin and process.stdout and process.stderr
    threading.Thread(target=_feed, args=(process.stdin, data), daemon=True).start()
    buffers = {process.stdout.fileno(): bytearray(), process.stderr.fileno(): bytearray()}
    started = time.monotonic()
    problem = _read_until_closed(buffers, idle=idle, limit=limit)
    if problem is None:
        try:
            process.wait(timeout=max(0.0, min(idle, started + limit - time.monotonic())))
        except subprocess.TimeoutExpired:
            problem = f"timed out: it closed its output but did not exit within {idle:g} s"
    if problem is not None:
        _kill_group(process)
        _read_until_closed(buffers, idle=_DRAIN_SECONDS, limit=_DRAIN_SECONDS)
        process.wait()
    process.stdout.close()
    process.stderr.close()
    out, err = buffers.values()
    return bytes(out), bytes(err), problem


def _read_until_closed(buffers: dict[int, bytearray], *, idle: float, limit: float) -> str | None:
    """Read every descriptor until each is closed; a message if time ran out first."""
    with selectors.DefaultSelector() as selector:
        for fd in buffers:
            selector.register(fd, selectors.EVENT_READ)
        quiet_since = time.monotonic()
        deadline = quiet_since + limit
        while selector.get_map():
            now = time.monotonic()
            if now >= deadline:
                return f"timed out: still running after {limit:g} s; it was stopped"
            if now - quiet_since >= idle:
                return f"timed out: no output for {idle:g} s; it was stopped"
            for key, _ in selector.select(min(deadline, quiet_since + idle) - now):
                chunk = os.read(key.fd, 65536)
                if chunk:
                    buffers[key.fd] += chunk
                    quiet_since = time.monotonic()
                else:
                    selector.unregister(key.fd)
    return None


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the program and everything it started (it leads its own session)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
