"""Closed vocabularies are typed and carried, never read back from words (issue 41 items 1, 3):
a run's failure kind is set by the runner where the problem arises and travels through the
one verdict constructor (:meth:`RunVerdict.of`) to the gradebook's kind."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from casino.grade.results import Kind, Score, ScoreStatus, StudentResult, failure_kind
from casino.harness.diff import RunVerdict, VerdictKind
from casino.harness.matching import compare_text
from casino.harness.model import In, Out, Run
from casino.harness.runners import RUNNER_NAMES, make_runner
from casino.harness.runners.base import (
    FailureKind,
    Job,
    Outcome,
    Problem,
    RunnerName,
    Target,
    cannot_start,
    flood_problem,
    overtime_problem,
    stopped_answering,
)
from casino.harness.session import Status, TranscriptResult

CASINO = Path(__file__).resolve().parents[2] / "casino"

MESSAGE_STARTS = (
    "timed out",
    "stopped: it printed",
    "cannot start",
    "could not start",
    "killed by",
)
PREFIX_MATCH = re.compile(
    r"""(startswith|removeprefix)\(\s*(TIMED_OUT|FLOODED|CANNOT_START|["'](?:"""
    + "|".join(map(re.escape, MESSAGE_STARTS))
    + r"""))"""
    + r"""|["'](?:time|timed out|stopped|cannot start|killed)[^"']*["']"""
    + r"""\s+(?:not\s+)?in\s+[\w.]*(?:problem|why)"""
)
"""A kind recovered from a message's words: its start matched, or a word looked for in it."""


def prefix_matches(text: str) -> list[str]:
    """The lines of ``text`` that recover a kind from a message's words."""
    return [line.strip() for line in text.splitlines() if PREFIX_MATCH.search(line)]


def test_the_search_finds_the_prefix_matching_it_forbids() -> None:
    old = """\
    if problem.startswith(TIMED_OUT):
    if verdict.problem and verdict.problem.startswith("cannot start"):
    if outcome.problem is not None and "time" in outcome.problem:
    return problem is not None and problem.startswith('stopped: it printed')
    if not sys.platform.startswith("linux"):
    """
    assert len(prefix_matches(old)) == 4


def test_no_module_recovers_a_kind_from_a_messages_words() -> None:
    found = {
        str(path.relative_to(CASINO)): hits
        for path in sorted(CASINO.rglob("*.py"))
        if (hits := prefix_matches(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_only_the_one_constructor_builds_a_run_verdict() -> None:
    built = {
        str(path.relative_to(CASINO)): count
        for path in sorted(CASINO.rglob("*.py"))
        if (count := len(re.findall(r"\bRunVerdict\(", path.read_text(encoding="utf-8"))))
    }
    assert built == {}  # diff.py builds it as ``cls(...)`` in RunVerdict.of only


def test_each_problem_carries_its_kind_and_keeps_its_words() -> None:
    job = Job(Target(None, ("./nowhere",)), Run(()), Path("."))
    assert cannot_start(job, "No such file or directory").failure is FailureKind.CANNOT_START
    assert cannot_start(job, "x") == "cannot start './nowhere': x"
    flood = flood_problem(10, where=" in game 2")
    assert (flood, flood.failure) == ("stopped: it printed more than 10 bytes in game 2", "flood")
    late = overtime_problem(2.5)
    assert late == "timed out: still running after 2.5 s; it was stopped"
    assert stopped_answering(late.failure) and not stopped_answering(flood.failure)
    assert Outcome(("",), problem="the run folder held too much").failure is FailureKind.CRASH
    assert Outcome(("",)).failure is None
    copy = pickle.loads(pickle.dumps(flood))
    assert (copy, copy.failure) == (flood, FailureKind.FLOOD)


def _verdict(outcome: Outcome, stated: str | None = None) -> RunVerdict:
    stderr = None if stated is None else compare_text(stated, outcome.stderr)
    return RunVerdict.of(outcome, compare_text("hi\n", outcome.output), stderr)


def test_the_one_constructor_keeps_the_runners_kind_and_names_a_signal_a_crash() -> None:
    killed = _verdict(Outcome(("hi\n",), "boom\n", exit=-9))
    assert (killed.problem, killed.failure) == ("killed by signal SIGKILL", FailureKind.CRASH)
    assert killed.unpinned_stderr == "boom\n"
    timed = _verdict(Outcome(("hi\n",), "x", problem=overtime_problem(1)), stated="x")
    assert (timed.failure, timed.unpinned_stderr, timed.kind) == ("timeout", "", VerdictKind.FAIL)
    passed = _verdict(Outcome(("hi\n",), exit=0))
    assert (passed.failure, passed.kind) == (None, VerdictKind.EXACT)


@pytest.mark.parametrize(
    ("problem", "kind"),
    [
        (overtime_problem(3), Kind.TIMEOUT),
        (flood_problem(5, stderr=True), Kind.FLOOD),
        (cannot_start(Job(Target("x"), Run(()), Path(".")), "gone"), Kind.ERROR),
        (Problem("a timed out-looking crash"), Kind.CRASH),
        ("timed out: words alone do not make a time-out", Kind.CRASH),
    ],
)
def test_the_gradebooks_kind_follows_the_runners_not_the_words(problem: str, kind: Kind) -> None:
    verdict = _verdict(Outcome(("hi\n",), problem=problem))
    result = TranscriptResult("t.yaml", Status.FAIL, verdicts=(verdict,), run_points=(1.0,))
    assert failure_kind(result) is kind
    score = Score.of(result)
    assert (score.kind, score.status, score.verdict) == (kind, ScoreStatus.FAIL, "fail")


def test_a_scores_labels_come_back_typed_from_json() -> None:
    verdict = _verdict(Outcome(("hi\n",), problem=flood_problem(1)))
    result = TranscriptResult("t.yaml", Status.FAIL, verdicts=(verdict,), run_points=(1.0,))
    student = StudentResult("ada", (Score.of(result),))
    back = StudentResult.from_json(student.to_json())
    assert back == student
    score = back.scores[0]
    assert type(score.kind) is Kind and type(score.status) is ScoreStatus
    assert type(score.verdict) is VerdictKind
    bad = student.to_json()
    bad["scores"][0]["kind"] = "meltdown"
    with pytest.raises(TypeError):
        StudentResult.from_json(bad)


def test_runner_names_are_one_vocabulary() -> None:
    assert RUNNER_NAMES == ("inproc", "pipe", "pty")
    assert {type(name) for name in RUNNER_NAMES} == {str}  # argparse shows their repr
    for name in RunnerName:
        assert make_runner(name).name is name
    with pytest.raises(ValueError, match="unknown runner 'tty'"):
        make_runner("tty")


def test_a_real_run_reports_its_kind(tmp_path: Path) -> None:
    run = Run((Out("hi\n"), In("x")))
    quiet = Job(Target(None, ("sleep", "30"), tmp_path), run, tmp_path, timeout=0.2)
    assert make_runner("pipe").run(quiet).failure is FailureKind.TIMEOUT
    flood = Job(Target(None, ("yes",), tmp_path), run, tmp_path, timeout=30)
    assert make_runner("pipe").run(flood).failure is FailureKind.FLOOD
    nowhere = Job(Target(None, ("./nowhere",), tmp_path), run, tmp_path)
    assert make_runner("pipe").run(nowhere).failure is FailureKind.CANNOT_START
