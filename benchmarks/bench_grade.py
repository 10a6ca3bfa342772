"""How many submissions per minute ``casino grade`` grades, per engine, and casino's overhead.

    python benchmarks/bench_grade.py [--submissions N] [--no-ray]

Makes N submissions (default 100), each a folder whose ``run.sh`` starts casino's own Nimsys as
an external program, grades them against the Nimsys transcripts (those any program can pass:
``reference: casino`` ones are left out) with ``--jobs 1``, ``--jobs 2`` and ``--ray local``
(when Ray is installed), and prints submissions per minute for each. Then it runs the very same
runs the grader way without casino, ``sh run.sh ARGS < in > out; diff -q out expected`` in a
scratch directory holding the transcript's files, one after another, and prints casino's
overhead against that (both sequential), in wall time and in CPU time (this process and its
children: on a machine shared with other work, CPU time is the steadier figure). It asserts
nothing: figures only.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import describe

from casino.grade import cli
from casino.harness.model import Out, load_transcript
from casino.harness.session import write_files

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTS = ROOT / "transcripts" / "nimsys"
RUN_SH = f'exec {sys.executable} -P -m casino.nimsys "$@"\n'


def make_submissions(folder: Path, count: int) -> None:
    """``count`` student folders, each running casino's Nimsys through ``run.sh``."""
    for number in range(count):
        student = folder / f"student-{number:03d}"
        student.mkdir(parents=True)
        (student / "run.sh").write_text(RUN_SH)


def cpu_seconds() -> float:
    """CPU time (user and system) of this process and of every child it has waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def grade(submissions: Path, out: Path, *engine: str) -> tuple[float, float, str]:
    """Grade every submission; the wall and CPU seconds it took (CPU: only what this process
    and its children used, so not a Ray cluster's) and the summary's first line (exits if the
    grading failed)."""
    argv = ["grade", str(submissions), "--transcripts", str(TRANSCRIPTS), "--run", "sh run.sh"]
    argv += ["--out", str(out), "--force", *engine]
    stdout, stderr = io.StringIO(), io.StringIO()
    started, cpu = time.perf_counter(), cpu_seconds()
    status = cli.main(argv, stdout=stdout, stderr=stderr)
    seconds, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    if status != 0:
        sys.exit(f"casino grade {' '.join(engine)} failed: {stderr.getvalue()}")
    return seconds, cpu, stdout.getvalue().splitlines()[0]


def plain_diff(submissions: Path) -> tuple[float, float, int]:
    """Every run of every submission, as ``program < in > out; diff -q out expected``; the
    wall and CPU seconds it took and how many runs there were."""
    transcripts = [load_transcript(p) for p in sorted(TRANSCRIPTS.rglob("*.yaml"))]
    transcripts = [t for t in transcripts if t.reference is None]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs = 0
    started, cpu = time.perf_counter(), cpu_seconds()
    for student in sorted(submissions.iterdir()):
        for transcript in transcripts:
            if transcript.seed is not None:
                env["CASINO_SEED"] = str(transcript.seed)
            with tempfile.TemporaryDirectory() as scratch:
                cwd = Path(scratch)
                write_files(transcript, cwd)
                for number, run in enumerate(transcript.runs):
                    (cwd / f".in{number}").write_text("".join(f"{x}\n" for x in run.inputs))
                    expected = "".join(s.text for s in run.steps if isinstance(s, Out))
                    (cwd / f".expected{number}").write_text(expected)
                    words = " ".join(f"'{arg}'" for arg in run.argv)
                    script = (
                        f"sh {student / 'run.sh'} {words} < .in{number} > .out{number};"
                        f" diff -q .out{number} .expected{number} > /dev/null"
                    )
                    subprocess.run(["sh", "-c", script], cwd=cwd, env=env, check=False)
                    runs += 1
    return time.perf_counter() - started, cpu_seconds() - cpu, runs


def main() -> None:
    """Make the submissions, grade them with each engine, compare with plain diff."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=100, help="how many (default 100)")
    parser.add_argument("--no-ray", action="store_true", help="leave --ray local out")
    args = parser.parse_args()
    print(describe())
    count = args.submissions
    engines = [("--jobs 1", ["--jobs", "1"]), ("--jobs 2", ["--jobs", "2"])]
    if not args.no_ray and importlib.util.find_spec("ray") is not None:
        engines.append(("--ray local", ["--ray", "local", "--jobs", "2"]))
    with tempfile.TemporaryDirectory() as scratch:
        submissions = Path(scratch, "submissions")
        make_submissions(submissions, count)
        wall, cpu = {}, {}
        for label, engine in engines:
            wall[label], cpu[label], graded = grade(submissions, Path(scratch, "grades"), *engine)
            rate = count / wall[label] * 60
            print(f"casino grade {label:12} {rate:8.1f} submissions/min ({graded})")
        wall["diff"], cpu["diff"], runs = plain_diff(submissions)
    print(f"plain diff          {count / wall['diff'] * 60:8.1f} submissions/min ({runs} runs)")
    for what, used in (("wall", wall), ("CPU", cpu)):
        extra = (used["--jobs 1"] - used["diff"]) / runs * 1000
        print(
            f"casino's overhead, {what} time (--jobs 1 against plain diff, both sequential): "
            f"{used['--jobs 1'] / used['diff']:.2f}×, {extra:+.1f} ms per run"
        )


if __name__ == "__main__":
    main()
