"""``casino web`` under load: 200 simulated members at 40 Hold'em tables for 10 minutes.

    python benchmarks/bench_web.py [--members 200] [--tables 40] [--seconds 600]
                                   [--warmup 60] [--every 5] [--database FILE|URL]

The server is the real ``casino web``, started as a child process on loopback with its
store in an SQLite file ``casino.db`` (WAL) in a temporary folder unless ``--database`` says
otherwise; the members are WebSocket clients in this process (see :mod:`casino.web.load`).
It prints hands finished, whether the store's books balance (every member's wallet plus the
house against what was issued), messages per second, the p50/p99 time from an action to
every member of the table having a view that includes it, and the server's resident memory
after the warm-up, at the end, its min and max, and whether it stayed flat (±10%).
"""

from __future__ import annotations

import argparse
import asyncio

from machine import describe

from casino.web.load import run_load


def main() -> None:
    """Run the load test and print its report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--warmup", type=float, default=60.0, help="seconds before memory counts")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between memory samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", help="default: casino.db in a temporary folder")
    options = parser.parse_args()
    print(describe(), flush=True)
    report = asyncio.run(
        run_load(
            options.members,
            options.tables,
            options.seconds,
            seed=options.seed,
            database=options.database,
            warmup=options.warmup,
            every=options.every,
        )
    )
    for line in report.lines():
        print(line)


if __name__ == "__main__":
    main()
