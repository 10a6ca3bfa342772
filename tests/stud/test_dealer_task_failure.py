"""A dealer's login task that fails with an error (a bug, not a player's doing) ends the
seating with :class:`~casino.stopping.TaskFailed`: before, the error vanished with the task and
the dealer waited for a seat that never came."""

from __future__ import annotations

import asyncio

import pytest

from casino.clock import MonotonicClock
from casino.stopping import TaskFailed
from casino.stud import dealer


class Connection:
    """A connection that takes what it is sent and notes that it was hung up."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed = False

    async def send(self, text: str) -> None:
        self.sent.append(text)

    async def close(self) -> None:
        self.closed = True


def test_a_login_that_fails_with_a_bug_ends_the_seating(monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken_log_in(*args: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(dealer, "log_in", broken_log_in)
    connection = Connection()

    async def seat() -> None:
        queue: asyncio.Queue[object] = asyncio.Queue()
        queue.put_nowait(connection)
        seating = dealer.gather(
            queue,  # type: ignore[arg-type]
            2,
            100,
            MonotonicClock(),
            5.0,
            dealer.QuietObserver(),
        )
        await asyncio.wait_for(seating, 120)  # the bound only ends a test that would hang

    with pytest.raises(TaskFailed, match=r"^a login stopped: ZeroDivisionError: boom$"):
        asyncio.run(seat())
    assert connection.closed  # still told the table is gone, and hung up
