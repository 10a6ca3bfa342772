"""``casino web`` under load: 50 simulated members at 10 Hold'em tables for a minute.

    python benchmarks/bench_web.py [--members 50] [--tables 10] [--seconds 60]

Server and members run in this one process on loopback (see :mod:`casino.web.load`): it
prints hands finished, whether every hand kept its chips, messages per second, and the p50/p99
time from an action to every member of the table having a view that includes it.
"""

from __future__ import annotations

import argparse
import asyncio

from machine import describe

from casino.web.load import run_load


def main() -> None:
    """Run the load test and print its report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    options = parser.parse_args()
    print(describe())
    report = asyncio.run(run_load(options.members, options.tables, options.seconds))
    for line in report.lines():
        print(line)


if __name__ == "__main__":
    main()
