"""What each casino command costs to start: CPU of its cheapest real run beyond a bare Python's.

    python benchmarks/bench_startup.py [--runs 10] [--casino PATH] [--only WORD ...]

For every command ``casino --help`` lists (the harness's, from ``casino.__main__``'s
``HARNESS_COMMANDS``, and every program of ``casino.programs.PROGRAMS``) and for ``casino``
itself, the cheapest invocation that runs it: ``--help`` for most, and for ``replay`` also a
replay of an empty folder (which reads its options, looks for transcripts, finds none and says
so: status 2). Each is a fresh process, ``python -m casino ...`` with this checkout on
``PYTHONPATH`` (or ``--casino PATH``, an installed ``casino`` script, run as it is); its CPU
(user + system) is read from ``RUSAGE_CHILDREN`` before and after. The commands take turns,
one run of each per round, for ``--runs`` rounds, so that a change in the machine's load weighs
on all of them. Printed: the median and the lowest CPU of each, and the median beyond the
median of ``python -c pass`` and of ``python -I -S -c pass`` (issue 45 asks for at most 120 ms
beyond ``python -c pass``; a row above it is marked). The machine and its load come first. The
checkout's bytecode is compiled first (:func:`machine.compile_bytecode`: what an editable
install runs; an installed casino has its own from pip). It asserts nothing: figures only.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from machine import compile_bytecode, describe

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from casino.__main__ import HARNESS_COMMANDS  # noqa: E402
from casino.programs import PROGRAMS  # noqa: E402

TARGET_MS = 120.0
"""Issue 45: start-up CPU beyond ``python -c pass``, at most."""


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def invocations(empty: Path) -> list[tuple[str, ...]]:
    """The casino argv of each row: ``casino`` itself, each harness command, each program."""
    rows: list[tuple[str, ...]] = [("--help",), ("--version",)]
    for command in HARNESS_COMMANDS:
        rows.append((command, "--help"))
        if command == "replay":
            rows.append((command, str(empty)))
    rows.extend((name, "--help") for name in PROGRAMS)
    return rows


def cpu_of(argv: Sequence[str], env: dict[str, str], cwd: Path) -> float:
    """User + system CPU seconds of one run of ``argv`` (and of anything it started)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 2):
        sys.exit(f"{' '.join(argv)}: status {done.returncode}: {done.stderr[-500:]!r}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="rounds (default 10)")
    parser.add_argument(
        "--casino", metavar="PATH", help="an installed casino script instead of python -m casino"
    )
    parser.add_argument("--only", nargs="+", default=[], metavar="WORD", help="rows of these")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Measure every row and print the table."""
    args = parse(argv)
    python = sys.executable
    if args.casino:
        prefix = [args.casino]
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        how = f"{args.casino} (as installed)"
    else:
        prefix = [python, "-m", "casino"]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        how = f"python -m casino, PYTHONPATH={ROOT}"
    print(describe())
    print(compile_bytecode(ROOT))
    print(f"load {load()} at the start; {args.runs} runs each; {how}; python {python}")
    with tempfile.TemporaryDirectory() as scratch:
        cwd = Path(scratch)
        empty = cwd / "empty"
        empty.mkdir()
        rows = [
            row for row in invocations(empty) if not args.only or row[0].lstrip("-") in args.only
        ]
        bases = {
            "python -c pass": [python, "-c", "pass"],
            "python -I -S -c pass": [python, "-I", "-S", "-c", "pass"],
        }
        commands = {
            " ".join(["casino", *row]).replace(str(empty), "EMPTY"): [*prefix, *row] for row in rows
        }
        everything = {**bases, **commands}
        times: dict[str, list[float]] = {name: [] for name in everything}
        for _ in range(args.runs):
            for name, command in everything.items():
                times[name].append(cpu_of(command, env, cwd))
    base, bare = (statistics.median(times[name]) * 1000 for name in bases)
    print(f"load {load()} at the end")
    print(f"\n{'command':34} {'median':>8} {'min':>7} {'beyond -c pass':>15} {'beyond -I -S':>13}")
    for name, values in times.items():
        middle, low = statistics.median(values) * 1000, min(values) * 1000
        over = " > 120" if name in commands and middle - base > TARGET_MS else ""
        print(
            f"{name:34} {middle:6.0f}ms {low:5.0f}ms {middle - base:+13.0f}ms"
            f" {middle - bare:+11.0f}ms{over}"
        )
    print("(CPU = user + system of the process; beyond: its median less the bare Python's median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
