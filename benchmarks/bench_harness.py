"""How many short transcripts per second ``casino replay`` checks, per runner and job count.

    python benchmarks/bench_harness.py [--count N] [--process-count M]

Generates N short demo transcripts (5 to 9 steps each) in a temporary directory, replays them
in-process with ``--jobs 1`` and ``--jobs 2``, and M of them with the pipe and pty runners
(each of those starts a Python process per transcript), then prints transcripts per second
and the machine it ran on. It asserts nothing: figures only.
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path

from machine import describe

from casino.harness import cli
from casino.harness.model import In, Out, Run, Step, Transcript, dump_transcript

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


def rate(directory: Path, *options: str) -> tuple[float, int]:
    """Replay ``directory``; transcripts per second and the exit status."""
    out, err = io.StringIO(), io.StringIO()
    count = len(list(directory.glob("*.yaml")))
    started = time.perf_counter()
    status = cli.main(["replay", *options, str(directory)], stdout=out, stderr=err)
    return count / (time.perf_counter() - started), status


def main() -> None:
    """Generate, replay, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="in-process transcripts")
    parser.add_argument("--process-count", type=int, default=40, help="pipe/pty transcripts")
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
        for runner, jobs, directory in runs:
            per_second, status = rate(directory, "--runner", runner, "--jobs", jobs)
            count = len(list(directory.glob("*.yaml")))
            verdict = "all passed" if status == 0 else f"exit {status}"
            print(
                f"{runner:>6} --jobs {jobs}: {per_second:8.1f} transcripts/s "
                f"({count} transcripts, {verdict})"
            )


if __name__ == "__main__":
    main()
