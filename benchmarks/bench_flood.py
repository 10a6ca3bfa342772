"""What a run that floods its folder with files costs the grader (``docs/grading.md`` quotes it).

``python benchmarks/bench_flood.py [--files 300000]`` runs, in casino's sandbox (bubblewrap, as
``casino grade`` does), a program that makes that many empty files in its run folder, then one
that leaves one file fewer than come back (:data:`~casino.harness.runners.runfolder.BACK_FILES`),
and prints for each: the program's own seconds, the whole run's, and the grader's CPU seconds
and peak memory. Nothing is asserted: it prints figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from machine import describe

from casino.harness.model import Out, Run
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Target
from casino.harness.runners.folders import remove_tree
from casino.harness.runners.runfolder import BACK_FILES
from casino.harness.runners.sandbox import Sandbox, isolation_works

PROGRAM = """\
import os, sys, time
start = time.monotonic()
for n in range({files}):
    os.close(os.open(str(n), os.O_CREAT))
print(round(time.monotonic() - start, 2), file=sys.stderr)
"""


def cpu_seconds() -> float:
    """This process's CPU seconds so far (user and system)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def measure(files: int) -> str:
    """One run making ``files`` files: a line of figures."""
    folder = Path(tempfile.mkdtemp(prefix="casino-flood-"))
    os.chmod(folder, 0o755)
    try:
        (folder / "flood.py").write_text(PROGRAM.format(files=files), encoding="utf-8")
        sandbox = Sandbox(cpu_seconds=120, memory=1 << 30, processes=64, isolate=True, disk=1 << 30)
        target = Target(None, ("python3", "flood.py"), folder)
        job = Job(target, Run((Out(""),)), folder, 0, 300, sandbox)
        start, cpu = time.monotonic(), cpu_seconds()
        outcome = make_runner("pipe").run(job)
        wall, grader = time.monotonic() - start, cpu_seconds() - cpu
    finally:
        remove_tree(folder)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return (
        f"{files:>9,} files: program {outcome.stderr.strip() or '?'} s, whole run {wall:.2f} s, "
        f"grader {grader:.2f} CPU s, grader peak {peak:.0f} MiB; "
        f"{outcome.problem or 'the folder came back'}"
    )


def main() -> int:
    """Print the figures for a flood and for the most files that come back."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=300_000, help="files the flood makes")
    args = parser.parse_args()
    if not isolation_works():
        print("no bubblewrap sandbox on this machine", file=sys.stderr)
        return 1
    print(describe())
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for files in (args.files, BACK_FILES - 1):
        print(measure(files), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
