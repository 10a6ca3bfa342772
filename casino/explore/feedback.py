"""Exploring one submission for ``casino grade --explore NAME``: its shrunk session, as
feedback text.

The hook in :mod:`casino.grade` is one call of :func:`explore_feedback` per submission, after
its transcripts, with the course's command, runner and sandbox: a budget of runs and seconds
(:class:`ExploreSpec`) bounds it, and whatever happens it returns text, never raises.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from pathlib import Path

from casino.explore.engine import Budget, CannotRun, Explorer
from casino.explore.grammars import grammar_of
from casino.explore.judge import Program
from casino.harness.dump import dump_transcript
from casino.harness.report import render
from casino.harness.runners import make_runner
from casino.harness.runners.base import Target
from casino.harness.runners.sandbox import Sandbox


@dataclass(frozen=True)
class ExploreSpec:
    """What to explore each submission with: the reference's grammar and a budget."""

    reference: str
    runs: int = 300
    seconds: float = 60.0
    seed: int = 0
    sessions: int = 300


def explore_feedback(
    spec: ExploreSpec,
    command: tuple[str, ...],
    folder: Path,
    runner: str = "pipe",
    sandbox: Sandbox | None = None,
) -> str:
    """Explore ``command`` (written for ``folder``) and say what was found, in a few lines:
    the shrunk transcript to save and replay, and the first difference."""
    grammar = grammar_of(spec.reference)
    target = Target(grammar.program, command, folder)
    explorer = Explorer(
        grammar,
        Program(make_runner(runner), target, sandbox),
        Budget(spec.runs, spec.seconds),
        name=f"explored: {spec.reference}, seed {spec.seed}",
    )
    heading = f"explore ({spec.reference}, seed {spec.seed}):"
    try:
        found = explorer.find(spec.seed, spec.sessions)
        for each in ([found] if found is not None else []) + explorer.optional:
            explorer.shrink(each)
    except CannotRun as error:
        return f"{heading} not run: {error}\n"
    parts = "".join(
        f"{heading} {each.part.name}: not attempted, or not as the reference plays it"
        " (the rest was explored without it)\n"
        for each in explorer.optional
        if each.part is not None
    )
    if found is None:
        other = " other" if parts else ""
        return (
            f"{parts}{heading} no{other} difference in {explorer.tried} generated sessions"
            f" ({explorer.runs} runs)\n"
        )
    text = dump_transcript(found.transcript)
    shown = "".join(f"  {line}\n" for line in text.splitlines())
    what = f"differs on a generated session of {found.lines} input lines"
    if found.transcript.play is not None:
        what = (
            "did not win every game its advanced AI could win, in games casino played against it"
            f" ({found.transcript.play.describe()})"
        )
    return parts + (
        f"{heading} your program {what}. Save it as explore.yaml (without the two leading"
        " spaces) and run\n"
        f"casino replay --program {shlex.quote(shlex.join(command))} explore.yaml"
        f" to see it again:\n\n{shown}\n{render(replace(found.result, path='explore.yaml'))}"
    )
