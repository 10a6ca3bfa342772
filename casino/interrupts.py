"""A program's signals: SIGTERM and SIGHUP as :class:`Stopped` (a kind of Ctrl-C), held while it
saves, let in only while it waits for input.

The program-entry contract (:func:`casino.cmdline.run_program`) turns the stop signals into
:class:`Stopped` while a program runs on the process's own streams
(:func:`stop_signals_raise`), so that it saves its state (``finally``) whichever way it is
stopped. A program with state to save runs inside :func:`signals_deferred` and reads through
:func:`interruptible_lines`, so that a signal stops it only while it waits for input, and saves
with :func:`run_uninterrupted`; :func:`scratch_directory` is a temporary folder made and
removed alike. Standard library only, so that the games can use it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, TextIO, TypeVar

STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop a program the way Ctrl-C does (with 128 + the signal's number)."""

T = TypeVar("T")


class Stopped(KeyboardInterrupt):
    """The process was told to stop by ``signum`` (SIGTERM, SIGHUP): handled like Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        """The signal's name: ``SIGTERM``."""
        return signal.Signals(self.signum).name


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def stop_signals_raise(own: bool) -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`Stopped` (on the process's own streams
    and in the main thread only; the previous handlers come back after)."""
    if not own or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) not in (signal.SIG_IGN, _raise_stopped):
            previous[signum] = signal.signal(signum, _raise_stopped)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            if signal.getsignal(signum) is not signal.SIG_IGN:  # else ignored since, for good
                signal.signal(signum, handler)


_DEFERRED: list[tuple[dict[int, Any], list[int]]] = []
"""The open :func:`signals_deferred` blocks of the main thread, innermost last: the handlers
each one replaced, and the signals it held."""


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C and the stop signals while inside (a save runs to its end); they are
    delivered on leaving. Outside the main thread, or where the system cannot, it does nothing.

    Two locks, because a signal sent to the process may be taken by any of its threads (a
    reader thread of the harness, a thread a C library started, as Tk's does): the main
    thread blocks them (so no system call of its own is cut short), and the Python handlers
    are replaced by one that notes the signal (a signal another thread took still runs its
    Python handler in the main thread: it is noted, not raised). On leaving, the mask comes
    back first (a signal it held is noted too), then the handlers, then the first signal
    noted is raised again, to the handler it would have met."""
    signals = {signal.SIGINT, *STOP_SIGNALS}
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "pthread_sigmask"
    ):
        yield
        return
    held: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    python = {signum for signum in signals if signal.getsignal(signum) is not None}
    previous = {signum: signal.signal(signum, note) for signum in python}  # None: not Python's
    before = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    _DEFERRED.append((previous, held))
    try:
        yield
    finally:
        _DEFERRED.pop()
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if held:
            signal.raise_signal(held[0])


@contextlib.contextmanager
def signals_allowed() -> Iterator[None]:
    """Let Ctrl-C and the stop signals in while inside (inside :func:`signals_deferred`):
    the handlers it replaced are back, and a signal it noted meanwhile is raised at once."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "pthread_sigmask"
    ):
        yield
        return
    handlers, held = _DEFERRED[-1] if _DEFERRED else ({}, [])
    swapped = {signum: signal.signal(signum, handler) for signum, handler in handlers.items()}
    before = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, *STOP_SIGNALS})
    try:
        if held:
            signal.raise_signal(held.pop(0))
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        for signum, handler in swapped.items():
            signal.signal(signum, handler)


def interruptible_lines(stream: TextIO) -> Iterator[str]:
    """The lines of ``stream``, with signals let in only while waiting for one.

    A program that runs inside :func:`signals_deferred` and reads through this is stopped by
    Ctrl-C, SIGTERM or SIGHUP only where it waits for input — never in the middle of a
    change or a save; a signal that comes at any other moment waits until then (or until
    the program leaves :func:`signals_deferred`, after its save)."""
    while True:
        with signals_allowed():
            line = stream.readline()
        if not line:
            return
        yield line


def run_uninterrupted(action: Callable[[], T]) -> T:
    """Run ``action`` (idempotent: a save) to its end whatever signals come: held while it
    runs, and if one still cuts it short (one already on its way when it began), it runs
    again. The first interruption is raised once it is done."""
    interruption: KeyboardInterrupt | None = None
    while True:
        try:
            with signals_deferred():
                result = action()
            break
        except KeyboardInterrupt as stop:
            interruption = interruption or stop
    if interruption is not None:
        raise interruption
    return result


@contextlib.contextmanager
def scratch_directory(prefix: str) -> Iterator[Path]:
    """A fresh temporary directory named ``prefix…``, removed on leaving — also when Ctrl-C
    or a stop signal ends the work inside: it is made and removed with the signals held
    (:func:`run_uninterrupted`), so a signal that comes while it is made or removed waits
    until that is done instead of leaving it behind."""
    import tempfile  # here: every program imports this module at start, few make a folder

    made: list[str] = []

    def make() -> None:
        if not made:
            made.append(tempfile.mkdtemp(prefix=prefix))

    try:
        run_uninterrupted(make)
        yield Path(made[0])
    finally:
        if made:
            run_uninterrupted(lambda: _remove_tree(made[0]))


def _remove_tree(path: str) -> None:
    """Remove the folder ``path`` and what it holds (one system call when it is empty, as a
    run's scratch folder often is), ignoring errors."""
    try:
        os.rmdir(path)
    except OSError:
        shutil.rmtree(path, ignore_errors=True)
