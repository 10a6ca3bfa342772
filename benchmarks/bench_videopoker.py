"""Video poker simulation speed: hands per second (wall, and per CPU second with the workers'),
one process and --jobs 2, and what a million hands at bet 5 return. Prints figures (and the
machine); asserts nothing.

    python benchmarks/bench_videopoker.py [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

from machine import describe

from casino.videopoker.paytable import PayLine
from casino.videopoker.simtable import load_tables
from casino.videopoker.simulate import simulate


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of the workers it has waited for."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    deals, bet = options.deals, 5
    credit = bet * deals  # the credit can never run out, and Credit % is the return
    print(describe())

    started = time.perf_counter()
    load_tables()
    print(f"strategy tables: {time.perf_counter() - started:.2f} s (build or cache load)")

    for jobs in (1, 2):
        started, cpu = time.perf_counter(), cpu_seconds()
        stats = simulate(credit, bet, deals, seed=options.seed, jobs=jobs)
        seconds, cpu = time.perf_counter() - started, cpu_seconds() - cpu
        print(
            f"jobs={jobs}: {deals:,} hands in {seconds:.2f} s = {deals / seconds:,.0f} hands/s;"
            f" CPU {cpu:.2f} s = {deals / cpu:,.0f} hands per CPU s"
        )

    print(
        f"return: {100 * stats.returned / stats.wagered:.2f}% of the credits bet "
        "(exact for the seed strategy: 100.15%, casino videopoker analyze --strategy seed)"
    )
    exact = {PayLine.JACKS_OR_BETTER: 19.04, PayLine.TWO_PAIR: 12.49, PayLine.THREE_OF_A_KIND: 7.24}
    for line, share in exact.items():
        seen = 100 * stats.counts[line] / deals
        print(f"  {line.value.lower():16} {seen:6.2f}%  (exact {share:.2f}%)")

    command = [sys.executable, "-m", "casino.videopoker", "-s", str(credit), "5", str(deals)]
    started = time.perf_counter()
    subprocess.run([*command, "--seed", str(options.seed)], check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    print(f"whole command (start-up included), one process: {seconds:.2f} s")


if __name__ == "__main__":
    main()
