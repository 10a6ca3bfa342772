"""A short run of the load test (the minute-long one is ``benchmarks/bench_web.py``)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from casino.web.load import run_load


def test_members_at_tables_finish_hands_and_keep_the_chips() -> None:
    report = asyncio.run(run_load(members=8, tables=2, seconds=3.0, seed=4))
    assert report.hands >= 2 and report.unbalanced == 0 and report.unfinished == 0
    assert report.latencies and report.messages > 0
    assert report.lines()[0] == "8 members at 2 tables for 3 s"
