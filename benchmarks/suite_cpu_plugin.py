"""A pytest plugin that notes the CPU each test costs: the test process's own and that of
every child it waited for (``getrusage``), as :mod:`bench_suite` reports it.

Loaded by ``bench_suite.py`` with ``-p suite_cpu_plugin`` (``benchmarks/`` on ``PYTHONPATH``);
it writes one JSON line per test to the file named by ``$SUITE_CPU_OUT``.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Generator
from typing import Any

import pytest


def cpu_seconds() -> float:
    """CPU of this process and of its waited-for descendants so far (user + system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Generator[None, None, None]:
    """Time one test with its fixtures' set-up and tear-down, and note it."""
    cpu, wall = cpu_seconds(), time.monotonic()
    yield
    row = {"test": item.nodeid, "cpu": cpu_seconds() - cpu, "wall": time.monotonic() - wall}
    with open(os.environ["SUITE_CPU_OUT"], "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
