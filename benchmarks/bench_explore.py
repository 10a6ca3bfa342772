"""A mutation study of ``casino explore``: which plausible student bugs it finds, how short
its sessions are, and what it costs — beside what the shipped transcripts find.

Run: ``python benchmarks/bench_explore.py [--sessions N] [--slow NAME…] [--self N]``.

For each mutant of :mod:`mutants` (one bug in casino's own reference, applied only while
the mutant runs):

- *shipped*: killed by the shipped transcripts of its assignment that a student's program
  faces (``transcripts/nimsys/project-c`` …, without the ``reference: casino`` ones)?
- *explore*: killed by ``casino explore`` (seed 0, at most ``--sessions`` sessions)? The
  shrunk session's length in input lines; runs and seconds to find and to shrink. ``bonus``:
  found only as a difference in an optional part (reported as the bonus not attempted).

Both run the mutant in this process (fast, so that forty mutants take minutes).
``--slow NAME…`` (the README's figure: every third mutant whose fixed output differs, and
``resetstats-keeps-played``) also explores those mutants as a separate program started through a
wrapper that sleeps 0.4 s first, as a JVM takes to start (pipe runner): the "under 60 s"
figure. ``--self N`` explores casino's own reference through the pipe and pty runners for
N sessions each (it must find nothing). ``--honest JOBS…`` explores casino's own Nimsys
behind the 0.4 s wrapper for ``--sessions`` sessions (seed 0, coverage-guided, as
``casino explore`` does) once for each ``--jobs`` given, with no kept recordings (cold) and
then with the recordings the cold run kept (warm, in a fresh folder each): wall seconds, CPU
seconds of this process and its children, load average before and after (issue 45's "300
sessions in under 60 s"). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from machine import describe
from mutants import MUTANTS, PROGRAM_OF, Mutant, mutant_main

from casino.explore.coverage import Coverage
from casino.explore.engine import Budget, Explorer, Found
from casino.explore.grammars import grammar_of, with_choices
from casino.explore.judge import Program
from casino.explore.recordings import Recordings
from casino.harness.load import load_transcript
from casino.harness.runners import make_runner
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {
    "nimsys": "transcripts/nimsys/project-c",
    "nimsys-b": "transcripts/nimsys/project-b",
    "nimsys-a": "transcripts/nimsys/project-a",
    "demo": "transcripts/demo",
    "videopoker": "transcripts/videopoker/double-bonus",
    "draw": "transcripts/draw/play5carddraw",
    "draw-choose": "transcripts/draw/play5carddraw",
}


def shipped_kills(mutant: Mutant) -> bool:
    """Whether a shipped transcript a student's program faces fails the mutant."""
    program = PROGRAM_OF[mutant.reference]
    runner = InProcessRunner({program: mutant_main(mutant)})
    for path in sorted((ROOT / SHIPPED[mutant.reference]).rglob("*.yaml")):
        if path.name == "casino.yaml":
            continue
        transcript = load_transcript(path)
        if transcript.reference is not None:
            continue
        if check(transcript, runner, Target(program)).status is Status.FAIL:
            return True
    return False


GUIDED = True
"""Whether the study explores coverage-guided, as ``casino explore`` does (``--plain``: the
generated order, no corpus)."""


def explore(mutant: Mutant, program: Program, sessions: int, choices: bool = False) -> Found | None:
    """Explore then shrink, as ``casino explore`` does (seed 0; coverage-guided unless
    ``--plain``; ``choices``: as ``casino explore --choices``). Where the only difference lies
    in an optional part (the bonus not attempted), that one, shrunk."""
    coverage = Coverage() if GUIDED else None
    grammar = grammar_of(mutant.reference)
    if choices:
        grammar = with_choices(grammar) or grammar
    explorer = Explorer(grammar, program, Budget(runs=20_000), coverage=coverage)
    found = explorer.find(0, sessions)
    if found is None and explorer.optional:
        found = explorer.optional[0]
    return None if found is None else explorer.shrink(found)


def in_process(mutant: Mutant) -> Program:
    """The mutant as a casino program run in this process."""
    program = PROGRAM_OF[mutant.reference]
    return Program(InProcessRunner({program: mutant_main(mutant)}), Target(program))


def slow_program(mutant: Mutant, folder: Path) -> Program:
    """The mutant as a separate program that starts 0.4 s late (a JVM's start)."""
    wrapper = folder / f"{mutant.name}.sh"
    mutants = ROOT / "benchmarks" / "mutants.py"
    script = f'#!/bin/sh\nsleep 0.4\nexec "{sys.executable}" "{mutants}" {mutant.name} "$@"\n'
    wrapper.write_text(script)
    wrapper.chmod(0o755)
    target = Target(PROGRAM_OF[mutant.reference], (str(wrapper),), folder)
    return Program(make_runner("pipe"), target)


def row(mutant: Mutant, shipped: bool, found: Found | None) -> str:
    """One line of the table."""
    if found is None:
        return f"{mutant.name:<26} {'yes' if shipped else 'no':<7} {'no':<7} {'-':>5}"
    killed = "bonus" if found.part is not None else "yes"
    return (
        f"{mutant.name:<26} {'yes' if shipped else 'no':<7} {killed:<7} {found.lines:>5}"
        f" {found.find_runs:>6} {found.find_seconds:>7.2f} {found.shrink_runs:>6}"
        f" {found.shrink_seconds:>7.2f}"
    )


def study(sessions: int) -> None:
    """The table, and the kill rates and medians under it."""
    print(
        f"{'mutant':<26} {'shipped':<7} {'explore':<7} {'lines':>5} {'runs':>6} {'find s':>7}"
        f" {'runs':>6} {'shrink s':>7}"
    )
    results: list[tuple[Mutant, bool, Found | None]] = []
    for mutant in MUTANTS.values():
        found = explore(mutant, in_process(mutant), sessions)
        shipped = shipped_kills(mutant)
        results.append((mutant, shipped, found))
        print(row(mutant, shipped, found), flush=True)
    pinned = [r for r in results if r[0].pinned]
    by_explore = [r for r in pinned if r[2] is not None]
    by_shipped = [r for r in pinned if r[1]]
    print(f"\nmutants whose pinned output differs: {len(pinned)} (of {len(results)})")
    for what, killed in (("the shipped transcripts", by_shipped), ("explore", by_explore)):
        share = 100 * len(killed) / len(pinned)
        print(f"killed by {what + ':':<24} {len(killed)} ({share:.0f} %)")
    missed = [r[0].name for r in pinned if r[2] is None]
    print(f"missed by explore: {', '.join(missed) or 'none'}")
    found_all = [r[2] for r in by_explore if r[2] is not None]
    if found_all:
        print(f"median shrunk session: {statistics.median(f.lines for f in found_all)} input lines")
        print(
            f"median runs to find / to shrink: {statistics.median(f.find_runs for f in found_all)}"
            f" / {statistics.median(f.shrink_runs for f in found_all)}"
        )
    unpinned = [r for r in results if not r[0].pinned]
    for mutant, shipped, found in unpinned:
        print(
            f"{mutant.name} (differs only where the assignment leaves room): shipped"
            f" {'kills' if shipped else 'passes'} it, explore {'kills' if found else 'passes'} it"
        )


def slow(names: list[str], sessions: int) -> None:
    """The slow-start figures: find and shrink through a 0.4 s wrapper, pipe runner."""
    totals = []
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            mutant = MUTANTS[name]
            started = time.perf_counter()
            found = explore(mutant, slow_program(mutant, Path(folder)), sessions)
            total = time.perf_counter() - started
            totals.append(total)
            print(
                row(mutant, False, found).replace(" no      ", " -       ", 1)
                + f"  total {total:.1f} s",
                flush=True,
            )
    print(f"median find + shrink with a 0.4 s start: {statistics.median(totals):.1f} s")


def self_check(sessions: int, references: list[str], runners: list[str]) -> None:
    """casino's own reference through pipe and pty: explore must find nothing."""
    for reference in references:
        grammar = grammar_of(reference)
        for runner in runners:
            started = time.perf_counter()
            program = Program(make_runner(runner), Target(grammar.program))
            explorer = Explorer(grammar, program)
            found = explorer.find(0, sessions)
            print(
                f"self {reference:<9} {runner:<5} {explorer.tried} sessions, {explorer.runs} runs,"
                f" {'DIFFERS' if found else 'no difference'},"
                f" {time.perf_counter() - started:.0f} s",
                flush=True,
            )


def _cpu() -> float:
    """CPU seconds (user and system) of this process and its waited-for children so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def honest(jobs: list[int], sessions: int) -> None:
    """casino's own Nimsys behind a 0.4 s start: cold, then warm, for each ``--jobs``."""
    with tempfile.TemporaryDirectory() as folder:
        wrapper = Path(folder) / "nimsys.sh"
        wrapper.write_text(
            f'#!/bin/sh\nsleep 0.4\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m casino nimsys\n'
        )
        wrapper.chmod(0o755)
        grammar = grammar_of("nimsys")
        for count in jobs:
            kept = Recordings(Path(folder) / f"jobs-{count}", grammar.name, "bench")
            for label in ("cold", "warm"):
                load, cpu, started = os.getloadavg()[0], _cpu(), time.perf_counter()
                target = Target("nimsys", (str(wrapper),), Path(folder))
                program = Program(make_runner("pipe"), target)
                explorer = Explorer(
                    grammar, program, coverage=Coverage(), jobs=count, recordings=kept
                )
                try:
                    found = explorer.find(0, sessions)
                finally:
                    explorer.close()
                print(
                    f"honest --jobs {count:<2} {label}: {explorer.tried} sessions,"
                    f" {explorer.runs} runs, {'DIFFERS' if found else 'no difference'},"
                    f" {time.perf_counter() - started:.1f} s wall, {_cpu() - cpu:.1f} s CPU,"
                    f" load {load:.2f}-{os.getloadavg()[0]:.2f}",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--sessions", type=int, default=400)
    parser.add_argument("--plain", action="store_true", help="no coverage guidance")
    parser.add_argument("--slow", nargs="*", default=[])
    parser.add_argument("--self", type=int, default=0, dest="self_sessions")
    parser.add_argument("--self-references", nargs="+", default=["nimsys", "demo"])
    parser.add_argument("--self-runners", nargs="+", default=["pipe", "pty"])
    parser.add_argument("--no-study", action="store_true")
    parser.add_argument("--honest", nargs="*", type=int, default=[], metavar="JOBS")
    args = parser.parse_args()
    global GUIDED
    GUIDED = not args.plain
    print(describe())
    print(f"load average: {os.getloadavg()[0]:.2f}; {'plain' if args.plain else 'guided'} order")
    if not args.no_study:
        study(args.sessions)
    if args.slow:
        slow(args.slow, args.sessions)
    if args.honest:
        honest(args.honest, args.sessions)
    if args.self_sessions:
        self_check(args.self_sessions, args.self_references, args.self_runners)


if __name__ == "__main__":
    main()
