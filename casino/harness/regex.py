"""Matching an ``out_re`` pattern within a time budget.

Python's ``re`` backtracks: a pattern with nested quantifiers (``(a+)+$``) can take longer
than the universe on 40 characters of a student's output, and it holds the interpreter while
it does. So a pattern is matched in a forked child process with a deadline
(:data:`BUDGET_SECONDS`): past it the child is killed and :class:`PatternTimeout` names the
pattern; the verdict is then a FAIL saying so (:mod:`casino.harness.diff`). (Refusing nested
quantifiers when a transcript is loaded would not catch every slow pattern, and would refuse
harmless ones; a linear-time engine is not in the standard library.)

Where there is no ``fork`` the match runs here, unbounded.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import time
from collections.abc import Callable
from typing import TypeVar

BUDGET_SECONDS = 2.0
"""How long one match may take."""

T = TypeVar("T")


class PatternTimeout(Exception):
    """Control flow, not an error: a pattern that did not finish matching within its budget."""

    def __init__(self, pattern: str, seconds: float) -> None:
        super().__init__(
            f"the out_re pattern {pattern!r} did not finish matching within {seconds:g} s"
        )
        self.pattern = pattern
        self.seconds = seconds


def fullmatch(pattern: re.Pattern[str], text: str, seconds: float = BUDGET_SECONDS) -> bool:
    """Whether ``pattern`` matches all of ``text`` (:class:`PatternTimeout` past ``seconds``)."""
    return bounded(lambda: pattern.fullmatch(text) is not None, pattern.pattern, seconds)


Found = tuple[int, dict[str, str | None]]
"""Where a match ends, and its named groups."""


def match(pattern: re.Pattern[str], text: str, seconds: float = BUDGET_SECONDS) -> Found | None:
    """Where ``pattern`` matching the start of ``text`` ends and its named groups (``None``:
    no match; :class:`PatternTimeout` past ``seconds``)."""

    def find() -> Found | None:
        found = pattern.match(text)
        return None if found is None else (found.end(), found.groupdict())

    return bounded(find, pattern.pattern, seconds)


def bounded(work: Callable[[], T], pattern: str, seconds: float) -> T:
    """``work()`` computed in a forked child, its result pickled back; killed past
    ``seconds`` (:class:`PatternTimeout`)."""
    if not hasattr(os, "fork"):
        return work()
    import pickle  # here: only a pattern that may be slow pays for it

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            data = pickle.dumps(work())
            with open(write, "wb") as out:
                out.write(data)
        finally:
            os._exit(0)
    os.close(write)
    try:
        got = _read_all(read, time.monotonic() + seconds)
    finally:
        os.close(read)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    if got is None:
        raise PatternTimeout(pattern, seconds)
    result: T = pickle.loads(got)  # our own child's, from a pipe only it had
    return result


def _read_all(fd: int, deadline: float) -> bytes | None:
    """Everything until end of file, or ``None`` if the deadline passes first."""
    chunks: list[bytes] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            return None
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks) if chunks else None
        chunks.append(chunk)
