"""``casino replay --update``: bless the program's current output into its transcripts.

The ``out`` chunks are rewritten from what the program printed between its reads (the
in-process runner's exact chunks), so the steps keep alternating output and input where the
program really read. What is kept as it is:

- an ``in`` step, always (update never changes what is typed);
- an output group (the ``out``/``out_re`` steps between two ``in`` steps) whose text already
  equals the chunk, however it is split (so hand-split chunks survive);
- an ``out_re`` or ``out_any`` step: a group holding one must still match its chunk (an
  ``out_any`` by one of its texts), or the transcript is not updated (a pattern or a choice of
  texts cannot be blessed);
- ``exit`` and ``stderr``: rewritten only if the transcript states them;
- everything else (name, args, files, …).

A transcript is not updated when its run timed out or crashed, or when the program did not
read every ``in`` line (blessing would have to change the input).

With ``--program CMD`` (course staff's reference program, in any language) the output comes
from a terminal session typed as ``casino record --program`` types it
(:class:`~casino.harness.record.RecordingRunner`: each line once the program has settled), so
it splits where the program reads. Under ``--runner pipe`` only a run without ``in`` steps can
be blessed: a pipe cannot tell where the program read. An unchanged transcript is
not rewritten at all; a changed one is dumped in the canonical form (comments are not kept)
and written atomically.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

from casino.errors import IllegalAction
from casino.files import write_atomic
from casino.harness import regex
from casino.harness.dump import dump_transcript
from casino.harness.matching import piece_regex
from casino.harness.model import Out, Output, OutRe, Run, Step, Transcript, segments
from casino.harness.runners.base import Outcome


class CannotBless(IllegalAction):
    """Why a transcript cannot be updated from this outcome."""


def bless_run(run: Run, outcome: Outcome) -> Run:
    """``run`` with its output steps, and stated exit/stderr, taken from ``outcome``."""
    if outcome.problem:
        raise CannotBless(outcome.problem)
    plan = segments(run.steps)
    if outcome.consumed is None:  # the runner cannot tell where it read (a pipe)
        if len(plan) > 1:
            raise CannotBless(
                "a pipe cannot tell where the program reads its input, so its output cannot "
                "be split between the 'in' steps: use --runner pty (the default with --program)"
            )
        outcome = replace(outcome, consumed=0, chunks=(outcome.output,))
    if outcome.consumed != len(plan) - 1 or len(outcome.chunks) != len(plan):
        raise CannotBless(
            f"the program read {outcome.consumed} of the {len(plan) - 1} input lines; "
            "update never changes the input: fix the 'in' steps by hand"
        )
    steps: list[Step] = []
    for segment, chunk in zip(plan, outcome.chunks, strict=True):
        steps += _bless_group(list(segment.outputs), chunk)
        if segment.line is not None:
            steps.append(segment.line)
    return replace(
        run,
        steps=tuple(steps),
        exit=None if run.exit is None else outcome.exit,
        stderr=None if run.stderr is None else outcome.stderr,
    )


def _bless_group(group: list[Output], chunk: str) -> list[Output]:
    if any(not isinstance(step, Out) for step in group):
        with contextlib.suppress(regex.PatternTimeout):
            if regex.fullmatch(piece_regex(tuple(group)), chunk):
                return group
        kind = "out_re" if any(isinstance(step, OutRe) for step in group) else "out_any"
        raise CannotBless(
            f"an {kind} step no longer matches what the program prints there; fix it by hand"
        )
    if "".join(step.text for step in group if isinstance(step, Out)) == chunk:
        return group
    return [Out(chunk)]


def bless(transcript: Transcript, outcomes: tuple[Outcome, ...]) -> Transcript:
    """``transcript`` with every run blessed (:class:`CannotBless` names the run if needed;
    a ``play:`` transcript has no output to bless: its verdict is who won)."""
    if transcript.play is not None:
        raise CannotBless("its games are played live and judged by who won: nothing to bless")
    runs = []
    for number, (run, outcome) in enumerate(zip(transcript.runs, outcomes, strict=True), 1):
        try:
            runs.append(bless_run(run, outcome))
        except CannotBless as reason:
            where = f"run {number}: " if len(transcript.runs) > 1 else ""
            raise CannotBless(f"{where}{reason}") from None
    return transcript.with_runs(tuple(runs))


def write_if_changed(old: Transcript, new: Transcript) -> bool:
    """Write ``new`` over ``old``'s file (atomically) if it differs; whether it did."""
    if new == old or old.path is None:
        return False
    write_atomic(old.path, dump_transcript(new))
    return True
