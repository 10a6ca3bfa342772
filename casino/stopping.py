"""Stopping: a stop signal unwinds casino's work once, in casino's own process and in the
workers of its process pools, and never prints a traceback.

When casino itself is stopped (SIGTERM, SIGHUP, Ctrl-C), :func:`stop_on_signals` turns the
signal into an exception, so every run unwinds through its cleanup (its processes killed, its
``casino-*`` temporary files removed) before casino exits with ``128 + signal``.

Every process pool in casino (``casino replay --jobs``, ``casino grade``, the video poker
analyzer and simulation) is :func:`casino.pool.worker_pool`: its workers start with
:func:`worker_signals`, run each task inside :func:`worker_task`, and are shut down without a
signal. A worker also ends when casino's process does, however it ends (``kill -9``, the
kernel's out-of-memory killer): on Linux the kernel tells it (``PR_SET_PDEATHSIG``,
:data:`ORPHAN_SIGNAL`), and its task unwinds first, so that what the task started (a student's
program) is killed too; elsewhere a killed casino leaves its idle workers waiting for ever.
Standard library only, so that the games can use it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

from casino.interrupts import STOP_SIGNALS, Stopped

if TYPE_CHECKING:
    import asyncio

_requested: int | None = None
"""The signal that asked this process to stop, if one did."""
_in_task = False
"""Whether a pool worker is running a task (else it has nothing to clean up)."""
_parent: int | None = None
"""In a pool worker: the process of casino's that started it."""
_orphaned = False
"""In a pool worker: casino's process has ended, so the worker ends after its task unwinds."""

ORPHAN_SIGNAL = getattr(signal, "SIGUSR2", None)
"""The signal the kernel sends a pool worker when the thread of casino's that started it ends
(a signal of its own: Ctrl-C and SIGTERM keep their meaning)."""
_PR_SET_PDEATHSIG = 1


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


def worker_signals(parent: int | None = None) -> None:
    """A pool worker's initializer: SIGINT, SIGTERM and SIGHUP (unless ignored) stop its current
    run, which cleans up and is reported as stopped (see :func:`worker_task`); the worker
    itself stays, so that the pool shuts down in order (a worker that vanished would break it).
    Given the ``parent`` process's pid, the worker also ends once that process has ended
    (:func:`_die_with`)."""
    global _requested
    _requested = None
    for signum in (signal.SIGINT, *STOP_SIGNALS):
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _on_worker_signal)
    if parent is not None:
        _die_with(parent)


def _die_with(parent: int) -> None:
    """Have the kernel send :data:`ORPHAN_SIGNAL` when ``parent``'s thread that forked this
    worker ends (Linux), and end now if ``parent`` already has."""
    global _parent
    _parent = parent
    if ORPHAN_SIGNAL is None or not sys.platform.startswith("linux"):
        return
    import ctypes

    signal.signal(ORPHAN_SIGNAL, _on_orphan_signal)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(ORPHAN_SIGNAL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the worker cannot be told
        return
    if os.getppid() != parent:  # casino ended before the kernel was asked
        os._exit(128 + int(signal.SIGTERM))


def _on_orphan_signal(signum: int, frame: FrameType | None) -> None:
    """casino's process has ended (not only the thread that started this worker: then the
    worker's parent is still casino): unwind the task, if any, then end (:func:`worker_task`)."""
    global _orphaned, _requested
    if os.getppid() == _parent:
        return
    _orphaned = True
    if not _in_task:
        os._exit(128 + int(signal.SIGTERM))
    if _requested is None:
        _requested = int(signal.SIGTERM)
        raise _stop(signal.SIGTERM)


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
        if _orphaned:  # the task has unwound: nobody waits for its result
            os._exit(128 + int(signal.SIGTERM))


class TaskFailed(RuntimeError):
    """A task a server runs (a table, a game, the taking of logins) ended with an error: the
    server ends with it, cleanly, and the program-entry contract says so in one line (a bug in
    casino, status 70) instead of the task dying unseen."""


def failure_of(task: asyncio.Task[Any], what: str) -> TaskFailed | None:
    """The :class:`TaskFailed` that says ``what`` (``table 1``) stopped, if ``task`` (done)
    ended with an error; ``None`` if it returned or was cancelled."""
    if task.cancelled() or task.exception() is None:
        return None
    error = task.exception()
    words = str(error).partition("\n")[0][:200]
    failed = TaskFailed(f"{what} stopped: {type(error).__name__}{': ' if words else ''}{words}")
    failed.__cause__ = error
    return failed
