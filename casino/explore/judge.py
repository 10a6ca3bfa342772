"""Sessions made into transcripts recorded from the reference, and judged by the harness.

:func:`reference_transcript` plays a session through casino's reference in this process
(:class:`~casino.harness.runners.inproc.InProcessRunner`, so each ``out`` chunk ends exactly
where the program reads) and writes down what it printed: an ordinary transcript.
:func:`judge` is the one place explore asks for a verdict: it is the harness's own
:func:`casino.harness.session.check` — the same runners, the same judge
(:mod:`casino.harness.diff`: ``out_any`` alternatives, ``match:`` allowances and whatever
facts that judge weighs) — so a session explore reports is one ``casino replay`` fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from casino.explore.plan import Grammar, Session
from casino.harness.model import In, Inline, Out, Run, Step, Transcript
from casino.harness.runners.base import Outcome, Runner, Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.runners.sandbox import Sandbox
from casino.harness.session import Status, TranscriptResult, check, play


@dataclass(frozen=True)
class Program:
    """What is explored: a runner and a target (a command, or a casino program by name)."""

    runner: Runner
    target: Target
    sandbox: Sandbox | None = None


def skeleton(grammar: Grammar, session: Session, name: str = "explored session") -> Transcript:
    """The session as a transcript with its input only (no output yet)."""
    rendered = grammar.render(session)
    runs = tuple(
        Run(tuple(In(line) for line in run.lines), run.args or None) for run in rendered.runs
    )
    files = tuple((file, Inline(text)) for file, text in rendered.files) or None
    return Transcript(
        name=name, runs=runs, program=grammar.program, files=files, single=len(runs) == 1
    )


def reference_transcript(
    grammar: Grammar, session: Session, name: str = "explored session"
) -> Transcript | None:
    """The session recorded from casino's reference in this process; ``None`` when the
    reference does not accept it (the grammar's model refuses a line, or the reference did
    not read every line, or did not end by itself)."""
    if grammar.unpinned(session) is not None:
        return None
    record = getattr(grammar, "record", None)  # an external reference (--grammar FILE)
    if record is not None:
        return cast("Transcript | None", record(session, name))
    bare = skeleton(grammar, session, name)
    outcomes = play(bare, InProcessRunner(), Target(grammar.program))
    errors = getattr(grammar, "judges_errors", False)  # casino's choices: stderr and exit too
    runs = []
    for run, outcome in zip(bare.runs, outcomes, strict=True):
        if outcome.problem or outcome.consumed != len(run.inputs):
            return None
        steps = _steps(run.inputs, outcome)
        if errors:
            runs.append(Run(steps, run.args, exit=outcome.exit, stderr=outcome.stderr))
        else:
            runs.append(Run(steps, run.args))  # exit and stderr: not compared
    recorded = Transcript(
        name=bare.name,
        runs=tuple(runs),
        program=bare.program,
        files=bare.files,
        single=bare.single,
    )
    loosen = getattr(grammar, "loosen", None)  # optional: where several outputs are right
    return recorded if loosen is None else cast(Transcript, loosen(session, recorded))


def _steps(lines: list[str], outcome: Outcome) -> tuple[Step, ...]:
    steps: list[Step] = []
    for index, chunk in enumerate(outcome.chunks):
        if chunk:
            steps.append(Out(chunk))
        if index < len(lines):
            steps.append(In(lines[index]))
    return tuple(steps)


def judge(transcript: Transcript, program: Program) -> TranscriptResult:
    """The harness's verdict on ``program`` against ``transcript`` (the one judge)."""
    return check(transcript, program.runner, program.target, program.sandbox)


def differs(result: TranscriptResult) -> bool:
    """Whether the program failed the transcript (an ``ERROR`` is not a difference)."""
    return result.status is Status.FAIL
