"""What the test suite costs: CPU (the test process and every child it waited for) and wall
time, in all and by module, the costliest tests first.

Run: ``python benchmarks/bench_suite.py [--top N] [PYTEST ARGS...]`` from the repository with
the test extra installed (``pip install -e '.[test]'``); with no pytest arguments it runs the
whole of ``tox -e tests`` (``pytest`` with ``PYTHONHASHSEED=0``). The budget (issue 31,
``docs/design.md``) is 4 minutes of CPU on two cores. Programs a test leaves to run on after it
(none should) and kernel work done elsewhere (a network namespace's teardown) are not counted.
As under tox, Python writes its bytecode (``PYTHONDONTWRITEBYTECODE`` is dropped: every process
started would compile casino from source again) and the current folder is not put first on the
module path (``-P``): run it with a tox environment's Python (``.tox/tests/bin/python
benchmarks/bench_suite.py``) to measure casino as tox installs it.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import describe

HERE = Path(__file__).resolve().parent


def children_cpu() -> float:
    """CPU of this process's waited-for children so far (user + system)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def run(pytest_args: list[str]) -> tuple[int, float, float, list[dict[str, object]]]:
    """Run pytest with the plugin: its status, its wall and CPU seconds in all (collection
    included), and one row per test."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "rows.jsonl"
        env = dict(os.environ, SUITE_CPU_OUT=str(out), PYTHONHASHSEED="0")
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as under tox, which does not pass it on
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
        argv = [sys.executable, "-P", "-m", "pytest", "-q", "-p", "suite_cpu_plugin", *pytest_args]
        began, cpu = time.monotonic(), children_cpu()
        status = subprocess.run(argv, cwd=HERE.parent, env=env, check=False).returncode
        wall, cpu = time.monotonic() - began, children_cpu() - cpu
        rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return status, wall, cpu, rows


def report(rows: list[dict[str, object]], wall: float, total: float, top: int) -> str:
    """The figures: the total, then by module and by test, the costliest first."""
    cpu = {str(row["test"]): float(str(row["cpu"])) for row in rows}
    modules: dict[str, float] = collections.defaultdict(float)
    for test, seconds in cpu.items():
        modules[test.split("::")[0]] += seconds
    lines = [
        f"{len(cpu)} tests: {total:.1f} s of CPU in all ({sum(cpu.values()):.1f} s in the tests,"
        f" the rest collecting them), {wall:.1f} s of wall time",
        f"load average (1 min) at the end: {os.getloadavg()[0]:.1f}",
        f"\nthe {top} costliest modules (CPU s):",
    ]
    by_cost = sorted(modules.items(), key=lambda pair: -pair[1])[:top]
    lines += [f"{seconds:8.1f}  {name}" for name, seconds in by_cost]
    lines.append(f"\nthe {top} costliest tests (CPU s):")
    ranked = sorted(cpu.items(), key=lambda pair: -pair[1])[:top]
    lines += [f"{seconds:8.2f}  {name}" for name, seconds in ranked]
    return "\n".join(lines)


def main() -> int:
    """Run the suite (or the given pytest arguments) and print what it cost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=20, help="modules and tests listed")
    options, pytest_args = parser.parse_known_args()
    print(describe(), flush=True)
    print(f"load average (1 min) at the start: {os.getloadavg()[0]:.1f}", flush=True)
    status, wall, cpu, rows = run(pytest_args)
    print(report(rows, wall, cpu, options.top))
    return status


if __name__ == "__main__":
    sys.exit(main())
