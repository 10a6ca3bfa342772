"""Comparison and the text report: first difference by step, line and column, visible
whitespace, a unified diff that is never cut."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from casino.harness.diff import compare_output, compare_run
from casino.harness.matching import Difference, common_prefix, compare_text, position
from casino.harness.model import In, Out, OutRe, Run
from casino.harness.report import details, headline, located, unified, visible
from casino.harness.runners.base import Outcome
from casino.harness.session import Status, TranscriptResult

STEPS = (Out("Welcome\n$ "), In("add 2 2"), Out("2 + 2 = 4\n$ "), In("exit"), Out("bye\n"))


def test_equal_output_has_no_difference() -> None:
    assert compare_output(STEPS, "Welcome\n$ 2 + 2 = 4\n$ bye\n").difference is None


def test_difference_is_located_in_the_expected_text_of_the_whole_run() -> None:
    result = compare_output(STEPS, "Welcome\n$ 2 + 2 = 5\n$ bye\n")
    assert result.difference == Difference(18, 2, 11, "step 3 (out)")
    assert result.expected == "Welcome\n$ 2 + 2 = 4\n$ bye\n"


def test_missing_and_extra_output_are_located_too() -> None:
    short = compare_output(STEPS, "Welcome\n")
    assert short.difference == Difference(8, 2, 1, "step 1 (out)")
    extra = compare_output(STEPS, "Welcome\n$ 2 + 2 = 4\n$ bye\nmore")
    assert extra.difference == Difference(26, 4, 1, None)


def test_a_difference_at_a_chunk_boundary_belongs_to_the_next_chunk() -> None:
    result = compare_output(STEPS, "Welcome\n$ X")
    assert result.difference == Difference(10, 2, 3, "step 3 (out)")


def test_only_the_whole_output_counts_not_where_chunks_split() -> None:
    moved = (Out("Welcome\n"), In("add 2 2"), Out("$ 2 + 2 = 4\n$ "), In("exit"), Out("bye\n"))
    assert compare_output(moved, "Welcome\n$ 2 + 2 = 4\n$ bye\n").difference is None


REGEX_STEPS = (Out("$ "), In("roll"), OutRe(r"rolled \d+\n"), Out("$ "), In("exit"), Out("bye\n"))


def test_out_re_chunks_match_in_sequence() -> None:
    result = compare_output(REGEX_STEPS, "$ rolled 12\n$ bye\n")
    assert result.difference is None


def test_a_failing_out_re_is_shown_as_its_pattern_at_its_step() -> None:
    result = compare_output(REGEX_STEPS, "$ rolled six\n$ bye\n")
    assert result.difference == Difference(2, 1, 3, "step 3 (out_re)")
    assert result.expected == "$ rolled \\d+\\n$ bye\n"


def test_a_matched_out_re_is_shown_as_what_it_matched() -> None:
    result = compare_output(REGEX_STEPS, "$ rolled 3\n$ by\n")
    assert result.expected == "$ rolled 3\n$ bye\n"
    assert result.difference == Difference(15, 2, 5, "step 6 (out)")


def test_out_re_with_leading_global_flags_still_combines() -> None:
    steps = (OutRe("(?s)a.b"), Out("!"))
    assert compare_output(steps, "a\nb!").difference is None


@given(st.text(max_size=30), st.text(max_size=30))
def test_first_difference_is_where_the_texts_part(expected: str, actual: str) -> None:
    result = compare_text(expected, actual)
    if expected == actual:
        assert result.difference is None
        return
    assert result.difference is not None
    offset = result.difference.offset
    assert expected[:offset] == actual[:offset]
    assert offset == len(expected) or offset == len(actual) or expected[offset] != actual[offset]
    assert common_prefix(expected, actual) == offset
    line, column = position(expected, offset)
    assert expected[:offset].count("\n") + 1 == line == result.difference.line
    assert column == result.difference.column


def test_visible_whitespace() -> None:
    assert visible("a b\tc\r\n\x1b") == "a·b→c␍⏎\\x1b"


def test_located_lines_show_whitespace_and_a_caret_under_the_column() -> None:
    result = compare_output(STEPS, "Welcome\n$ 2 + 2 = 5\n$ bye\n")
    assert located(result, "output differs") == [
        "output differs at step 3 (out), line 2, column 11:",
        "  expected: $·2·+·2·=·4⏎",
        "  actual:   $·2·+·2·=·5⏎",
        "                      ^",
    ]


def test_located_marks_where_a_text_ends() -> None:
    result = compare_output(STEPS, "Welcome\n$ ")
    assert located(result, "output differs")[1:] == [
        "  expected: $·2·+·2·=·4⏎",
        "  actual:   $· (end of text)",
        "              ^",
    ]


def test_unified_diff_shows_everything_never_cut() -> None:
    expected = "".join(f"line {n}\n" for n in range(1000))
    actual = expected.replace("line 500\n", "line 500 \n") + "tail\t"
    lines = unified(compare_text(expected, actual), "output")
    assert lines[:3] == ["--- expected output", "+++ actual output", "@@ -1,1000 +1,1001 @@"]
    assert "-line 500" in lines and "+line 500·" in lines
    assert lines[-2:] == ["+tail→", "\\ No newline at end of text"]
    assert sum(line.startswith(" line ") for line in lines) == 999


def test_a_run_fails_on_exit_status_stderr_or_a_problem_when_stated() -> None:
    run = Run(steps=(Out("hi\n"),), exit=0, stderr="")
    assert compare_run(run, Outcome(("hi\n",), "", 0)).passed
    assert compare_run(run, Outcome(("hi\n",), "", 1)).exit_differs
    assert not compare_run(run, Outcome(("hi\n",), "oops\n", 0)).passed
    assert not compare_run(run, Outcome(("hi\n",), "", None, "timed out")).passed
    unstated = Run(steps=(Out("hi\n"),))
    assert compare_run(unstated, Outcome(("hi\n",), "anything", 7)).passed
    assert not compare_run(unstated, Outcome(("hi\n",), "", -11)).passed


def test_details_name_the_run_of_a_multi_run_transcript() -> None:
    good = compare_run(Run((Out("a"),)), Outcome(("a",)))
    bad = compare_run(Run((Out("a"),), exit=0), Outcome(("b",), exit=2))
    result = TranscriptResult("t.yaml", Status.FAIL, "two runs", verdicts=(good, bad))
    text = details(result)
    assert headline(result) == "FAIL two runs (t.yaml)"
    assert text.splitlines() == [
        "  run 1 of 2: PASS",
        "  run 2 of 2: FAIL",
        "  run 2 of 2: output differs at step 1 (out), line 1, column 1:",
        "    expected: a (end of text)",
        "    actual:   b (end of text)",
        "              ^",
        "  --- expected output (run 2)",
        "  +++ actual output (run 2)",
        "  @@ -1 +1 @@",
        "  -a",
        "  \\ No newline at end of text",
        "  +b",
        "  \\ No newline at end of text",
        "  run 2 of 2: exit status 2, expected 0",
    ]


def test_headline_with_score_and_for_errors() -> None:
    passed = TranscriptResult("t.yaml", Status.PASS, "ok", points=2, max_points=2)
    error = TranscriptResult("x.yaml", Status.ERROR, error="x.yaml: step 1: 'out' must be a string")
    assert headline(passed, score=True) == "PASS [2/2] ok (t.yaml)"
    assert headline(error) == "ERROR x.yaml: step 1: 'out' must be a string"
