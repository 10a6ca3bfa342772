"""casino's one kind of process pool (``casino replay --jobs``, ``casino grade``, the video
poker analyzer and simulation): :func:`worker_pool`, whose workers a stop unwinds as
:mod:`casino.stopping` says.

A module of its own so that what does not run a pool (``casino replay`` with one job, every
game) does not pay for importing :mod:`multiprocessing`. Standard library only.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Literal

from casino.stopping import worker_signals


class WorkerPool(ProcessPoolExecutor):
    """A :class:`ProcessPoolExecutor` that, left by an exception, cancels the tasks not yet
    started before it waits for the running ones to end; left by a stop (Ctrl-C, SIGTERM,
    SIGHUP), it first passes the stop on to its workers, so that their tasks end soon too."""

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> Literal[False]:
        if exc_type is not None and issubclass(exc_type, KeyboardInterrupt):
            for pid in list(self._processes or ()):  # by pid; None once shut down
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGTERM)  # ends its task, else noted: worker_signals
        self.shutdown(wait=True, cancel_futures=exc_type is not None)
        return False


def worker_pool(workers: int) -> WorkerPool:
    """A pool of ``workers`` processes (forked where the system can fork, so that they share
    what the caller prepared), each started with :func:`worker_signals`: every process pool in
    casino is this one.

    Shutting it down signals no worker (the executor hands each one a sentinel), and a stop
    signal that reaches a worker (Ctrl-C goes to the whole process group) never prints a
    traceback there: it unwinds the task it is in (inside :func:`worker_task`) or is noted.
    A worker ends with the process that made the pool, even one killed by ``kill -9``.
    """
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    return WorkerPool(
        workers, mp_context=context, initializer=worker_signals, initargs=(os.getpid(),)
    )
