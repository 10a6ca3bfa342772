"""A short run of the load test (the ten-minute one is ``benchmarks/bench_web.py``): the real
``casino web`` in its own process, eight members over WebSockets, the store read after."""

from __future__ import annotations

import asyncio
import sys

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from casino.web.load import Memory, run_load


def test_members_at_tables_finish_hands_and_keep_the_chips() -> None:
    run = run_load(members=8, tables=2, seconds=3.0, seed=4, warmup=1, every=0.5, hands=2)
    report = asyncio.run(run)  # 3 s, and on until each table has finished 2 hands
    books = report.books
    assert books.members == 8 and books.issued == 8 * 1000 and report.played >= 3.0
    assert books.hands >= 2 * 2 and books.unbalanced == 0 and books.voided <= 2
    assert books.wallets == books.issued and report.conserved  # after voiding the open hands
    assert books.engine == "SQLite, journal_mode=wal, synchronous=FULL"
    assert report.database.endswith("casino.db")
    assert report.latencies and report.lost == 0 and report.messages > 0
    assert report.status == 143 and report.log == []  # stopped by SIGTERM; no warning
    assert report.lines()[0] == "8 members at 2 tables for 3 s"
    if sys.platform == "linux":  # /proc: the server's memory and processor time
        assert report.memory.settled and report.memory.settled[0] > 10_000  # KiB
        assert len(report.memory.cpu) == 2 and report.memory.cpu[1][1] > report.memory.cpu[0][1]


def test_memory_is_flat_only_when_every_sample_after_the_warmup_is_within_ten_percent() -> None:
    memory = Memory(warmup=10.0, samples=[(0.0, 50), (5.0, 200), (10.0, 100), (20.0, 110)])
    assert memory.settled == [100, 110] and memory.flat and round(memory.drift, 3) == 0.1
    assert "flat" in memory.line() and "NOT" not in memory.line()
    memory.samples.append((30.0, 89))  # -11%
    assert not memory.flat and "NOT flat" in memory.line()
    assert not Memory(warmup=10.0, samples=[(0.0, 50)]).flat  # nothing after the warm-up
