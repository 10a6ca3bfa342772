"""How many short transcripts per second ``casino replay`` checks, per runner and job count.

    python benchmarks/bench_harness.py [--count N] [--process-count M] [--rounds R]

Generates N short demo transcripts (5 to 9 steps each) in a temporary directory, replays them
in-process with ``--jobs 1`` and ``--jobs 2``, and M of them with the pipe and pty runners
(each of those starts a Python process per transcript), ``--rounds`` times, each runner and
job count in turn within a round (so that a drifting load weighs on all), then prints the
median transcripts per second (wall) and per CPU second (this process and its children: a
figure the machine's load moves less), their ranges, and the machine it ran on. It asserts
nothing: figures only.
"""

from __future__ import annotations

import argparse
import io
import resource
import statistics
import tempfile
import time
from pathlib import Path

from machine import describe

from casino.harness import cli
from casino.harness.dump import dump_transcript
from casino.harness.model import In, Out, Run, Step, Transcript

GREETING = "casino demo calculator (type help)\n$ "


def short_transcript(number: int) -> Transcript:
    """A passing demo session of a few steps, different for each ``number``."""
    a, b = number % 97, number % 13 + 1
    steps: list[Step] = [Out(GREETING), In(f"add {a} {b}"), Out(f"{a} + {b} = {a + b}\n$ ")]
    if number % 2:
        steps += [In(f"mul {a} {b}"), Out(f"{a} × {b} = {a * b}\n$ ")]
    steps += [In("exit"), Out("bye\n")]
    return Transcript(name=f"bench {number}", program="demo", runs=(Run(tuple(steps), (), 0),))


def generate(directory: Path, count: int) -> None:
    """Write ``count`` transcripts into ``directory``."""
    for number in range(count):
        (directory / f"t{number:05}.yaml").write_text(dump_transcript(short_transcript(number)))


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of every child it has waited for."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def rate(directory: Path, *options: str) -> tuple[float, float, int]:
    """Replay ``directory``; transcripts per second, per CPU second, and the exit status."""
    out, err = io.StringIO(), io.StringIO()
    count = len(list(directory.glob("*.yaml")))
    started, cpu = time.perf_counter(), cpu_seconds()
    status = cli.main(["replay", *options, str(directory)], stdout=out, stderr=err)
    return count / (time.perf_counter() - started), count / (cpu_seconds() - cpu), status


def spread(values: list[float]) -> str:
    """The median of ``values`` and, with more than one, their range."""
    middle = f"{statistics.median(values):8.1f}"
    return middle if len(values) == 1 else f"{middle} ({min(values):.1f}–{max(values):.1f})"


def main() -> None:
    """Generate, replay in rounds (each runner and job count in turn), print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="in-process transcripts")
    parser.add_argument("--process-count", type=int, default=40, help="pipe/pty transcripts")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each in turn (3)")
    args = parser.parse_args()
    print(describe())
    with tempfile.TemporaryDirectory() as scratch:
        many, few = Path(scratch, "many"), Path(scratch, "few")
        many.mkdir()
        few.mkdir()
        generate(many, args.count)
        generate(few, args.process_count)
        runs = [
            ("inproc", "1", many),
            ("inproc", "2", many),
            ("pipe", "1", few),
            ("pipe", "2", few),
            ("pty", "1", few),
            ("pty", "2", few),
        ]
        seen: dict[tuple[str, str], list[tuple[float, float, int]]] = {}
        for _ in range(args.rounds):
            for runner, jobs, directory in runs:
                measured = rate(directory, "--runner", runner, "--jobs", jobs)
                seen.setdefault((runner, jobs), []).append(measured)
        print(f"{args.rounds} rounds, each runner in turn; medians (lowest–highest):")
        for runner, jobs, directory in runs:
            results = seen[runner, jobs]
            count = len(list(directory.glob("*.yaml")))
            failed = [status for *_, status in results if status != 0]
            verdict = "all passed" if not failed else f"exit {failed[0]}"
            print(
                f"{runner:>6} --jobs {jobs}: {spread([r[0] for r in results])} transcripts/s,"
                f" {spread([r[1] for r in results])} per CPU s ({count} transcripts, {verdict})"
            )


if __name__ == "__main__":
    main()
