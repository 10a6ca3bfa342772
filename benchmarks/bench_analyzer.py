"""Exact analyzer speed and memory: the full Double Bonus 10/7 analysis, cold and warm.

    python benchmarks/bench_analyzer.py [--paytable NAME] [--jobs N ...]

Each scenario runs in a fresh interpreter (so start-up, imports and table builds count) and
reports its wall time, its CPU time (with its workers': a figure the load of a shared machine
moves less), the wall time of each phase, the return it found, and peak resident memory from
``resource.getrusage``: the process's own, and its largest worker's (``RUSAGE_CHILDREN``)
when the analysis forks. *Cold* starts from an empty table cache directory (as CI does);
*warm* reuses the tables that the cold run stored.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from machine import describe, peak_memory_mib


def scenario(paytable: str, jobs: int) -> None:
    """One run, in this process: print a JSON line with the figures."""
    start = time.perf_counter()
    phases: dict[str, float] = {}

    def mark(phase: str) -> None:
        phases[phase] = time.perf_counter() - start - sum(phases.values())

    from casino.cards import evaluator  # noqa: F401  (builds or loads the evaluator's tables)

    mark("evaluator tables")
    from casino.videopoker.handtable import payline_by_hand

    payline_by_hand()
    mark("pay-line table")
    from casino.videopoker.holdcounts import subset_counts

    subset_counts()
    mark("subset counts")
    from casino.videopoker.analyzer import analyze
    from casino.videopoker.paytable import PAYTABLES

    analysis = analyze(PAYTABLES[paytable], jobs=jobs)
    mark("analysis")
    own, children = peak_memory_mib()
    rate = analysis.return_rate
    print(
        json.dumps(
            {
                "phases": phases,
                "return": f"{rate.numerator}/{rate.denominator}",
                "percent": float(rate * 100),
                "own_mib": own,
                "worker_mib": children,
            }
        )
    )


def children_cpu() -> float:
    """CPU seconds (user + system) of every child this process has waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--paytable", default="double-bonus-10-7")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--scenario", nargs=2, metavar=("PAYTABLE", "JOBS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.scenario:
        scenario(args.scenario[0], int(args.scenario[1]))
        return

    print(describe())
    print(f"pay table: {args.paytable}, bet 5, optimal strategy")
    print()
    print(
        "| run | jobs | wall s | CPU s | evaluator | pay lines | subset counts | analysis "
        "| peak MiB (own + worker) | return |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "CASINO_CACHE_DIR": cache}
        for jobs in args.jobs:
            for run in ("cold", "warm"):
                if run == "cold":
                    for stored in os.listdir(cache):
                        os.unlink(os.path.join(cache, stored))
                command = [sys.executable, __file__, "--scenario", args.paytable, str(jobs)]
                began, cpu = time.perf_counter(), children_cpu()
                result = subprocess.run(
                    command, env=env, capture_output=True, text=True, check=True
                )
                wall = time.perf_counter() - began  # interpreter start-up included
                cpu = children_cpu() - cpu  # its workers' too
                figures = json.loads(result.stdout)
                phases = " | ".join(f"{seconds:.2f}" for seconds in figures["phases"].values())
                memory = f"{figures['own_mib']:.0f} + {figures['worker_mib']:.0f}"
                print(
                    f"| {run} | {jobs} | {wall:.2f} | {cpu:.2f} | {phases} | {memory} "
                    f"| {figures['return']} = {figures['percent']:.7f}% |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
