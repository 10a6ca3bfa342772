"""Points shaped like a course's rubric: a run that is not exact keeps the behaviour share of
its points for the facts it prints right (each missing, wrong or extra fact costs its own share,
the run's facts aligned with the expected ones); the format share needs the exact text.

Honest variants of casino's own programs, run through a pipe as a student's would be, get
exactly the score the assignment's rubric gives: a video poker program worded otherwise loses
the format points only (IST: 0.5 of 5.5), one that advises a wrong hold loses that fact's
share of the behaviour points too; a Nimsys with ``\\r\\n``, a trailing space after ``Game
Over`` or no final newline loses the format points only (1 of 10); five-card draw, whose rubric
has no format line, gives a program worded otherwise every point.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from casino.harness.diff import RunVerdict, compare_run
from casino.harness.dump import dump_transcript
from casino.harness.judging import free_facts, judge_behaviour
from casino.harness.load import load_transcript
from casino.harness.model import In, Out, Run, TranscriptError
from casino.harness.parse import parse_transcript
from casino.harness.rubric import Facts, Grading, Rubric
from casino.harness.runners import make_runner
from casino.harness.runners.base import Outcome, Target
from casino.harness.session import TranscriptResult, check
from harness.harness_support import ROOT, run_cli, write_transcript

PYTHON = shlex.quote(sys.executable)
VIDEOPOKER = ROOT / "transcripts" / "videopoker" / "double-bonus"
NIMSYS_C = ROOT / "transcripts" / "nimsys" / "project-c"
POKER_FACTS = Facts(
    numbers=True, words=("hold", "loses", "TWO PAIR"), patterns=(r"\b[2-9TJQKA][HDCS]\b",)
)


def test_facts_are_numbers_by_value_words_as_listed_and_pattern_matches_in_order() -> None:
    text = "player should hold cards 1 04\nhand 7D 4H\nwins with a Two  Pair, credit 9990.50\n"
    assert POKER_FACTS.of(text) == ["hold", "1", "4", "7D", "4H", "TWO PAIR", "9990.5"]
    every = Facts(numbers=True, all_words=True)
    assert every.of("100% | 01 games | James Madison\r\n") == [
        "100",
        "1",
        "games",
        "James",
        "Madison",
    ]


def _verdict(expected: str, actual: str, share: float = 0.1, exit_actual: int = 0) -> RunVerdict:
    run = Run((Out(expected),), exit=0)
    outcome = Outcome(chunks=(actual,), stderr="", exit=exit_actual)
    return compare_run(run, outcome, (), Grading(Rubric(share, 1 - share), POKER_FACTS))


def test_wording_keeps_the_behaviour_share_and_a_wrong_fact_costs_its_own_share_only() -> None:
    expected = "-cmd a\nplayer should hold cards 1 4\n\n-cmd h 1 4\nplayer loses\n"
    worded = _verdict(expected, "-cmd a\nplayer should hold 1 4\n\n-cmd h 1 4\nplayers loses\n")
    assert worded.kind == "behaviour" and worded.credit == pytest.approx(0.9)
    assert worded.why == "behaviour only: it differs in wording; every fact is right"
    wrong = _verdict(expected, "-cmd a\nplayer should hold 1 5\n\n-cmd h 1 4\nplayer loses\n")
    assert wrong.kind == "behaviour" and wrong.credit == pytest.approx(0.9 * 5 / 6)
    assert wrong.why == (
        "behaviour only: 5 of 6 facts right; first wrong: "
        "step 1 (out): expected hold 1 [4] 1 4 loses, got hold 1 [5] 1 4 loses"
    )
    extra = _verdict(expected, expected + "7\n")
    assert extra.credit == pytest.approx(0.9 * 5 / 6)
    assert extra.why == (
        "behaviour only: 6 of 6 facts right, 1 extra; first wrong: "
        "at the end: expected … 1 4 loses [nothing], got … 1 4 loses [7]"
    )
    assert _verdict(expected, expected).kind == "exact"
    assert _verdict(expected, worded.output.actual, exit_actual=1).credit == 0


def test_a_missing_or_extra_fact_costs_its_own_share_and_nothing_after_it() -> None:
    hands = "".join(f"-cmd b {n}\nplayer is betting {n}\n\n" for n in range(1, 6))
    facts = 10  # each paragraph: the echoed amount and the bet
    no_amount = _verdict(hands, hands.replace("-cmd b 3\n", "-cmd b\n"))
    assert no_amount.credit == pytest.approx(0.9 * (facts - 1) / facts)
    assert no_amount.why == (
        "behaviour only: 9 of 10 facts right; first wrong: "
        "step 1 (out): expected … 2 2 3 [3] 4 4 5 …, got … 2 2 3 [nothing] 4 4 5 …"
    )
    doubled = _verdict(hands, hands.replace("-cmd b 3\n", "-cmd b 3 3\n"))
    assert doubled.credit == pytest.approx(0.9 * (facts - 1) / facts)
    assert "1 extra" in (doubled.why or "")
    # printing everything twice keeps nothing: every extra fact costs a fact's share
    assert _verdict(hands, hands + hands).credit == 0
    assert _verdict(hands, "").credit == 0


def _graded(folder: Path, command: str, names: list[str]) -> dict[str, TranscriptResult]:
    """Each named transcript of ``folder`` replayed through a pipe against ``command``."""
    runner = make_runner("pipe")
    results = {}
    for name in names:
        transcript = load_transcript(folder / name)
        results[name] = check(
            transcript, runner, Target(transcript.program, ("sh", "-c", command, "sh"))
        )
    return results


def test_video_poker_worded_otherwise_loses_the_format_points_only() -> None:
    words = "s/player should hold cards/player should hold/; s/player loses/players loses/"
    words += "; s/player is betting/Player is betting/"
    command = f'{PYTHON} -m casino.videopoker "$@" | sed -e "{words}"'
    names = ["course-example-with-rebet.yaml", "paytable-bet-1.yaml"]
    results = _graded(VIDEOPOKER, command, names)
    for result in results.values():
        assert result.kind == "behaviour"
        assert result.points == pytest.approx(5 / 5.5)
        assert result.why == ("behaviour only: it differs in wording; every fact is right",)


def test_replay_says_partial_and_scores_the_behaviour_share(tmp_path: Path) -> None:
    settings = "rubric: {format: 1, behaviour: 3}\nfacts: {numbers: true}\n"
    write_transcript(tmp_path / "casino.yaml", settings)
    text = 'name: sum\nprogram: demo\nsteps:\n  - in: add 2 3\n  - out: "2 + 3 = 5\\n"\n'
    path = write_transcript(tmp_path / "t.yaml", text)
    program = tmp_path / "sum.sh"
    program.write_text("read line\necho '2 plus 3 is 5'\n")
    result = run_cli("replay", "--score", "--program", f"sh {program}", path)
    lines = result.out.splitlines()
    assert lines[:2] == [
        f"PARTIAL [0.75/1] sum ({path})",
        "  behaviour only: it differs in wording; every fact is right",
    ]
    assert lines[-2:] == ["0 passed, 1 failed (1 partial) (1 transcript)", "score: 0.75/1"]
    assert result.status == 1


def test_video_poker_advising_a_wrong_hold_loses_that_facts_share_too() -> None:
    command = f'{PYTHON} -m casino.videopoker "$@" | sed -e "s/hold cards 1 4/hold cards 1 5/"'
    result = _graded(VIDEOPOKER, command, ["course-example-with-rebet.yaml"])
    only = result["course-example-with-rebet.yaml"]
    facts = 56  # every number, card and listed word the example prints
    assert only.points == pytest.approx(5 / 5.5 * (facts - 1) / facts)
    assert only.why == (
        "behaviour only: 55 of 56 facts right; first wrong: "
        "step 1 (out): expected … 3H hold 1 [4] 1 4 7D …, got … 3H hold 1 [5] 1 4 7D …",
    )


NIMSYS_VARIANTS = {
    "\\r\\n line ends": ("sed 's/$/\\r/'", "line endings (\\r\\n for \\n) on"),
    "a space after Game Over": ("sed 's/^Game Over$/Game Over /'", "trailing spaces on 1 line"),
    "no final newline": (f"{PYTHON} -c 'import sys; print(sys.stdin.read()[:-1], end=\"\")'", ""),
}


@pytest.mark.parametrize("variant", sorted(NIMSYS_VARIANTS))
def test_a_nimsys_that_differs_only_in_invisible_bytes_loses_the_format_points_only(
    variant: str,
) -> None:
    rewrite, words = NIMSYS_VARIANTS[variant]
    command = f'{PYTHON} -m casino.nimsys "$@" | {rewrite}'
    names = ["seed-c-ai-player.yaml", "conformance-project-c-chained.yaml"]
    results = _graded(NIMSYS_C, command, names)
    assert results["seed-c-ai-player.yaml"].points == pytest.approx(0.9)
    chain = results["conformance-project-c-chained.yaml"]
    if variant == "a space after Game Over":  # only the chain's first run ends a game
        assert [v.kind for v in chain.verdicts] == ["behaviour", "exact", "exact"]
        assert chain.points == pytest.approx(2.9)
    else:
        assert [v.kind for v in chain.verdicts] == ["behaviour"] * 3
        assert chain.points == pytest.approx(2.7)
    why = results["seed-c-ai-player.yaml"].why[0]
    assert why.startswith("behaviour only: it differs only in") and words in why


def test_a_transcripts_rubric_and_facts_load_dump_and_win_over_its_folders(tmp_path: Path) -> None:
    folder = tmp_path / "transcripts"
    write_transcript(folder / "casino.yaml", "rubric: {format: 1, behaviour: 9}\n")
    text = (
        'name: x\nsteps:\n  - out: "1 2\\n"\nrubric:\n  format: 0.5\n  behaviour: 5\n'
        "facts:\n  numbers: true\n  words: [hold]\n"
    )
    own = load_transcript(write_transcript(folder / "own.yaml", text))
    assert own.grading == Grading(Rubric(0.5, 5), Facts(numbers=True, words=("hold",)))
    assert dump_transcript(own) == text
    plain = load_transcript(write_transcript(folder / "plain.yaml", "name: y\nsteps: []\n"))
    assert plain.grading == Grading(Rubric(1, 9), Facts(numbers=True, all_words=True))
    assert plain.rubric is None and "rubric" not in dump_transcript(plain)


@pytest.mark.parametrize(
    ("keys", "problem"),
    [
        ("rubric: {format: 1}", "'rubric' must be a mapping of 'format' and 'behaviour' (weights)"),
        (
            "rubric: {format: 0, behaviour: 0}",
            "'rubric': 'format' and 'behaviour' cannot both be 0",
        ),
        (
            "rubric: {format: -1, behaviour: 1}",
            "'rubric': 'format' must be a number from 0 to 999999999",
        ),
        ("facts: {numbers: yes}", "'facts': 'numbers' must be true or false"),
        (
            "facts: {patterns: ['(']}",
            "'facts': pattern '(': missing ), unterminated subpattern at position 0",
        ),
        ("facts: {patterns: ['a*']}", "'facts': pattern 'a*' must not be empty or name groups"),
        (
            "facts: {colours: [red]}",
            "'facts' must be a mapping of 'numbers', 'words' and 'patterns'",
        ),
    ],
)
def test_a_malformed_rubric_is_one_line_naming_the_file(keys: str, problem: str) -> None:
    with pytest.raises(TranscriptError) as raised:
        parse_transcript(f"name: x\nsteps: []\n{keys}\n", Path("t.yaml"))
    assert str(raised.value) == f"t.yaml: line 3, column 1: {problem}"


def test_a_bad_folder_rubric_is_an_error_line_in_replay(tmp_path: Path) -> None:
    write_transcript(tmp_path / "casino.yaml", "facts: {words: hold}\n")
    write_transcript(tmp_path / "t.yaml", "name: x\nprogram: demo\nsteps: []\n")
    result = run_cli("replay", tmp_path / "t.yaml")
    problem = "line 1, column 1: 'facts': 'words' must be a list of texts or all"
    assert result.out.splitlines()[0] == f"ERROR {tmp_path}/casino.yaml: {problem}"


def test_update_and_record_keep_a_transcripts_rubric(tmp_path: Path) -> None:
    keys = "rubric:\n  format: 1\n  behaviour: 3\nfacts:\n  numbers: true\n"
    stale = "name: sum\nprogram: demo\nsteps:\n  - out: old\n  - in: add 2 3\n  - out: old\n"
    path = write_transcript(tmp_path / "t.yaml", stale + keys)
    assert run_cli("replay", "--update", path).status == 0
    assert path.read_text().endswith(keys) and "old" not in path.read_text()
    session = tmp_path / "session.txt"
    session.write_text("add 1 1\n")
    done = run_cli("record", "--stdin", session, "--force", "-o", path, "demo")
    assert done.status == 0, done.err
    assert path.read_text().endswith(keys) and "1 + 1" in path.read_text()


def test_five_card_draw_has_no_format_line_so_its_facts_earn_every_point() -> None:
    command = f'{PYTHON} -m casino.draw "$@" | sed "s/==> /=> /"'
    folder = ROOT / "transcripts" / "draw" / "play5carddraw"
    result = _graded(folder, command, ["fold-first-round.yaml"])["fold-first-round.yaml"]
    assert (result.passed, result.points, result.kind) == (True, 1.0, "behaviour")
    assert result.why == ("behaviour only: it differs in wording; every fact is right",)


def test_the_banner_and_a_fixed_prompt_weigh_nothing() -> None:
    """Facts every program prints whatever its input: the output before the first input,
    and a prompt line with the same facts before every later input (here ``move 1:``, twice);
    a prompt that changes (``move 1:`` then ``move 2:``) is the input's doing and counts."""
    steps = (
        Out("Welcome to Nim 1\n$ "),
        In("a"),
        Out("took 3\nmove 1: "),
        In("b"),
        Out("took 2\nmove 1: "),
        In("c"),
        Out("bye 4\n"),
    )
    every = Facts(numbers=True, all_words=True)
    assert free_facts(steps, every) == {1: 0, 3: 7, 5: 7}
    changing = (*steps[:4], Out("took 2\nmove 2: "), *steps[5:])
    assert free_facts(changing, every) == {1: 0}
    grading = Grading(Rubric(1, 9), every)
    only_fixed = "Welcome to Nim 1\n$ move 1: move 1: "
    assert judge_behaviour(steps, only_fixed, grading).kept == 0
    assert judge_behaviour(changing, only_fixed, grading).right == 3  # move 1, and move
    right = judge_behaviour(steps, "hi\ntook 3\ntook 2\nbye 4\n", grading)
    assert (right.facts, right.right, right.kept) == (6, 6, 1)
    assert free_facts((Out("player's credit is 50\n"),), every) == {}  # no input: none
