"""Run every benchmark the README quotes, with the README's arguments, and save what they print.

Run: ``python benchmarks/run_all.py`` (every figure; about an hour on 2 cores) or
``python benchmarks/run_all.py --quick`` (the same scripts with small counts, a few minutes: to
see that each still runs, not for figures). ``--only eval stud`` and ``--skip web`` choose
benchmarks by the names ``--list`` prints.

The report goes to ``docs/measured/DATE-quick.md`` or ``docs/measured/DATE.md`` (``--out``
chooses the folder): the date and time, the machine (:func:`machine.describe`), the load average
before and after each benchmark, then each one's command, its wall and CPU seconds (its process
and children) and its whole output. Each script runs its peers beside casino in the same rounds
(treys, eval7, phevaluator, pokerkit, cram, prysk, the plain grading loop, a copy of main): a
figure in the README is changed from this report, never left when the report says otherwise.

Nothing here is asserted: a test (``tests/test_benchmarks_listed.py``) only checks that every
``bench_*.py`` in this folder is in :data:`BENCHMARKS`, so a new benchmark cannot be forgotten.
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from machine import describe

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Benchmark:
    """One script, the arguments of the README's figure and small ones for ``--quick``."""

    name: str
    script: str
    full: tuple[str, ...]
    quick: tuple[str, ...]


BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("eval", "bench_eval.py", ("--repeats", "7"), ("--hands", "20000", "--repeats", "1")),
    Benchmark("analyzer", "bench_analyzer.py", (), ("--jobs", "1")),
    Benchmark("videopoker", "bench_videopoker.py", (), ("--deals", "50000")),
    Benchmark(
        "harness",
        "bench_harness.py",
        ("--rounds", "3"),
        ("--count", "50", "--process-count", "4", "--rounds", "1"),
    ),
    Benchmark(
        "grade",
        "bench_grade.py",
        ("--submissions", "60", "--rounds", "3"),
        ("--submissions", "6", "--rounds", "1"),
    ),
    Benchmark(
        "overhead",
        "bench_overhead.py",
        ("--repeat", "5"),
        (
            "--shell-runs",
            "20",
            "--java-runs",
            "2",
            "--trivial",
            "20",
            "--idle",
            "20",
            "--repeat",
            "1",
        ),
    ),
    Benchmark("edges", "bench_edges.py", (), ("--runs", "5")),
    Benchmark("startup", "bench_startup.py", (), ("--runs", "2")),
    Benchmark("draw", "bench_draw.py", (), ()),
    Benchmark(
        "stud",
        "bench_stud.py",
        ("--hands", "3000"),
        ("--hands", "100", "--tournaments", "2", "--rounds", "1"),
    ),
    Benchmark(
        "holdem",
        "bench_holdem.py",
        ("--rounds", "5"),
        (
            "--hands",
            "100",
            "--samples",
            "5000",
            "--spots",
            "5",
            "--bot-hands",
            "100",
            "--rounds",
            "1",
        ),
    ),
    Benchmark("domino", "bench_domino.py", (), ("--hands", "100")),
    Benchmark(
        "web",
        "bench_web.py",
        ("--seconds", "120", "--warmup", "30"),
        ("--members", "8", "--tables", "2", "--seconds", "6", "--warmup", "2"),
    ),
    Benchmark("kayles", "bench_kayles.py", (), ()),
    Benchmark("explore", "bench_explore.py", (), ("--sessions", "20")),
    Benchmark("play", "bench_play.py", (), ("--games", "2")),
    Benchmark("similarity", "bench_similarity.py", (), ("--submissions", "10", "--methods", "3")),
    Benchmark("flood", "bench_flood.py", (), ("--files", "3000")),
    Benchmark("suite", "bench_suite.py", (), ("--top", "5", "tests/test_numbers.py")),
    Benchmark(
        "ast-mutants", "ast_mutants.py", (), ("--count", "4", "--sessions", "10", "--search", "1")
    ),
)
"""Every benchmark script of this folder, in the README's order where it quotes them."""


def load() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` prints them."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def run(bench: Benchmark, quick: bool) -> tuple[str, bool]:
    """Run one benchmark: its report section (command, load, seconds, output), and if it ran."""
    argv = [sys.executable, str(HERE / bench.script), *(bench.quick if quick else bench.full)]
    before, start = load(), time.monotonic()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=HERE.parent, capture_output=True, text=True, errors="replace")
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic() - start
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    shown = " ".join(["python", f"benchmarks/{bench.script}", *argv[2:]])
    status = "" if done.returncode == 0 else f", **exit status {done.returncode}**"
    section = (
        f"## {bench.name}\n\n`{shown}`: {wall:.1f} s of wall time, {cpu:.1f} s of CPU{status}; "
        f"load {before} before, {load()} after.\n\n```\n{done.stdout.rstrip()}\n"
        + (f"--- stderr ---\n{done.stderr.rstrip()}\n" if done.stderr.strip() else "")
        + "```\n"
    )
    return section, done.returncode == 0


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: does each still run")
    parser.add_argument("--only", nargs="+", default=[], metavar="NAME", help="just these")
    parser.add_argument("--skip", nargs="+", default=[], metavar="NAME", help="all but these")
    parser.add_argument("--out", type=Path, default=HERE.parent / "docs" / "measured")
    parser.add_argument("--list", action="store_true", help="print the names and stop")
    args = parser.parse_args(argv)
    names = {bench.name for bench in BENCHMARKS}
    unknown = sorted(set(args.only + args.skip) - names)
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)} (known: {', '.join(sorted(names))})")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmarks in turn and save the report; 1 when one of them failed."""
    args = parse(argv)
    chosen = [
        b for b in BENCHMARKS if (not args.only or b.name in args.only) and b.name not in args.skip
    ]
    if args.list:
        print("\n".join(f"{b.name}\t{b.script}" for b in chosen))
        return 0
    now = datetime.datetime.now(datetime.UTC)
    path = args.out / f"{now:%Y-%m-%d}{'-quick' if args.quick else ''}.md"
    sections = [
        f"# Benchmarks of {now:%Y-%m-%d %H:%M} UTC"
        f"{' (--quick: not figures)' if args.quick else ''}\n\n"
        f"{describe()}; load {load()} at the start.\n"
    ]
    failed = 0
    for bench in chosen:
        print(f"{bench.name} ...", file=sys.stderr, flush=True)
        section, ran = run(bench, args.quick)
        sections.append(section)
        failed += not ran
        write_atomically(path, "\n".join(sections))
    print(f"{path}: {len(chosen)} benchmarks, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
