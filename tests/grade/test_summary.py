"""What staff and students read after ``casino grade``: the kind of each failure (decided in one
place, on the runners' own problem texts), feedback that opens with what went wrong and folds
a flood, the summary page (every student, "failed by N of M", the failure kinds, a stable
order, "run N of M", everything escaped, nothing fetched) and stdout's counts line."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from casino.grade import cli
from casino.grade.course import Course, Material
from casino.grade.results import (
    STDERR_LINE_MAX,
    Kind,
    Score,
    StudentResult,
    failure_kind,
    feedback,
    fold_repeats,
    runs_text,
)
from casino.grade.summary import ranked, summary_html
from casino.grade.work import built_nothing, not_graded
from casino.harness.model import Run
from casino.harness.parse import parse_transcript
from casino.harness.runners.base import (
    Job,
    Outcome,
    RunnerName,
    Target,
    cannot_start,
    flood_problem,
    overtime_problem,
    timed_out,
)
from casino.harness.session import Status, TranscriptResult, check
from grade.grade_support import TRANSCRIPTS

ONE_RUN = 'name: greets\nsteps:\n  - out: "hello\\n"\n'
CHAIN = """\
name: remembers
runs:
  - steps:
      - out: "saved\\n"
  - steps:
      - out: "loaded\\n"
  - steps:
      - out: "again\\n"
points: 3
"""
JAVA_TRACE = (
    'Exception in thread "main" java.util.NoSuchElementException\n'
    "\tat java.base/java.util.Scanner.throwFor(Scanner.java:937)\n"
)
PYTHON_TRACE = (
    "Traceback (most recent call last):\n"
    '  File "main.py", line 3, in <module>\n'
    "ZeroDivisionError: division by zero\n"
)


class Scripted:
    """A runner that returns the given outcomes, one per run, in order."""

    name = RunnerName.PIPE  # stands in for a separate program

    def __init__(self, outcomes: Sequence[Outcome]) -> None:
        self.outcomes = list(outcomes)

    def run(self, job: Job) -> Outcome:
        return self.outcomes.pop(0)


def checked(text: str, *outcomes: Outcome, path: str = "t.yaml") -> TranscriptResult:
    """The harness's own verdict on ``outcomes`` for the transcript ``text``."""
    transcript = parse_transcript(text, Path(path))
    return check(transcript, Scripted(outcomes), Target(None, ("student",)))


def material(text: str, path: str) -> Material:
    return Material(parse_transcript(text, Path(path)), (), "digest-" + path)


GOOD = Outcome(("hello\n",), exit=0)
STARTLESS = cannot_start(Job(Target(None, ("java",)), Run(()), Path(".")), "No such file")


@pytest.mark.parametrize(
    ("outcome", "kind"),
    [
        (GOOD, "pass"),
        (Outcome(("hullo\n",), exit=0), "diff"),
        (Outcome(("hullo\n",), exit=1), "diff"),  # an exit status alone, no error: a diff
        (Outcome(("",), stderr=JAVA_TRACE, exit=1), "crash"),
        (Outcome(("",), stderr=PYTHON_TRACE, exit=1), "crash"),
        (Outcome(("hel",), exit=-11), "crash"),  # killed by SIGSEGV
        (Outcome(("",), problem=overtime_problem(3.0)), "timeout"),
        (
            Outcome(("",), problem=timed_out("timed out: no output for 3 s; it was stopped")),
            "timeout",
        ),
        (Outcome(("hello\n" * 9,), problem=flood_problem(40)), "flood"),
        (Outcome(("",), problem=flood_problem(40, stderr=True)), "flood"),
        (Outcome(("",), problem=STARTLESS), "error"),
    ],
)
def test_each_way_a_run_ends_has_its_kind(outcome: Outcome, kind: Kind) -> None:
    result = checked(ONE_RUN, outcome)
    assert failure_kind(result) == kind
    assert Score.of(result).kind == kind


def test_a_transcript_that_could_not_be_played_is_an_error() -> None:
    result = TranscriptResult("t.yaml", Status.ERROR, error="t.yaml: files: 'x': cannot write")
    assert Score.of(result).kind == "error"


def test_a_crash_is_named_with_the_line_of_stderr_that_says_why() -> None:
    java = Score.of(checked(ONE_RUN, Outcome(("",), stderr=JAVA_TRACE, exit=1)))
    assert java.stderr_line == 'Exception in thread "main" java.util.NoSuchElementException'
    python = Score.of(checked(ONE_RUN, Outcome(("",), stderr=PYTHON_TRACE, exit=1)))
    assert python.stderr_line == "ZeroDivisionError: division by zero"
    assert python.feedback.splitlines()[:2] == [
        "FAIL [0/1] greets (t.yaml)",
        "  crashed (exit status 1): ZeroDivisionError: division by zero",
    ]
    long = Score.of(checked(ONE_RUN, Outcome(("",), stderr="E" * 5000 + "\n", exit=1)))
    assert long.stderr_line == "E" * STDERR_LINE_MAX + "…"
    signal = Score.of(checked(ONE_RUN, Outcome(("",), exit=-11)))
    assert signal.feedback.splitlines()[1] == "  crashed (killed by signal SIGSEGV)"


def test_feedback_reads_first_difference_then_diff_then_stderr() -> None:
    score = Score.of(checked(ONE_RUN, Outcome(("hullo\n",), stderr=JAVA_TRACE, exit=1)))
    text = feedback(StudentResult("ann", (score,)))
    marks = ["  crashed (exit status 1)", "  output differs at step 1", "  --- expected", "stderr"]
    places = [text.index(mark) for mark in marks]
    assert places == sorted(places)
    assert "\tat java.base/java.util.Scanner.throwFor(Scanner.java:937)" in text


def test_a_time_out_and_a_flood_open_with_what_they_are() -> None:
    late = Score.of(checked(ONE_RUN, Outcome(("",), problem=overtime_problem(3.0))))
    assert late.feedback.splitlines()[1] == "  " + overtime_problem(3.0)
    flood = Score.of(checked(ONE_RUN, Outcome(("x\n" * 50,), problem=flood_problem(100))))
    assert flood.feedback.splitlines()[1] == "  " + flood_problem(100)


def test_a_capped_flood_is_folded_in_the_feedback() -> None:
    menu = "Enter a command: \n"
    flood = Outcome(("hello\n" + menu * 4083,), problem=flood_problem(70000))
    score = Score.of(checked(ONE_RUN, flood))
    text = feedback(StudentResult("ann", (score,)))
    assert "  +Enter a command:·\n  … the line above 4,082 more times\n" in text
    assert text.count("Enter a command") == 1
    assert len(text.splitlines()) < 20


def test_folding_keeps_short_repeats_and_counts_long_ones() -> None:
    assert fold_repeats("a\na\nb\n") == "a\na\nb\n"
    assert fold_repeats("a\n  x\n  x\n  x\nb") == "a\n  x\n  … the line above 2 more times\nb"
    text = "z\n" + "q\n" * 1000
    assert fold_repeats(text) == "z\nq\n… the line above 999 more times\n"
    assert fold_repeats(fold_repeats(text)) == fold_repeats(text)


def test_a_chain_says_which_runs_failed() -> None:
    result = checked(
        CHAIN,
        Outcome(("saved\n",), exit=0),
        Outcome(("",), stderr=JAVA_TRACE, exit=1),
        Outcome(("again!\n",), exit=0),
        path="chain.yaml",
    )
    score = Score.of(result)
    assert (score.kind, score.failed_runs) == ("crash", (2, 3))
    assert runs_text(score.failed_runs, 3) == "runs 2, 3 of 3"
    assert runs_text((2,), 3) == "run 2 of 3"
    assert runs_text((), 3) == runs_text((1,), 1) == ""
    assert score.feedback.splitlines()[1] == (
        '  crashed in run 2 of 3 (exit status 1): Exception in thread "main" '
        "java.util.NoSuchElementException"
    )


def test_results_round_trip_and_an_old_cache_entry_is_not_read() -> None:
    chain = Score.of(checked(CHAIN, GOOD, GOOD, GOOD, path="chain.yaml"))
    result = StudentResult("ann", (chain,), "key")
    assert StudentResult.from_json(result.to_json()) == result
    old = result.to_json()
    del old["scores"][0]["kind"]
    with pytest.raises(KeyError):
        StudentResult.from_json(old)


# The summary page ----------------------------------------------------------------------------

COURSE = [material(ONE_RUN, "greet.yaml"), material(CHAIN, "state/chain.yaml")]
HOSTILE = '<img src=x onerror="alert(1)">&amp;'
"""A student's folder name, as hostile as a folder name can be."""


def course_results() -> list[StudentResult]:
    """Six students: one of each way of doing, in name order."""
    said = ("saved\n", "loaded\n", "again\n")
    good_chain = checked(CHAIN, *[Outcome((text,), exit=0) for text in said])
    chain_crash = checked(
        CHAIN,
        Outcome(("saved\n",), exit=0),
        Outcome(("",), stderr=JAVA_TRACE, exit=1),
        Outcome(("again\n",), exit=0),
    )
    hostile_out = Outcome(("</pre><script>alert(2)</script>\n",), exit=0)
    return [
        StudentResult("ann", (Score.of(checked(ONE_RUN, GOOD)), Score.of(good_chain))),
        StudentResult(
            "bob",
            (
                Score.of(checked(ONE_RUN, Outcome(("",), problem=overtime_problem(10)))),
                Score.of(chain_crash),
            ),
        ),
        built_nothing(_course(), "cat", "Main.java:3: error: ';' expected\n", ""),
        StudentResult(
            "dan",
            (
                Score.of(checked(ONE_RUN, Outcome(("y\n" * 9,), problem=flood_problem(9)))),
                Score.of(good_chain),
            ),
        ),
        not_graded(_course(), "eve", "the submission is over 64 MiB"),
        StudentResult(HOSTILE, (Score.of(checked(ONE_RUN, hostile_out)), Score.of(good_chain))),
    ]


def _course() -> Course:
    return Course(tuple(COURSE), ("student",))


def page() -> str:
    return summary_html(COURSE, course_results(), "CPU 60 s", ["rules.yaml", "ai.yaml"])


def row_of(html: str, student: str) -> str:
    start = html.index(f'<tr><td><a href="feedback/{student}.txt">')
    return html[start : html.index("</tr>", start)]


def test_every_student_has_a_row_with_each_transcript_and_a_link() -> None:
    html = page()
    cell = '<td class="{}">{}</td>'
    assert row_of(html, "ann").endswith(
        "<td>4/4</td>" + cell.format("pass", "pass") + cell.format("pass", "pass")
    )
    assert row_of(html, "bob").endswith(  # the chain's runs 1 and 3 still earn their points
        "<td>2/4</td>"
        + cell.format("timeout", "time-out")
        + cell.format("crash", "crash<br><small>run 2 of 3</small>")
    )
    assert row_of(html, "cat").endswith(
        cell.format("build", "build failed") + cell.format("build", "build failed")
    )
    assert row_of(html, "dan").endswith(cell.format("flood", "flood") + cell.format("pass", "pass"))
    error = cell.format("error", "error")
    assert row_of(html, "eve").endswith(error + error)


def test_failed_by_counts_the_submissions_that_ran() -> None:
    html = page()
    greet = html[html.index('<tr id="t1">') :].split("</tr>")[0]
    # ann, bob, dan and the hostile one ran (cat's build failed, eve was not graded)
    assert "<td>3 of 4</td><td>1 diff, 1 time-out, 1 flood</td>" in greet
    chain = html[html.index('<tr id="t2">') :].split("</tr>")[0]
    assert "<td>1 of 4</td><td>1 crash</td><td>run 2 of 3: 1</td>" in chain
    assert html.index('<tr id="t1">') < html.index('<tr id="t2">')  # the most failed first


def test_every_failure_kind_is_listed_with_who_it_hit() -> None:
    html = page()
    kinds = html.split("<h2>Failure kinds</h2>")[1].split("</table>")[0]
    for kind, label, results, students in [
        ("diff", "diff", 1, 1),
        ("crash", "crash", 1, 1),
        ("timeout", "time-out", 1, 1),
        ("flood", "flood", 1, 1),
        ("build", "build failed", 2, 1),
        ("error", "error", 2, 1),
    ]:
        row = kinds[kinds.index(f'<tr id="kind-{kind}"><td>{label}</td>') :].split("</tr>")[0]
        assert f"<td>{results}</td><td>{students}</td>" in row
    crash = kinds[kinds.index('id="kind-crash"') :].split("</tr>")[0]
    assert '<a href="feedback/bob.txt">bob</a>' in crash
    line = "Exception in thread &quot;main&quot; java.util.NoSuchElementException"
    assert f"<pre>{line}</pre><small>1 of them</small>" in crash


def test_the_skipped_transcripts_are_counted_and_named() -> None:
    html = page()
    assert "Transcripts: 2 graded, 2 skipped as casino-only (reference: casino)." in html
    assert "<li>rules.yaml</li><li>ai.yaml</li>" in html


def test_everything_a_student_wrote_is_escaped_and_nothing_is_fetched() -> None:
    html = page()
    assert "<script" not in html and "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;amp;" in html
    assert "&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert 'href="feedback/%3Cimg%20src%3Dx%20onerror%3D%22alert%281%29%22%3E%26amp%3B.txt"' in html
    # every reference stays on the page or beside it: no URL with a scheme, no src, no import
    references = re.findall(r'(?:href|src|action)="([^"]*)"', html)
    assert references and all(re.fullmatch(r"#t\d+|feedback/[^/]+\.txt", r) for r in references)
    assert "://" not in html and "@import" not in html and "url(" not in html
    assert "default-src 'none'" in html


def test_the_most_common_first_differences_have_a_stable_order() -> None:
    assert ranked(["b", "a", "c", "a", "b", "d"], 3) == [("a", 2), ("b", 2), ("c", 1)]
    assert ranked(["d", "b", "c", "b", "a", "a"], 3) == [("a", 2), ("b", 2), ("c", 1)]
    differing = [Outcome((f"{word}\n",), exit=0) for word in ("zeta", "alpha", "mu", "alpha")]
    scores = [Score.of(checked(ONE_RUN, outcome)) for outcome in differing]
    tables = set()
    for order in (scores, scores[::-1], scores[1:] + scores[:1]):
        results = [StudentResult(f"s{n}", (s,)) for n, s in enumerate(order)]
        html = summary_html(COURSE[:1], results, "none")
        tables.add(html.split("<h2>Transcripts")[1].split("<h2>Failure kinds")[0])
    (html,) = tables
    shown = re.findall(r"actual:   (\w+)⏎</pre><small>(\d) of them", html)
    assert shown == [("alpha", "2"), ("mu", "1"), ("zeta", "1")]


# stdout --------------------------------------------------------------------------------------


def test_stdout_ends_with_graded_skipped_and_errors(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "args.yaml").write_text(TRANSCRIPTS["args.yaml"])
    (tmp_path / "t" / "ref.yaml").write_text(TRANSCRIPTS["reference.yaml"])
    for name in ("ann", "bob"):
        (tmp_path / "subs" / name).mkdir(parents=True)
    program = tmp_path / "subs" / "ann" / "prog"
    program.write_text("#!/bin/sh\necho 3 args\n")
    program.chmod(0o755)  # bob has no ./prog: it cannot start, an error
    out = io.StringIO()
    argv = [str(tmp_path / "subs"), "--transcripts", str(tmp_path / "t"), "--jobs", "1"]
    argv += ["--run", "./prog", "--out", str(tmp_path / "g")]
    assert cli.main(["grade", *argv], stdout=out, stderr=io.StringIO()) == 0
    last = out.getvalue().splitlines()[-1]
    assert last == "transcripts: 1 graded, 1 skipped as casino-only (reference: casino); 1 error"
    html = (tmp_path / "g" / "summary.html").read_text()
    assert "Transcripts: 1 graded, 1 skipped as casino-only (reference: casino)." in html
    assert "<li>ref.yaml</li>" in html
    assert (tmp_path / "g" / "feedback" / "bob.txt").exists()
