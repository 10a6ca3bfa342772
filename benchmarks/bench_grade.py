"""A course near the limit: how many submissions per minute ``casino grade`` grades, per engine,
next to what the programs themselves allow.

    python benchmarks/bench_grade.py [--submissions 300] [--jobs N] [--no-ray] [--rounds R]

Makes N submissions (default 300) the way a course has them: Python and Java programs, most
correct, some with a wrong space, a crash, an endless loop (stopped at its time-out) or a flood
of output, a few Java ones that do not compile. Each is graded against four small transcripts
(one a chain of two runs) with ``--jobs 1``, ``--jobs N`` (default: every core), and, where Ray
is installed, on a two-node Ray cluster started here (``ray start --head`` and a second
``ray start --address``, one CPU each, 127.0.0.1).

**The limit** is what the programs cost on their own: every build and every run of every
submission done the plain way, one after another, with no casino at all (``sh -c 'BUILD'``,
then ``timeout T sh run.sh ARGS < in | head -c CAP > out; diff -q out expected``, each stopped
as casino stops it); its CPU time (user + system of everything it ran) divided by the cores is
the shortest a course can take, and submissions per minute at that pace is the limit. Measure
on a quiet machine: the engines' figures are wall time. Each engine's figure is printed with
its share of the limit (the target for ``--jobs N`` is 80% or more), and casino's own overhead
is the ``--jobs 1`` CPU against the plain loop's. With ``--rounds R`` the plain loop and the
engines run R times in turn (loop, engines, loop, …), so that a machine whose load drifts is
shared by all, and the medians and ranges of the shares and of the overhead are printed last.
It asserts nothing: figures only.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from machine import describe, nproc

from casino.harness.dump import dump_transcript
from casino.harness.model import In, Out, Run, Transcript

ROOT = Path(__file__).resolve().parents[1]
STEP_SECONDS = 2.0
OUTPUT_CAP = 128 << 10
"""The plain loop stops a run as casino does: after STEP_SECONDS (casino: that long without
output, and every run here prints at once or never) and past about this much output."""
BUILD = "if ls *.java >/dev/null 2>&1; then javac -d . *.java; fi"
RUN = "sh run.sh"

PYTHON = """\
import sys
args = sys.argv[1:]
if args[:1] == ["save"]:
    open("state.txt", "w").write(args[1]); print("saved", args[1])
elif args == ["load"]:
    print("loaded", open(STATE).read())
elif args:
    print(len(args), "args")
else:
    name = input("name? ")
    GREET
"""
JAVA = """\
import java.nio.file.*;
import java.util.Scanner;
public class Main {
    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("save")) {
            Files.writeString(Path.of("state.txt"), args[1]);
            System.out.println("saved " + args[1]);
        } else if (args.length == 1 && args[0].equals("load")) {
            System.out.println("loaded " + Files.readString(Path.of(STATE)));
        } else if (args.length > 0) {
            System.out.println(args.length + " args");
        } else {
            System.out.print("name? ");
            System.out.flush();
            String name = new Scanner(System.in).nextLine();
            GREET
        }
    }
}
"""
KINDS: list[tuple[str, str, str, str]] = [
    # (language, STATE, GREET, share in tenths of a percent)
    ("python", '"state.txt"', 'print("hello " + name)', "350"),
    ("python", '"state.txt"', 'print("hello  " + name)', "80"),
    ("python", '"missing.txt"', 'print("hello " + name)', "60"),
    ("python", '"state.txt"', "while True: pass", "30"),
    ("python", '"state.txt"', 'sys.stdout.write(("y" * 65535 + "\\n") * 400)', "30"),
    ("java", '"state.txt"', 'System.out.println("hello " + name);', "300"),
    ("java", '"missing.txt"', 'System.out.println("hello " + name);', "80"),
    ("java", '"state.txt"', 'System.out.println("hello " + name)', "70"),  # no ';': no build
]


def transcripts(folder: Path) -> list[Transcript]:
    """The course's four transcripts (greet, args, and a chain save → load), written."""
    made = [
        Transcript(name="greets", program="demo", timeout=STEP_SECONDS, runs=(
            Run((Out("name? "), In("Ada"), Out("hello Ada\n")), (), 0),)),
        Transcript(name="counts", program="demo", timeout=STEP_SECONDS, runs=(
            Run((Out("3 args\n"),), ("a", "b", "c"), 0),)),
        Transcript(name="counts one", program="demo", timeout=STEP_SECONDS, runs=(
            Run((Out("1 args\n"),), ("x",), 0),)),
        Transcript(name="remembers", program="demo", timeout=STEP_SECONDS, runs=(
            Run((Out("saved 7\n"),), ("save", "7"), 0),
            Run((Out("loaded 7\n"),), ("load",), 0))),
    ]  # fmt: skip
    folder.mkdir(parents=True)
    for number, transcript in enumerate(made):
        (folder / f"t{number}.yaml").write_text(dump_transcript(transcript), encoding="utf-8")
    return made


def kinds(count: int) -> Iterator[tuple[str, str, str]]:
    """``count`` submissions' kinds, in the shares of :data:`KINDS`, interleaved."""
    weights = [int(share) for *_, share in KINDS]
    total = sum(weights)
    for number in range(count):
        spot = number * 997 % total
        for (language, state, greet, _), weight in zip(KINDS, weights, strict=True):
            if spot < weight:
                yield language, state, greet
                break
            spot -= weight


def make_submissions(folder: Path, count: int) -> None:
    """``count`` student folders, each with its program and ``run.sh``."""
    for number, (language, state, greet) in enumerate(kinds(count)):
        student = folder / f"student-{number:03d}"
        student.mkdir(parents=True)
        if language == "python":
            program = PYTHON.replace("STATE", state).replace("GREET", greet)
            (student / "main.py").write_text(program)
            (student / "run.sh").write_text('exec python3 "$(dirname "$0")/main.py" "$@"\n')
        else:
            (student / "Main.java").write_text(JAVA.replace("STATE", state).replace("GREET", greet))
            (student / "run.sh").write_text('exec java -cp "$(dirname "$0")" Main "$@"\n')


def children_cpu() -> float:
    """CPU time (user and system) of every child this process has waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def grade(submissions: Path, course: Path, out: Path, *engine: str) -> tuple[float, float]:
    """``casino grade`` as a process of its own; wall and CPU seconds (CPU: this machine's
    processes only, so not the work of a cluster's other nodes)."""
    argv = [sys.executable, "-P", "-m", "casino", "grade", str(submissions)]
    argv += ["--transcripts", str(course), "--run", RUN, "--build", BUILD]
    argv += ["--out", str(out), "--force", *engine]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    seconds, cpu = time.perf_counter() - started, children_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"casino grade {' '.join(engine)} failed: {done.stderr[-2000:]}")
    return seconds, cpu


def plain_loop(submissions: Path, made: list[Transcript]) -> tuple[float, float, int]:
    """Every build and run of every submission without casino; wall and CPU seconds, runs."""
    runs = 0
    started, cpu = time.perf_counter(), children_cpu()
    for student in sorted(submissions.iterdir()):
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch, "submission")
            shutil.copytree(student, copy)
            subprocess.run(["sh", "-c", BUILD], cwd=copy, capture_output=True, check=False)
            for number, transcript in enumerate(made):
                work = Path(scratch, f"run{number}")
                work.mkdir()
                for index, run in enumerate(transcript.runs):
                    runs += 1
                    (work / f".in{index}").write_text("".join(f"{x}\n" for x in run.inputs))
                    expected = "".join(s.text for s in run.steps if isinstance(s, Out))
                    (work / f".expected{index}").write_text(expected)
                    words = " ".join(run.argv)
                    script = (
                        f"timeout -s KILL {STEP_SECONDS:g} sh {copy / 'run.sh'} {words}"
                        f" < .in{index} | head -c {OUTPUT_CAP} > .out{index};"
                        f" diff -q .out{index} .expected{index}"
                    )
                    subprocess.run(["sh", "-c", script], cwd=work, capture_output=True, check=False)
    return time.perf_counter() - started, children_cpu() - cpu, runs


@contextmanager
def cluster() -> Iterator[str]:
    """A two-node Ray cluster on this machine (the tests' own), its address."""
    sys.path.insert(0, str(ROOT / "tests"))  # the tests' folders are packages, as pytest sees them
    from grade.ray_cluster import two_nodes

    with two_nodes(head_cpus=1, second_cpus=1) as running:
        yield running.address


def main() -> None:
    """Make the course, grade it with each engine in turns with the plain loop, compare."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=300, help="how many (default 300)")
    parser.add_argument("--jobs", type=int, default=nproc(), help="for --jobs N (all cores)")
    parser.add_argument("--no-ray", action="store_true", help="leave the Ray cluster out")
    parser.add_argument("--rounds", type=int, default=1, help="rounds, each in turn (default 1)")
    args = parser.parse_args()
    print(describe())
    engines: list[tuple[str, list[str]]] = [
        ("--jobs 1", ["--jobs", "1"]),
        (f"--jobs {args.jobs}", ["--jobs", str(args.jobs)]),
    ]
    if not args.no_ray and importlib.util.find_spec("ray") is not None:
        engines.append(("Ray, two nodes", ["--ray", "CLUSTER"]))
    shares: dict[str, list[float]] = {label: [] for label, _ in engines}
    overheads: list[float] = []
    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        submissions, course = scratch / "submissions", scratch / "transcripts"
        make_submissions(submissions, args.submissions)
        made = transcripts(course)
        for round_number in range(1, args.rounds + 1):
            overheads.append(one_round(round_number, submissions, course, made, engines, shares))
    if args.rounds > 1:
        print(f"\nover {args.rounds} rounds (median, lowest–highest):")
        for label, values in shares.items():
            print(f"casino grade {label:16} {summary(values, '.1%')} of the limit")
        overhead = summary(overheads, ".2f")
        print(f"casino's overhead, CPU (--jobs 1 against the plain loop): {overhead}×")


def summary(values: list[float], form: str) -> str:
    """The median of ``values`` and their range, each in ``form``."""
    middle = statistics.median(values)
    return f"{middle:{form}} ({min(values):{form}}–{max(values):{form}})"


def one_round(
    number: int,
    submissions: Path,
    course: Path,
    made: list[Transcript],
    engines: list[tuple[str, list[str]]],
    shares: dict[str, list[float]],
) -> float:
    """The plain loop, then each engine in turn; prints the figures, adds each engine's share
    of the limit to ``shares`` and returns casino's CPU (``--jobs 1``) over the loop's."""
    count, cores = len(list(submissions.iterdir())), nproc()
    loop_wall, loop_cpu, runs = plain_loop(submissions, made)
    limit = count / (loop_cpu / cores) * 60
    print(f"\nround {number}: {count} submissions, {runs} runs; the programs alone:"
          f" {loop_cpu:.1f} CPU s (wall {loop_wall:.1f} s one after another)")  # fmt: skip
    print(f"the limit on {cores} cores: {limit:.1f} submissions/min")
    cpu_one = 0.0
    for label, engine in engines:
        with cluster() if "CLUSTER" in engine else nullcontext("") as address:
            argv = [address if word == "CLUSTER" else word for word in engine]
            wall, cpu = grade(submissions, course, submissions.parent / "grades", *argv)
        cpu_one = cpu if label == "--jobs 1" else cpu_one
        rate = count / wall * 60
        shares[label].append(rate / limit)
        print(
            f"casino grade {label:16} {rate:7.1f} submissions/min, {rate / limit:5.1%} of the"
            f" limit (CPU {cpu:.1f} s)"
        )
    print(f"casino's overhead, CPU (--jobs 1 against the plain loop): {cpu_one / loop_cpu:.2f}×")
    return cpu_one / loop_cpu


if __name__ == "__main__":
    main()
