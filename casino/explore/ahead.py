"""Judging ahead: the program's runs on the sessions explore will try next, in a pool of
processes, while the explore loop goes on in order (``casino explore --jobs N``).

What explore reports must not depend on ``--jobs``: the loop still takes each verdict in
the order ``--jobs 1`` would (the first difference is the lowest-numbered, the shrinker keeps
the first candidate that still differs), counts a run only when it takes its verdict, and
makes every reference recording here (casino's reference runs in this process, under the
coverage tracer). Only the judging of the program's runs moves to casino's process pool
(:func:`casino.pool.worker_pool`, as ``casino replay --jobs`` and ``casino grade --jobs``):
a pool of processes, not threads, since a run's :class:`~casino.harness.runners.procs.Containment`
ends every child of its process started while it ran (a thread's run would kill another's).
A verdict asked for before it was judged ahead is judged on the spot, and one judged ahead
but never asked for is dropped unseen. A program run in this process (the in-process
runner) is always judged here.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterable
from concurrent.futures import Future

from casino.explore.judge import Program, judge
from casino.harness.model import Transcript
from casino.harness.runners.base import RunnerName
from casino.harness.session import TranscriptResult


class Ahead:
    """Verdicts on transcripts judged ahead of need, in ``jobs`` worker processes."""

    def __init__(self, program: Program, jobs: int) -> None:
        from casino.harness.runners.procs import Containment
        from casino.pool import worker_pool  # a pool's imports: only with --jobs

        self.program = program
        self.jobs = jobs
        self._pending: dict[Transcript, Future[TranscriptResult]] = {}
        self._stack = contextlib.ExitStack()
        # The workers' leftovers (if one dies) come to this process and end with the pool.
        self._contained = self._stack.enter_context(Containment())
        self._pool = self._stack.enter_context(worker_pool(jobs))

    @classmethod
    def of(cls, program: Program, jobs: int) -> Ahead | None:
        """An :class:`Ahead` for ``program``, or ``None`` where it would not help (one job)
        or not be safe (a program run in this process, on the main thread's state)."""
        if jobs < 2 or program.runner.name is RunnerName.INPROC:
            return None
        return cls(program, jobs)

    @property
    def busy(self) -> int:
        """Transcripts being judged or waiting for a worker."""
        return sum(not future.done() for future in self._pending.values())

    def submit(self, transcripts: Iterable[Transcript]) -> None:
        """Judge ``transcripts`` ahead, in their order, while fewer than ``jobs`` are busy
        (one already judged or being judged is not judged again)."""
        busy = self.busy
        for transcript in transcripts:
            if busy >= self.jobs:
                return
            if transcript not in self._pending:
                self._pending[transcript] = self._pool.submit(_judged, transcript, self.program)
                busy += 1

    def take(self, transcript: Transcript) -> TranscriptResult:
        """The verdict on ``transcript``: the one judged ahead, waited for, or judged now."""
        future = self._pending.pop(transcript, None)
        if future is None:
            return judge(transcript, self.program)
        return future.result()

    def close(self, *, stopped: bool = False) -> None:
        """Drop what waits for a worker and end the pool (``stopped``: Ctrl-C or a stop
        signal, each worker's run ended first)."""
        self._pending.clear()
        if stopped:
            self._contained.signal(signal.SIGTERM)  # (Ctrl-C reached them already; SIGTERM not)
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._stack.close()


def _judged(transcript: Transcript, program: Program) -> TranscriptResult:
    """:func:`judge` in a pool worker: a stop unwinds its run and reaches the caller."""
    from casino.stopping import worker_task

    with worker_task():
        return judge(transcript, program)
