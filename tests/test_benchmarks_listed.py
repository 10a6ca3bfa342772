"""``benchmarks/run_all.py`` runs every benchmark script of ``benchmarks/`` (issue 45, item 7)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def listed(*args: str) -> list[str]:
    """The scripts ``run_all.py --list`` names, with ``args`` besides."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "run_all.py"), "--list", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.split("\t")[1] for line in done.stdout.splitlines()]


def test_every_benchmark_script_is_run_by_run_all() -> None:
    scripts = [*sorted(path.name for path in BENCHMARKS.glob("bench_*.py")), "ast_mutants.py"]
    assert sorted(listed()) == sorted(scripts)


def test_only_and_skip_choose_by_name() -> None:
    assert listed("--only", "stud", "eval") == ["bench_eval.py", "bench_stud.py"]
    assert "bench_web.py" not in listed("--skip", "web")


def test_an_unknown_name_is_one_line_and_status_2() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "run_all.py"), "--only", "nope"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith(
        "error: unknown benchmark nope (known: analyzer, ast-mutants, domino, draw, edges, eval, "
        "explore, flood, grade, harness, holdem, kayles, overhead, play, similarity, startup, "
        "stud, suite, videopoker, web)"
    )
