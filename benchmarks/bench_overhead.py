"""casino's own share of grading: its CPU against a plain diff loop, and trivial tests per second
against prysk and cram.

    python benchmarks/bench_overhead.py [--shell-runs N] [--java-runs M] [--trivial K]
                                        [--idle 500] [--repeat 3]

Part 1, overhead. The same runs of the same programs (a shell script and a compiled Java class
that echo what they read; Java only where ``javac`` is installed) are checked twice, one after
another: by ``casino replay --runner pipe --program CMD`` (one casino process for all of them),
and by the grader's loop without casino, ``sh -c 'CMD < in > out; diff -q out expected'`` per run.
Each is a child process of this script, so its CPU time (user + system, with everything it
started) is read from ``RUSAGE_CHILDREN``. Both are measured with no extra processes and again
with ``--idle`` sleeping processes on the machine (started by this script, killed at the end):
casino follows each run's processes through its own children, so those must not cost it anything.

Part 2, throughput. ``--trivial`` one-line tests (a command that prints one line, compared with
what it should print) as casino transcripts replayed through a pipe (``--program``), as casino
transcripts of its own demo program replayed in-process, as cram ``.t`` files and as prysk
``.t`` files; tests per second for each, wall time. cram and prysk are left out with a line where
they are not installed (``pip install cram prysk``).

The overhead table also says casino's start-up (the CPU of a replay that finds nothing to
run, paid once per ``casino replay`` or ``casino grade``) and its cost per run beyond the diff
loop's, start-up taken out. Each figure is the median of ``--repeat`` rounds. In a round the
diff loop runs half of the runs, casino all of them, then the loop the other half, so that the
loop's measurement is centred in time on casino's and a machine whose speed drifts during the
round (a virtual machine's neighbours: a JVM run's CPU wanders by a tenth over seconds here,
the machine otherwise quiet) weighs on both alike; the trivial tests' contenders take turns.
The lowest and highest ratio of a round are printed beside the medians. A JVM run's CPU varies
by about an eighth from one run to the next (2026-12-04, AMD EPYC, quiet: 52.8 ms at the mean,
7.1 ms standard deviation, 200 runs), which alone would move a round's Java ratio by about 2%
with 100 runs and 1% with 300: the default is 300 (it was 100). On that virtual machine the
JVM's CPU also drifts over tens of seconds (means of 20 runs 48–67 ms, the machine otherwise
quiet), more than the halves around casino cancel: rounds of 300 runs still range 0.87–1.14×,
and which block (with or without the idle processes) came out dearer followed the order they
ran in, not the idle processes. Read the Java rows' medians and the per-run figure, and run it
more than once. The checkout's
bytecode is compiled first (:func:`machine.compile_bytecode`): casino is measured as it starts
once it has started before, not compiling its modules each time. It asserts nothing: figures
only.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from machine import compile_bytecode, describe

from casino.harness.dump import dump_transcript
from casino.harness.model import In, Out, Run, Transcript

ROOT = Path(__file__).resolve().parents[1]
ECHO_SH = 'while IFS= read -r line; do printf "%s\\n" "$line"; done\n'
ECHO_JAVA = """import java.io.*;
public class Echo {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) System.out.println(line);
    }
}
"""


def transcript(number: int, lines: int = 3) -> Transcript:
    """An echo session of ``lines`` lines, different for each ``number``."""
    steps: list[In | Out] = []
    for line in range(lines):
        steps += [In(f"line {number} {line}"), Out(f"line {number} {line}\n")]
    return Transcript(name=f"echo {number}", program="demo", runs=(Run(tuple(steps), (), 0),))


def write_transcripts(folder: Path, count: int) -> list[Transcript]:
    """``count`` echo transcripts in ``folder``."""
    folder.mkdir(parents=True)
    made = [transcript(number) for number in range(count)]
    for number, each in enumerate(made):
        (folder / f"t{number:05}.yaml").write_text(dump_transcript(each), encoding="utf-8")
    return made


def children_cpu() -> float:
    """CPU seconds (user + system) of every child this process has waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def measure(action: Callable[[], None]) -> tuple[float, float]:
    """Wall and children's CPU seconds of ``action``."""
    started, cpu = time.perf_counter(), children_cpu()
    action()
    return time.perf_counter() - started, children_cpu() - cpu


def median(action: Callable[[], None], repeat: int) -> tuple[float, float]:
    """The median wall and CPU seconds of ``repeat`` runs of ``action``."""
    return middle([measure(action) for _ in range(repeat)])


def middle(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall and the median CPU seconds of ``runs``."""
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def paired_medians(
    first: tuple[Callable[[], None], Callable[[], None]], second: Callable[[], None], repeat: int
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """The median wall and CPU seconds of ``first`` and of ``second``, and the lowest and
    highest ratio of ``second``'s CPU to ``first``'s within a round. In each round ``first``
    runs in two halves around ``second`` (its first half, ``second``, its second half), so that
    its measurement is centred in time on ``second``'s and a load that drifts during the round
    weighs on both alike."""
    runs = [sandwich(first, second) for _ in range(repeat)]
    ratios = [two[1] / one[1] for one, two in runs]
    return middle([one for one, _ in runs]), middle([two for _, two in runs]), spread(ratios)


def sandwich(
    halves: tuple[Callable[[], None], Callable[[], None]], inner: Callable[[], None]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Wall and CPU seconds of the two ``halves`` together, measured before and after
    ``inner``, and of ``inner``."""
    before = measure(halves[0])
    between = measure(inner)
    after = measure(halves[1])
    return (before[0] + after[0], before[1] + after[1]), between


def spread(values: Sequence[float]) -> tuple[float, float]:
    """The lowest and the highest of ``values``."""
    return min(values), max(values)


def casino(*argv: str, cwd: Path, status: int = 0) -> None:
    """``casino ARGV`` as a process of its own; exits the benchmark if its status is not
    ``status``."""
    command = [sys.executable, "-P", "-m", "casino", *argv]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != status:
        sys.exit(f"casino {' '.join(argv)} failed ({done.returncode}): {done.stdout[-2000:]}")


def diff_loop(command: str, transcripts: Sequence[Transcript]) -> None:
    """Every transcript's run the grader way without casino, one after another (``command``
    names its files by absolute paths)."""
    with tempfile.TemporaryDirectory() as scratch:
        cwd = Path(scratch)
        for number, each in enumerate(transcripts):
            run = each.runs[0]
            (cwd / f"in{number}").write_text("".join(f"{x}\n" for x in run.inputs))
            expected = "".join(s.text for s in run.steps if isinstance(s, Out))
            (cwd / f"expected{number}").write_text(expected)
            script = f"{command} < in{number} > out{number}; diff -q out{number} expected{number}"
            done = subprocess.run(["sh", "-c", script], cwd=cwd, check=False)
            if done.returncode != 0:
                sys.exit(f"the diff loop failed on transcript {number}")
            for name in (f"in{number}", f"expected{number}", f"out{number}"):
                (cwd / name).unlink()


@contextmanager
def idle_processes(count: int) -> Iterator[None]:
    """``count`` sleeping processes on the machine while inside."""
    sleepers = [subprocess.Popen(["sleep", "3600"]) for _ in range(count)]
    try:
        yield
    finally:
        for each in sleepers:
            each.kill()
        for each in sleepers:
            each.wait()


def overhead(scratch: Path, programs: dict[str, tuple[str, int]], idle: int, repeat: int) -> None:
    """Part 1: casino against the diff loop for each program, without and with idle ones."""
    empty = scratch / "no-transcripts"
    empty.mkdir()
    startup = median(
        partial(casino, "replay", "--program", "true", str(empty), cwd=scratch, status=2), repeat
    )
    print(
        f"\ncasino's start-up (a replay that finds nothing to run): CPU {startup[1] * 1000:.0f} ms"
    )
    print(
        f"{'program':8} {'idle':>5} {'runs':>5} {'diff loop CPU':>14} {'casino CPU':>11}"
        f" {'ratio':>6} {'rounds':>11} {'per run':>8} {'diff loop wall':>15} {'casino wall':>12}"
    )
    for name, (command, count) in programs.items():
        folder = scratch / f"overhead-{name}"
        made = write_transcripts(folder, count)
        half = len(made) // 2
        loop_action = (
            partial(diff_loop, command, made[:half]),
            partial(diff_loop, command, made[half:]),
        )
        replay = ("replay", "--runner", "pipe", "--program", command, str(folder))
        casino_action = partial(casino, *replay, cwd=scratch)
        for extra in (0, idle):
            with idle_processes(extra):
                loop, ours, (low, high) = paired_medians(loop_action, casino_action, repeat)
            per_run = (ours[1] - startup[1] - loop[1]) / count * 1000
            print(
                f"{name:8} {extra:5} {count:5} {loop[1]:13.2f}s {ours[1]:10.2f}s"
                f" {ours[1] / loop[1]:5.2f}× {low:4.2f}–{high:4.2f}× {per_run:+6.2f}ms"
                f" {loop[0]:14.2f}s {ours[0]:11.2f}s"
            )
    print(
        "(ratio: of the medians; rounds: the lowest and highest ratio within one round;"
        " per run: casino's CPU beyond the diff loop's, its start-up taken out)"
    )


def cram_files(folder: Path, count: int) -> None:
    """``count`` one-line cram/prysk tests in ``folder``."""
    folder.mkdir(parents=True)
    for number in range(count):
        (folder / f"t{number:05}.t").write_text(
            f"  $ printf 'line %s\\n' {number} | sh \"$TESTDIR/../echo.sh\"\n  line {number}\n"
        )


def throughput(scratch: Path, count: int, repeat: int) -> None:
    """Part 2: trivial tests per second, casino (pipe, in-process), cram and prysk."""
    one_line = scratch / "trivial"
    one_line.mkdir()
    for number in range(count):
        single = Transcript(
            name=f"one {number}",
            program="demo",
            runs=(Run((In(f"line {number}"), Out(f"line {number}\n")), (), 0),),
        )
        (one_line / f"t{number:05}.yaml").write_text(dump_transcript(single), encoding="utf-8")
    inproc = scratch / "trivial-inproc"
    inproc.mkdir()
    for number in range(count):
        single = Transcript(
            name=f"demo {number}",
            program="demo",
            runs=(Run((In("exit"), Out("casino demo calculator (type help)\n$ bye\n")), (), 0),),
        )
        (inproc / f"t{number:05}.yaml").write_text(dump_transcript(single), encoding="utf-8")
    tests = scratch / "trivial-t"
    cram_files(tests, count)
    contenders: dict[str, Callable[[], None]] = {
        "casino --runner pipe": lambda: casino(
            "replay", "--runner", "pipe", "--program", "sh echo.sh", str(one_line), cwd=scratch
        ),
        "casino in-process": lambda: casino("replay", str(inproc), cwd=scratch),
    }
    for tool in ("cram", "prysk"):
        found = shutil.which(tool) or shutil.which(tool, path=str(Path(sys.executable).parent))
        if found is None:
            print(f"{tool}: not installed (pip install {tool}), left out")
            continue
        contenders[tool] = partial(tool_run, found, tests)
    print(f"\n{count} trivial tests, one after another; {repeat} rounds, each contender in turn:")
    rounds = [
        {label: measure(action) for label, action in contenders.items()} for _ in range(repeat)
    ]
    for label in contenders:
        wall, cpu = middle([each[label] for each in rounds])
        low, high = spread([count / each[label][0] for each in rounds])
        per_cpu = spread([count / each[label][1] for each in rounds])
        ratios = spread([each["casino --runner pipe"][1] / each[label][1] for each in rounds])
        print(
            f"{label:22} {count / wall:6.1f} tests/s ({low:.0f}–{high:.0f}),"
            f" {count / cpu:6.1f} per CPU s ({per_cpu[0]:.0f}–{per_cpu[1]:.0f});"
            f" per CPU s {ratios[0]:.2f}–{ratios[1]:.2f}× casino pipe's"
        )
    print("(medians of the rounds, in brackets their lowest and highest)")


def tool_run(executable: str, tests: Path) -> None:
    """Run cram or prysk over ``tests``; exits the benchmark if a test failed."""
    done = subprocess.run(
        [executable, "-q", str(tests)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"{executable} failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")


def java_program(scratch: Path) -> str | None:
    """``java Echo`` compiled in ``scratch``, or ``None`` without a JDK."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        return None
    (scratch / "Echo.java").write_text(ECHO_JAVA)
    subprocess.run(["javac", "Echo.java"], cwd=scratch, check=True)
    return f"java -cp {scratch} Echo"


def main() -> None:
    """Make the programs and the tests, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shell-runs", type=int, default=1000, help="shell runs (1000)")
    parser.add_argument("--java-runs", type=int, default=300, help="Java runs (300)")
    parser.add_argument("--trivial", type=int, default=500, help="trivial tests (default 500)")
    parser.add_argument("--idle", type=int, default=500, help="idle processes (default 500)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (default 3)")
    args = parser.parse_args()
    print(describe())
    print(compile_bytecode(ROOT))
    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        (scratch / "echo.sh").write_text(ECHO_SH)
        programs = {"shell": (f"sh {scratch / 'echo.sh'}", args.shell_runs)}
        java = java_program(scratch)
        if java is None:
            print("java: no JDK here (javac), left out")
        else:
            programs["java"] = (java, args.java_runs)
        overhead(scratch, programs, args.idle, args.repeat)
        throughput(scratch, args.trivial, args.repeat)


if __name__ == "__main__":
    main()
