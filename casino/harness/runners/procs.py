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

How a stop signal unwinds a run (in casino or in a pool worker) is :mod:`casino.stopping`.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading

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
        self._pidfds: list[int] = []

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

    def exit_descriptor(self, pid: int) -> int | None:
        """A descriptor that becomes readable once the main process ``pid`` has exited (a
        pidfd; closed with this containment), for a runner that waits in a selector of its own
        and then ends the leftovers itself (``end(leader=pid)`` after :data:`LINGER_SECONDS`);
        where the system has none, ``None``, and ``pid`` is :meth:`follow`-ed by a thread."""
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
            self.follow(pid)
            return None
        self._pidfds.append(fd)
        return fd

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
            for fd in self._pidfds:
                os.close(fd)
            self._pidfds.clear()
