"""The judge is total: no transcript, rubric and output make it raise, and a bug in it is the
transcript's ``ERROR`` with the reason, never a lost grade for anyone else.

Random transcripts (``out``, ``out_any``, ``out_re``, ``in`` steps, chained runs, stated
stderr and exit statuses, every kind of fact and rubric) are judged against random outputs,
cut into random chunks as each runner cuts them (one chunk through a pipe, one per input
through a terminal); the credit is always a share from 0 to 1, an exact run always 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.harness import behaviour, diff, regex
from casino.harness.behaviour import common_pairs
from casino.harness.diff import compare_run
from casino.harness.judging import judge_behaviour
from casino.harness.model import In, Out, OutAny, OutRe, Run, Step, Transcript
from casino.harness.rubric import EVERY_WORD_AND_NUMBER, Facts, Grading, Rubric
from casino.harness.runners.base import Job, Outcome, Target
from casino.harness.session import Status, check
from harness.harness_support import run_cli, write_transcript

ALPHABET = "ab1 2.\n$:"
TEXT = st.text(ALPHABET, max_size=12)
PATTERNS = st.sampled_from(["\\d+\\n", "a*", "(?s).*", "b+", "", "x?", "[ab]+ \\d", "\\$"])
FACTS = st.sampled_from(
    [
        EVERY_WORD_AND_NUMBER,
        Facts(numbers=True),
        Facts(words=("a", "b b", "ab")),
        Facts(numbers=True, patterns=("\\b[ab]\\b",)),
        Facts(patterns=("\\$",), all_words=True),
        Facts(),
    ]
)
RUBRICS = st.sampled_from([Rubric(0, 1), Rubric(1, 9), Rubric(0.5, 5), Rubric(1, 0)])


def _steps() -> st.SearchStrategy[tuple[Step, ...]]:
    one: st.SearchStrategy[Step] = st.one_of(
        TEXT.map(Out),
        st.lists(TEXT, min_size=2, max_size=3, unique=True).map(lambda t: OutAny(tuple(t))),
        PATTERNS.map(OutRe),
        st.text("ab12 ", max_size=5).map(In),
    )
    return st.lists(one, max_size=8).map(tuple)


@st.composite
def _outcome(draw: st.DrawFn) -> Outcome:
    output = draw(st.text(ALPHABET, max_size=40))
    cuts = sorted(draw(st.lists(st.integers(0, len(output)), max_size=4)))
    bounds = [0, *cuts, len(output)]
    chunks = tuple(output[start:end] for start, end in pairwise(bounds))
    stderr = draw(st.sampled_from(["", "1 a\n", "oops"]))
    return Outcome(chunks, stderr, draw(st.sampled_from([0, 0, 1, None, -11])))


@pytest.fixture(autouse=True)
def _patterns_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Patterns searched here rather than in a forked child (the random patterns are all
    quick; thousands of forks would only cost time)."""
    monkeypatch.setattr(regex, "bounded", lambda work, pattern, seconds: work())


RANDOM = settings(
    max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@RANDOM
@given(
    steps=_steps(),
    outcome=_outcome(),
    stderr=st.sampled_from([None, "", "1 a\n"]),
    exit=st.sampled_from([None, 0, 1]),
    facts=FACTS,
    rubric=RUBRICS,
)
def test_no_transcript_and_output_make_the_judge_raise(
    steps: tuple[Step, ...],
    outcome: Outcome,
    stderr: str | None,
    exit: int | None,
    facts: Facts,
    rubric: Rubric,
) -> None:
    verdict = compare_run(Run(steps, exit=exit, stderr=stderr), outcome, (), Grading(rubric, facts))
    assert 0 <= verdict.credit <= 1
    assert verdict.passed == (verdict.credit == 1 and verdict.kind in ("exact", "allowed")) or (
        verdict.kind == "behaviour" and rubric.format == 0
    )
    if verdict.behaviour is not None:
        assert verdict.why is None or verdict.why.startswith("behaviour only:")


@settings(RANDOM, max_examples=300)
@given(steps=_steps(), facts=FACTS, last=st.booleans())
def test_the_expected_output_itself_keeps_every_behaviour_point(
    steps: tuple[Step, ...], facts: Facts, last: bool
) -> None:
    """The text the transcript expects (each ``out_any`` as its first text; or, when no
    fact runs across two steps, each ending a line, and only one is an ``out_any``, as its
    last: each ``out_any``'s text is chosen in turn; no ``out_re``) has every fact right,
    whatever the rubric."""
    plain = tuple(step for step in steps if not isinstance(step, (OutRe, In)))
    last = last and sum(isinstance(step, OutAny) for step in plain) <= 1
    if last:
        plain = tuple(
            Out(s.text + "\n") if isinstance(s, Out) else OutAny(tuple(t + "\n" for t in s.texts))
            for s in plain
            if isinstance(s, (Out, OutAny))
        )
    texts = [s.text if isinstance(s, Out) else s.texts[-1 if last else 0] for s in plain]
    behaviour = judge_behaviour(plain, "".join(texts), Grading(Rubric(1, 9), facts))
    assert behaviour.kept == 1


@settings(max_examples=500, deadline=None)
@given(
    a=st.lists(st.sampled_from("abcd"), max_size=30),
    b=st.lists(st.sampled_from("abcd"), max_size=30),
)
def test_the_alignment_is_a_longest_common_subsequence(a: list[str], b: list[str]) -> None:
    pairs = common_pairs(a, b)
    assert all(a[i] == b[j] for i, j in pairs)
    assert all(p < q for (p, _), (q, _) in pairwise(pairs))
    assert all(p < q for (_, p), (_, q) in pairwise(pairs))
    assert len(pairs) == _lcs_length(a, b)


def test_a_long_alignment_is_split_and_stays_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(behaviour, "ROW_BITS", 16)
    a = list("abcabbacbcabacbbcaab" * 3)
    b = list("bacbcabcabbcaacbcbab" * 3)
    pairs = common_pairs(a, b)
    assert len(pairs) == _lcs_length(a, b) and all(a[i] == b[j] for i, j in pairs)


def _lcs_length(a: list[str], b: list[str]) -> int:
    """The textbook table's answer: the oracle."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            diagonal = table[i][j] + 1 if x == y else 0
            table[i + 1][j + 1] = max(diagonal, table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


@dataclass
class _Replayed:
    """A runner that hands back the given outcomes, one per run, in order."""

    outcomes: Iterator[Outcome]

    def run(self, job: Job) -> Outcome:
        return next(self.outcomes)


@settings(RANDOM, max_examples=200)
@given(
    runs=st.lists(_steps(), min_size=1, max_size=3),
    outcomes=st.lists(_outcome(), min_size=3, max_size=3),
    facts=FACTS,
    rubric=RUBRICS,
)
def test_a_chain_of_random_runs_is_scored_run_by_run(
    runs: list[tuple[Step, ...]], outcomes: list[Outcome], facts: Facts, rubric: Rubric
) -> None:
    chain = tuple(Run(steps, exit=0) for steps in runs)
    grading = Grading(rubric, facts)
    transcript = Transcript("random", chain, program="x", points=len(runs), grading=grading)
    result = check(transcript, _Replayed(iter(outcomes)), Target("x"))  # type: ignore[arg-type]
    assert result.status in (Status.PASS, Status.FAIL)
    assert 0 <= result.points <= result.max_points == len(runs)


def test_an_out_of_one_fact_then_an_out_re_against_nothing_is_judged() -> None:
    """The issue's crash: an ``out`` holding one fact, then an ``out_re``, and a program
    that prints nothing (``IndexError`` in the old judge)."""
    run = Run((Out("1\n"), OutRe("\\d+\\n")), exit=0)
    verdict = compare_run(run, Outcome(("",), "", 0), (), Grading(Rubric(1, 9)))
    assert verdict.kind == "fail" and verdict.credit == 0
    assert verdict.behaviour is not None and verdict.behaviour.right == 0


def test_a_bug_in_the_judge_is_the_transcripts_error_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object) -> None:
        raise IndexError("list index out of range")

    monkeypatch.setattr(diff, "judge_behaviour", broken)
    run = Run((Out("1\n"),), exit=0)
    transcript = Transcript("x", (run,), program="x", grading=Grading(Rubric(1, 9)))
    outcome = Outcome(("2\n",), "", 0)
    result = check(transcript, _Replayed(iter([outcome])), Target("x"))  # type: ignore[arg-type]
    assert result.status is Status.ERROR and result.points == 0
    assert result.error == (
        ": a bug in casino while judging it: IndexError: list index out of range"
    )


def test_replay_score_goes_on_past_a_bug_in_the_judge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``replay --score``: the transcript the judge failed on is an ``ERROR`` naming the bug,
    scored 0; the others are judged as ever (no ``internal error`` for the whole replay)."""
    calls = []

    def broken_once(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            raise IndexError("list index out of range")
        return judge(*args)

    judge = judge_behaviour  # the real one, which compare_run calls through diff
    monkeypatch.setattr(diff, "judge_behaviour", broken_once)
    settings = "rubric: {format: 1, behaviour: 3}\nfacts: {numbers: true}\n"
    write_transcript(tmp_path / "casino.yaml", settings)
    text = 'name: NAME\nprogram: demo\nsteps:\n  - in: add 2 3\n  - out: "2 + 3 = 5\\n"\n'
    first = write_transcript(tmp_path / "a.yaml", text.replace("NAME", "a"))
    write_transcript(tmp_path / "b.yaml", text.replace("NAME", "b"))
    program = tmp_path / "sum.sh"
    program.write_text("read line\necho '2 plus 3 is 5'\n")
    result = run_cli("replay", "--score", "--program", f"sh {program}", tmp_path)
    lines = result.out.splitlines()
    assert lines[0] == (
        f"ERROR [0/1] {first}: a bug in casino while judging it: IndexError: list index out of "
        "range"
    )
    assert lines[-1] == "score: 0.75/2" and "internal error" not in result.out + result.err
