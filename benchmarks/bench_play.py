"""How many games a second casino plays against a program (``play:`` transcripts), per runner.

    python benchmarks/bench_play.py [--games N] [--java DIR]

Plays Project C's three bonus cases (``transcripts/nimsys/project-c/ai-bonus-*.yaml``, 110
games each) against casino's own Nimsys in process, then through a pipe and a terminal
(``python -m casino.nimsys``), and prints games per second and the CPU time casino and the
program used together. With ``--java DIR`` (a folder holding a compiled ``Nimsys.class``) it
also plays ``java Nimsys`` there. ``--games N`` sets the games at each size instead of 10. It
asserts nothing: figures only.
"""

from __future__ import annotations

import argparse
import io
import re
import resource
import shlex
import sys
import tempfile
import time
from pathlib import Path

from machine import describe

from casino.harness import cli

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted((ROOT / "transcripts" / "nimsys" / "project-c").glob("ai-bonus-*.yaml"))


def cases(directory: Path, games: int) -> list[Path]:
    """The three bonus cases, with ``games`` games at each size, written into ``directory``."""
    written = []
    for case in CASES:
        target = directory / case.name
        target.write_text(re.sub(r"games: \d+", f"games: {games}", case.read_text()))
        written.append(target)
    return written


def cpu_seconds() -> float:
    """CPU time of this process and its waited-for children so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(paths: list[Path], *options: str | Path) -> tuple[float, float, str]:
    """Replay ``paths``; seconds, CPU seconds and the score line."""
    out = io.StringIO()
    cpu, started = cpu_seconds(), time.perf_counter()
    cli.main(["replay", "--score", *map(str, options), *map(str, paths)], stdout=out)
    seconds = time.perf_counter() - started
    return seconds, cpu_seconds() - cpu, out.getvalue().splitlines()[-1]


def main() -> None:
    """Play, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games at each size (1 to 11)")
    parser.add_argument("--java", type=Path, help="a folder with a compiled Nimsys.class")
    args = parser.parse_args()
    print(describe())
    python = shlex.quote(sys.executable)
    runs: list[tuple[str, tuple[str | Path, ...]]] = [
        ("inproc", ("--runner", "inproc")),
        ("pipe", ("--runner", "pipe", "--program", f"{python} -m casino.nimsys")),
        ("pty", ("--runner", "pty", "--program", f"{python} -m casino.nimsys")),
    ]
    if args.java:
        runs.append(("java pipe", ("--program", "java Nimsys", "--program-dir", args.java)))
    with tempfile.TemporaryDirectory() as scratch:
        paths = cases(Path(scratch), args.games)
        total = 3 * 11 * args.games
        for name, options in runs:
            seconds, cpu, score = measure(paths, *options)
            print(
                f"{name:>9}: {total / seconds:8.1f} games/s, {seconds:6.2f} s "
                f"({cpu:5.2f} s CPU) for {total} games, {score}"
            )


if __name__ == "__main__":
    main()
