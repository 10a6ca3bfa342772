"""A page a course can publish: the final score (after the late rule) beside its parts in the
summary and the feedback, the median and quartiles as statisticians compute them, a run worth
0 points as feedback only, and the student's copy saying what the staff copy says."""

from __future__ import annotations

import statistics
from datetime import UTC, datetime
from pathlib import Path

import pytest

from casino.grade.course import Material
from casino.grade.late import Lateness
from casino.grade.results import Kind, Score, ScoreStatus, StudentResult, feedback, withheld_line
from casino.grade.summary import quartiles, summary_html
from casino.harness.model import Run
from casino.harness.parse import parse_transcript
from casino.harness.runners.base import (
    Job,
    Outcome,
    RunnerName,
    Target,
    cannot_start,
    overtime_problem,
)
from casino.harness.session import TranscriptResult, check

ONE_RUN = 'name: greets\nsteps:\n  - out: "hello world\\n"\npoints: 11.5\n'
GRADED = ONE_RUN + "rubric: {format: 1, behaviour: 9}\n"
ZERO_RUN = """\
name: remembers
runs:
  - points: 2
    steps:
      - out: "saved\\n"
  - points: 2
    steps:
      - out: "loaded\\n"
  - points: 0
    steps:
      - out: "advanced\\n"
"""
DUE = datetime(2019, 5, 31, 15, 0, tzinfo=UTC)


class Scripted:
    """A runner that returns the given outcomes, one per run, in order."""

    name = RunnerName.PIPE  # stands in for a separate program

    def __init__(self, *outcomes: Outcome) -> None:
        self.outcomes = list(outcomes)

    def run(self, job: Job) -> Outcome:
        return self.outcomes.pop(0)


def checked(text: str, *outcomes: Outcome) -> TranscriptResult:
    transcript = parse_transcript(text, Path("t.yaml"))
    return check(transcript, Scripted(*outcomes), Target(None, ("student",)))


def student(name: str, points: float) -> StudentResult:
    status = ScoreStatus.PASS if points == 11.5 else ScoreStatus.FAIL
    score = Score("t.yaml", status, points, 11.5, "", kind=Kind.DIFF)
    return StudentResult(name, (score,))


def late(raw: float, penalty: float) -> Lateness:
    return Lateness(DUE, DUE, "--submitted", 4 if penalty else 0, raw, 11.5, penalty)


COURSE = [Material(parse_transcript(ONE_RUN, Path("t.yaml")), (), "d")]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([0.5, 0.7, 0.78, 0.9], (0.65, 0.74, 0.81)),  # the median of an even count: 74 %, not 78
        ([1, 2, 3, 4, 5], (2, 3, 4)),
        ([0.25], (0.25, 0.25, 0.25)),
        ([0, 1], (0.25, 0.5, 0.75)),
    ],
)
def test_the_median_and_quartiles_are_the_statisticians(
    values: list[float], expected: tuple[float, float, float]
) -> None:
    assert quartiles(values) == pytest.approx(expected)
    assert quartiles(values)[1] == statistics.median(values)


def test_the_overview_counts_the_final_scores_after_the_late_rule() -> None:
    results = [student("ann", 5.75), student("bob", 8.05), student("cat", 8.97)]
    results.append(student("dan", 11.5))
    plain = summary_html(COURSE, results, "none")
    assert "4 submissions; scores: mean 74%, median 74%, quartiles 65% and 84%;" in plain
    finals = {"ann": late(5.75, 0), "bob": late(8.05, 0), "cat": late(8.97, 0)}
    finals["dan"] = late(11.5, 11.5)  # five days late: nothing
    page = summary_html(COURSE, results, "none", late=finals)
    assert "final scores (after the late rule): mean 50%, median 60%, quartiles 38% and 72%" in page
    assert "0 with full marks" in page


def test_the_students_table_shows_the_final_score_beside_its_parts() -> None:
    results = [student("grace", 9)]
    page = summary_html(COURSE, results, "none", late={"grace": late(9, 7.2)})
    assert "<th>student</th><th>final</th><th>raw</th><th>penalty</th>" in page
    assert '<a href="feedback/grace.txt">grace</a></td><td>1.8/11.5</td><td>9/11.5</td>' in page
    assert "<td>7.2</td>" in page
    plain = summary_html(COURSE, results, "none")
    assert "<th>student</th><th>score</th>" in plain and "<td>9/11.5</td>" in plain


def test_the_feedback_opens_with_the_final_score_beside_its_parts() -> None:
    result = student("grace", 9)
    text = feedback(result, late=late(9, 7.2))
    assert text.splitlines()[0] == "grace: 1.8/11.5 final (raw 9/11.5, late penalty 7.2)"
    assert feedback(result, late=late(9, 0)).splitlines()[0] == "grace: 9/11.5"
    assert feedback(result).splitlines()[0] == "grace: 9/11.5"


def test_a_run_worth_no_points_is_feedback_only() -> None:
    """A full-marks chain whose last run, worth 0, differs: a PASS with all its points (not a
    PARTIAL [4/4] in red), the run's failure still explained."""
    outcomes = [Outcome((text,), exit=0) for text in ("saved\n", "loaded\n", "advance\n")]
    score = Score.of(checked(ZERO_RUN, *outcomes))
    assert (score.status, score.kind, score.points, score.failed_runs) == ("pass", "pass", 4, ())
    lines = score.feedback.splitlines()
    assert lines[0] == "PASS [4/4] remembers (t.yaml)"
    assert "  run 3 of 3: FAIL (feedback only: worth no points)" in lines
    assert "  run 1 of 3: PASS [2/2]" in lines
    material = Material(parse_transcript(ZERO_RUN, Path("t.yaml")), (), "d")
    page = summary_html([material], [StudentResult("ann", (score,))], "none")
    assert '<td class="pass">pass</td>' in page
    failing = [Outcome(("saved\n",), exit=0), *[Outcome(("x\n",), exit=0)] * 2]
    counted = Score.of(checked(ZERO_RUN, *failing))  # a run with points failed too: it counts
    assert (counted.status, counted.points) == ("fail", 2)
    assert counted.feedback.startswith("FAIL [2/4] remembers")


STARTLESS = cannot_start(Job(Target(None, ("java",)), Run(()), Path(".")), "No such file")


@pytest.mark.parametrize(
    ("text", "outcome", "word"),
    [
        (ONE_RUN, Outcome(("hello world\n",), exit=0), "PASS"),
        (ONE_RUN, Outcome(("hello  world\n",), exit=0), "FAIL"),
        (GRADED, Outcome(("hello  world\n",), exit=0), "PARTIAL"),  # was FAIL for the student
        (GRADED, Outcome(("hello world\n",), problem=overtime_problem(3)), "PARTIAL"),
        (GRADED, Outcome(("bye\n",), exit=0), "FAIL"),
        (ONE_RUN, Outcome(("",), problem=STARTLESS), "FAIL"),
    ],
)
def test_the_students_copy_and_the_staff_copy_agree_on_the_verdict(
    text: str, outcome: Outcome, word: str
) -> None:
    score = Score.of(checked(text, outcome))
    staff = score.feedback.split()[0]
    assert staff == word
    assert withheld_line(score, "greets").split()[0] == staff
    assert score.word == staff
