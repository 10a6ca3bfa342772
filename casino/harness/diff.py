"""Comparing what a program did with what a transcript expects: the verdict on a run.

:func:`compare_run` is the one judge of a step transcript's run: its output compared exactly
(:mod:`casino.harness.matching`) or as a near miss (:mod:`casino.harness.nearmiss`), its stated
stderr and exit status, and with a rubric its facts (:mod:`casino.harness.judging`).
:meth:`RunVerdict.of` is the one constructor of a verdict, for every judge.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from casino.harness import regex
from casino.harness.behaviour import Behaviour
from casino.harness.judging import judge_behaviour, nothing_kept
from casino.harness.matching import TextComparison, compare_exactly, compare_text, output_pieces
from casino.harness.model import Run, Step
from casino.harness.nearmiss import ALL_KINDS, kinds_of, near_miss, passes
from casino.harness.rubric import Grading
from casino.harness.runners.base import (
    FailureKind,
    Outcome,
    failure_of,
    signal_problem,
    stopped_answering,
)


class VerdictKind(StrEnum):
    """How a run went (:attr:`RunVerdict.kind`); its text is the word reports and files use."""

    EXACT = "exact"
    """It passed as the transcript states it."""
    ALLOWED = "allowed"
    """It passed with a ``match:`` allowance."""
    BEHAVIOUR = "behaviour"
    """It failed but kept behaviour points (a rubric judged its facts)."""
    FAIL = "fail"
    """It failed and kept nothing."""
    ERROR = "error"
    """A transcript's only (:attr:`casino.harness.session.TranscriptResult.kind`): it could
    not be run at all."""
    SKIP = "skip"
    """A transcript's only: it was not run (its status ``SKIP``)."""
    PASS = "pass"
    """A transcript's only: it passed with no run judged (its status, as for ``error``)."""


@dataclass(frozen=True)
class RunVerdict:
    """How one run went against its part of the transcript (built by :meth:`of`, the one
    constructor every judge uses: step transcripts' :func:`compare_run` and ``play:``
    transcripts' :func:`casino.harness.play.play_games`)."""

    output: TextComparison
    stderr: TextComparison | None
    """``None`` when the transcript does not state the stderr."""
    exit_expected: int | None
    exit_actual: int | None
    problem: str | None
    """Timed out, crashed, killed, could not start: always a failure."""
    unpinned_stderr: str = ""
    """What the program wrote to stderr when the transcript does not state it (shown with a
    failure, never compared)."""
    stderr_dropped: int = 0
    """Bytes of stderr the runner did not keep."""
    behaviour: Behaviour | None = None
    """How its facts went, when it did not pass and is graded by a rubric."""
    failure: FailureKind | None = None
    """What kind of problem :attr:`problem` is (``None``: none), as the runner said."""

    @classmethod
    def of(
        cls,
        outcome: Outcome,
        output: TextComparison,
        stderr: TextComparison | None = None,
        exit_expected: int | None = None,
    ) -> RunVerdict:
        """The verdict on ``outcome`` given its judged ``output`` (and ``stderr``, when the
        transcript states it; what it wrote is otherwise kept unpinned, to be shown): its
        problem is the runner's, or the signal that killed it."""
        problem = outcome.problem or signal_problem(outcome.exit)
        return cls(
            output=output,
            stderr=stderr,
            exit_expected=exit_expected,
            exit_actual=outcome.exit,
            problem=problem,
            unpinned_stderr=outcome.stderr if stderr is None else "",
            stderr_dropped=outcome.stderr_dropped,
            failure=outcome.failure if outcome.problem else failure_of(problem),
        )

    @property
    def exit_differs(self) -> bool:
        """An expected exit status that the program did not end with."""
        return self.exit_expected is not None and self.exit_expected != self.exit_actual

    @property
    def passed(self) -> bool:
        """Output, stderr and exit status as expected, and the run ended by itself."""
        stderr_ok = self.stderr is None or self.stderr.difference is None
        return (
            self.output.difference is None
            and stderr_ok
            and not self.exit_differs
            and self.problem is None
        )

    @property
    def credit(self) -> float:
        """The share of the run's points earned: 1 if it passed, its behaviour share when a
        rubric grades it and its facts were right, else 0."""
        if self.passed:
            return 1.0
        return 0.0 if self.behaviour is None else self.behaviour.credit

    @property
    def kind(self) -> VerdictKind:
        """``exact``, ``allowed`` (passed with a ``match:`` allowance), ``behaviour`` (kept
        behaviour points only) or ``fail``."""
        if self.passed:
            return VerdictKind.ALLOWED if self.output.note else VerdictKind.EXACT
        return VerdictKind.BEHAVIOUR if self.credit > 0 else VerdictKind.FAIL

    @property
    def why(self) -> str | None:
        """Why a pass needed an allowance, or why a run kept only behaviour points."""
        if self.kind is VerdictKind.ALLOWED:
            return self.output.note
        if self.behaviour is None or self.kind is not VerdictKind.BEHAVIOUR:
            return None
        if self.behaviour.perfect:
            wording = self.output.note or "differs in wording"
            return f"behaviour only: it {wording.removeprefix('it ')}; every fact is right"
        right = f"{self.behaviour.right} of {self.behaviour.facts} facts right"
        if self.behaviour.extra:
            right += f", {self.behaviour.extra} extra"
        return f"behaviour only: {right}; first wrong: {self.behaviour.wrong}"


def compare_output(
    steps: tuple[Step, ...], actual: str, allowed: tuple[str, ...] = ()
) -> TextComparison:
    """The run's expected output against ``actual``, difference attributed to its step; a
    near miss named, and passed when it is of a kind ``allowed``."""
    exact = compare_exactly(steps, actual)
    if exact.difference is None:
        return exact
    pieces = output_pieces(steps)
    loose = kinds_of(allowed)
    if loose and passes(pieces, actual, loose):
        words = near_miss(pieces, actual, loose)
        note = f"passed with match: {', '.join(allowed)}" + (f"; it {words}" if words else "")
        return TextComparison(exact.expected, actual, None, note)
    words = near_miss(pieces, actual, ALL_KINDS)
    return replace(exact, note=words) if words else exact


def compare_run(
    run: Run, outcome: Outcome, allowed: tuple[str, ...] = (), grading: Grading | None = None
) -> RunVerdict:
    """The verdict on one run: output, stated stderr, stated exit status, and any problem;
    the output also passes with a near miss of a kind ``allowed``; with ``grading``, a run
    that does not pass is also judged on its facts (:attr:`RunVerdict.behaviour`)."""
    stderr = None if run.stderr is None else compare_text(run.stderr, outcome.stderr)
    output = compare_output(run.steps, outcome.output, allowed)
    verdict = RunVerdict.of(outcome, output, stderr, run.exit)
    # A run that stopped answering is judged on what it printed (it has no exit status).
    unjudged = bool(verdict.problem) or verdict.exit_differs
    if grading is None or verdict.passed or (unjudged and not stopped_answering(verdict.failure)):
        return verdict
    facts = grading.facts
    try:
        if stderr is not None and facts.of(stderr.expected, trusted=True) != facts.of(
            stderr.actual
        ):
            behaviour = nothing_kept(grading.rubric.format_share, "stderr: its facts differ")
        else:
            behaviour = judge_behaviour(run.steps, outcome.output, grading)
    except regex.PatternTimeout:
        behaviour = nothing_kept(grading.rubric.format_share, "a fact pattern took too long")
    return replace(verdict, behaviour=behaviour)
