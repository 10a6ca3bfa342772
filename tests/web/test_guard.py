"""The pieces that keep one client from costing the others: the outbox, the message budget,
the quiet log. No network, no real waiting."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from casino.clock import FakeClock
from casino.web.guard import Bucket, Limits, Outbox, QuietLog


class Stuck:
    """A socket whose peer never reads: each send waits for ever (until cancelled)."""

    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.started = asyncio.Event()

    async def send_json(self, data: Any) -> None:
        self.started.set()
        await asyncio.Event().wait()
        self.sent.append(data)  # never reached


class Reader:
    """A socket whose peer reads everything at once."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)


def test_a_full_queue_drops_the_client_at_once_and_never_waits(
    caplog: pytest.LogCaptureFixture,
) -> None:
    aborted: list[bool] = []

    async def body() -> None:
        stuck = Stuck()
        outbox = Outbox(stuck, "Max", Limits(queue=3), lambda: aborted.append(True))
        outbox.post(0)
        await stuck.started.wait()  # the first message is being sent, for ever
        for k in range(1, 4):
            outbox.post(k)  # three wait in the queue
        with pytest.raises(ConnectionError):
            outbox.post(4)  # one more: dropped, without waiting
        with pytest.raises(ConnectionError):
            outbox.post(5)
        await asyncio.wait([outbox.task])
        assert outbox.task.cancelled() and stuck.sent == []

    with caplog.at_level(logging.WARNING, "casino.web"):
        asyncio.run(asyncio.wait_for(body(), 30))
    assert aborted == [True]
    assert caplog.text.count("dropped 'Max': does not read (3 messages waiting)") == 1


def test_a_send_past_its_deadline_drops_the_client(caplog: pytest.LogCaptureFixture) -> None:
    aborted: list[bool] = []

    async def body() -> None:
        outbox = Outbox(Stuck(), "Max", Limits(send_timeout=0), lambda: aborted.append(True))
        outbox.post({"type": "state"})
        await asyncio.wait([outbox.task])
        assert outbox.dropped == "does not read (a send took over 0 s)"

    with caplog.at_level(logging.WARNING, "casino.web"):
        asyncio.run(asyncio.wait_for(body(), 30))
    assert aborted == [True] and caplog.text.count("dropped 'Max'") == 1


def test_a_reading_client_gets_every_message_in_order_and_a_flush() -> None:
    async def body() -> list[Any]:
        reader = Reader()
        outbox = Outbox(reader, "Bo", Limits(queue=4), lambda: None)
        for k in range(4):
            outbox.post(k)
        await outbox.flush()
        assert outbox.dropped is None and outbox.task.done()
        return reader.sent

    assert asyncio.run(asyncio.wait_for(body(), 30)) == [0, 1, 2, 3]


def test_the_message_budget_refills_on_the_clock_and_a_flood_is_named() -> None:
    clock = FakeClock()
    bucket = Bucket(clock, rate=2, burst=4)
    assert [bucket.take() for _ in range(6)] == [True] * 4 + [False] * 2
    clock.advance(1)  # two more
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    assert not bucket.flooding
    for _ in range(4):
        bucket.take()
    assert bucket.over == 5 and bucket.flooding
    clock.advance(100)  # never more than the burst at once
    assert [bucket.take() for _ in range(5)] == [True] * 4 + [False]


def test_the_log_keeps_a_few_lines_per_party_and_counts_the_rest() -> None:
    clock = FakeClock()
    limits = Limits(log_lines=3, log_total=5, log_period=60)
    quiet = QuietLog(clock, limits)

    def record(who: str, text: str = "refused from %r: %s") -> logging.LogRecord:
        return logging.LogRecord("casino.web", logging.WARNING, "", 0, text, (who, "x"), None)

    kept = [quiet.filter(record("Max")) for _ in range(10)]
    assert kept == [True] * 3 + [False] * 7
    assert [quiet.filter(record("Bo")) for _ in range(3)] == [True, True, False]  # 5 in all
    info = logging.LogRecord("casino.web", logging.INFO, "", 0, "seat freed", (), None)
    assert quiet.filter(info)  # only warnings are counted
    clock.advance(60)
    again = record("Max")
    assert quiet.filter(again)
    assert again.getMessage() == "refused from 'Max': x (and 7 more like it not logged)"
    bo = record("Bo")
    assert quiet.filter(bo) and bo.getMessage().endswith("(and 1 more like it not logged)")
