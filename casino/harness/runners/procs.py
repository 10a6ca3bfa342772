"""Containment: nothing a run starts outlives it, and nothing outlives casino when it is stopped.

A program may leave processes behind: ``nohup cmd &`` keeps running after its parent exits, and
a ``setsid`` grandchild leaves the process group the runner kills. On Linux the process that
runs programs makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), so every
such orphan is reparented to it rather than to init; :class:`Containment` then ends a run by
killing the program's process group and every child of ours that the run created (repeated
until none is left, since killing one reparents its own children to us) and reaping them.
Elsewhere the subreaper call is a no-op and only the process group is killed.

The runners also *follow* the program's main process: once it has exited, its leftovers get
:data:`LINGER_SECONDS` to finish writing, then they are killed too, so a background child that
holds the output open cannot turn a finished run into a timeout (pipe and pty judge alike).

When casino itself is stopped (SIGTERM, SIGHUP, Ctrl-C), :func:`stop_on_signals` turns the
signal into an exception, so every run unwinds through its cleanup (its processes killed, its
``casino-*`` temporary files removed) before casino exits with ``128 + signal``.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

from casino.cmdline import STOP_SIGNALS, Stopped

LINGER_SECONDS = 1.0
"""How long a program's leftovers may keep writing after its main process has exited."""

_PR_SET_CHILD_SUBREAPER = 36
_subreaper_pid: int | None = None


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux; once per process).

    Returns whether it is one; ``False`` (and nothing done) where the system cannot.
    """
    global _subreaper_pid
    if _subreaper_pid == os.getpid():
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False
    if done:
        _subreaper_pid = os.getpid()
    return done


def children() -> set[int]:
    """The pids of this process's children (living or not yet reaped).

    Read from ``/proc/self/task/*/children`` (one small file per thread of casino's, so the cost
    does not grow with the other processes on the machine); where the kernel has no such file,
    from every ``/proc/PID/stat`` instead.
    """
    try:
        return _children_of_tasks()
    except OSError:
        return _children_by_scan()


def _children_of_tasks() -> set[int]:
    """Children listed by each thread's ``children`` file (``OSError`` where there is none)."""
    found: set[int] = set()
    tasks = os.listdir("/proc/self/task")
    readable = 0
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children", "rb") as handle:
                found.update(int(pid) for pid in handle.read().split())
        except FileNotFoundError:
            continue  # the thread ended while we read
        readable += 1
    if not readable:
        raise FileNotFoundError("/proc/self/task/*/children")
    return found


def _children_by_scan() -> set[int]:
    """Children found by reading the parent of every process in ``/proc``."""
    me = os.getpid()
    found: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if entry.isdigit() and _parent_of(entry) == me:
            found.add(int(entry))
    return found


def _parent_of(pid: str) -> int | None:
    """The parent pid in ``/proc/PID/stat`` (``None`` if the process is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split()
    return int(fields[1]) if len(fields) > 1 else None


def _kill(pid: int) -> bool:
    """Kill ``pid``; ``False`` if that is not allowed (then it is not ours to wait for)."""
    try:
        os.kill(pid, signal.SIGKILL)
    except PermissionError:
        return False
    except OSError:
        pass
    return True


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


class Containment:
    """Everything one run starts, and its end: created just before the program is started.

    Use it as a context manager around the run (its exit calls :meth:`close`, also when the
    run is interrupted by an exception), and :meth:`follow` the program's main process.
    """

    def __init__(self) -> None:
        """Note the children this process already has: they belong to no run of ours."""
        become_subreaper()
        self._before = children()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._watcher: threading.Thread | None = None

    def __enter__(self) -> Containment:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def follow(self, pid: int, linger: float = LINGER_SECONDS) -> None:
        """Watch the main process ``pid`` (started by the caller, which reaps it): ``linger``
        seconds after it has exited, kill whatever it left behind."""
        waitid = getattr(os, "waitid", None)
        if waitid is None:
            return

        def watch() -> None:
            try:
                waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # see the exit; do not reap
            except ChildProcessError:
                return  # already reaped: the run is ending anyway
            if not self._closing.wait(linger):
                self.end(leader=pid)

        self._watcher = threading.Thread(target=watch, name=f"casino-follow-{pid}", daemon=True)
        self._watcher.start()

    def end(self, leader: int | None = None) -> None:
        """Kill and reap every process this run started and that is still there, except
        ``leader`` (the main process, which its starter reaps): first ``leader``'s process
        group, then each child of ours not there before, until none is left."""
        with self._lock:
            if leader is not None:
                with contextlib.suppress(OSError):
                    os.killpg(leader, signal.SIGKILL)  # its zombie keeps the group id ours
            keep = self._before | ({leader} if leader is not None else set())
            while left := children() - keep:
                killed = {pid for pid in left if _kill(pid)}
                keep |= left - killed
                for pid in killed:
                    _reap(pid)

    def signal(self, signum: int) -> None:
        """Send ``signum`` to each child of ours started since this containment began."""
        for pid in children() - self._before:
            with contextlib.suppress(OSError):
                os.kill(pid, signum)

    def close(self) -> None:
        """End the run: stop following, then kill and reap everything it started."""
        self._closing.set()
        try:
            self.end()
        except BaseException:  # a stop signal cut the cleanup short: finish it (one stop only)
            self.end()
            raise
        finally:
            if self._watcher is not None:
                self._watcher.join()


_requested: int | None = None
"""The signal that asked this process to stop, if one did."""
_in_task = False
"""Whether a pool worker is checking a transcript (else it has nothing to clean up)."""


def _stop(signum: int) -> KeyboardInterrupt:
    return KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)


def check_stop() -> None:
    """Raise the stop again if one was asked for: a program run in-process may have caught it
    (as a casino program catches Ctrl-C), and the next transcript must not start."""
    if _requested is not None:
        raise _stop(_requested)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """The first stop signal unwinds the program; later ones are ignored, so that the cleanup
    the first one started is not cut short."""
    global _requested
    if _requested is None:
        _requested = signum
        raise _stop(signum)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside: SIGTERM and SIGHUP raise :class:`Stopped`, SIGINT ``KeyboardInterrupt``,
    the first one only; a signal that is ignored (``nohup casino …``) stays ignored. Outside
    the main thread it does nothing (Python handles signals there only)."""
    global _requested
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _requested = None
    previous = {
        signum: signal.signal(signum, _on_signal)
        for signum in (signal.SIGINT, *STOP_SIGNALS)
        if signal.getsignal(signum) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _requested = None


def worker_signals() -> None:
    """A pool worker's initializer: SIGINT, SIGTERM and SIGHUP (unless ignored) stop its current
    run, which cleans up and is reported as stopped (see :func:`worker_task`); the worker
    itself stays, so that the pool shuts down in order (a worker that vanished would break it).
    """
    global _requested
    _requested = None
    for signum in (signal.SIGINT, *STOP_SIGNALS):
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _on_worker_signal)


def _on_worker_signal(signum: int, frame: FrameType | None) -> None:
    global _requested
    if _requested is None:
        _requested = signum
        if _in_task:
            raise _stop(signum)


@contextlib.contextmanager
def worker_task() -> Iterator[None]:
    """A pool worker's task: a stop (now, or asked for while the worker was idle) unwinds it,
    its runs cleaning up, and reaches the caller as ``KeyboardInterrupt``."""
    global _in_task
    _in_task = True
    try:
        check_stop()
        yield
        check_stop()
    finally:
        _in_task = False
