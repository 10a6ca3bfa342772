"""Scores a course can trust: a chain scored run by run, ``out_any`` alternatives through every
runner, and near misses named in words (and passed where ``match`` allows them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino.harness.diff import compare_output
from casino.harness.dump import dump_transcript
from casino.harness.formats import to_gradescope, to_json, to_junit
from casino.harness.load import load_transcript
from casino.harness.model import In, Out, OutAny, OutRe, TranscriptError
from casino.harness.parse import parse_transcript
from casino.harness.pytest_plugin import is_transcript
from casino.harness.report import details, points_text
from casino.harness.session import Options, check_path
from harness.harness_support import run_cli, sh_program, write_transcript

GREETING = "casino demo calculator (type help)\\n$ "


# ------------------------------------------------------------------------------- the model


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name: x\nsteps:\n  - out_any: a\n",
            "line 3, column 5: step 1: 'out_any' must be a list of two or more strings",
        ),
        (
            "name: x\nsteps:\n  - out: a\n  - out_any: [a]\n",
            "line 4, column 5: step 2: 'out_any' must be a list of two or more strings",
        ),
        (
            "name: x\nsteps:\n  - out_any: [a, [b]]\n",
            "line 3, column 5: step 1: 'out_any' must be a list of two or more strings",
        ),
        (
            "name: x\nsteps:\n  - out_any: [a, b, a]\n",
            "line 3, column 5: step 1: 'out_any' lists a text twice",
        ),
        (
            "name: x\nruns:\n  - steps: []\n    points: 1\n  - steps: []\n",
            "line 5, column 5: run 2: 'points' is missing (state it in every run or in none)",
        ),
        (
            "name: x\nruns:\n  - steps: []\n    points: 1\npoints: 2\n",
            "line 5, column 1: 'points' is stated in every run: the transcript's own 'points' "
            "must go",
        ),
        (
            "name: x\nsteps: []\nmatch: [trailing-space, tabs]\n",
            "line 3, column 1: 'match' must be a list of trailing-space, blank-lines, case, "
            "not 'tabs'",
        ),
    ],
)
def test_a_bad_new_key_is_one_line_naming_the_step(text: str, message: str) -> None:
    with pytest.raises(TranscriptError) as raised:
        parse_transcript(text, Path("t.yaml"))
    assert str(raised.value) == f"t.yaml: {message}"


def test_out_any_run_points_and_match_survive_a_round_trip() -> None:
    text = (
        'name: x\nprogram: demo\nruns:\n  - steps:\n      - out_any: ["a\\n", b]\n'
        "      - in: go\n    points: 2\n  - steps: []\n    points: 0.5\n"
        "match: [case, trailing-space]\n"
    )
    transcript = parse_transcript(text, Path("t.yaml"))
    assert transcript.runs[0].steps == (OutAny(("a\n", "b")), In("go"))
    assert transcript.run_points == (2.0, 0.5) and transcript.max_points == 2.5
    assert transcript.match == ("trailing-space", "case")
    again = parse_transcript(dump_transcript(transcript), Path("t.yaml"))
    assert again == transcript


def test_points_are_split_evenly_and_kept_exact() -> None:
    text = "name: x\nruns:\n  - steps: []\n  - steps: []\n  - steps: []\npoints: 1\n"
    transcript = parse_transcript(text, Path("t.yaml"))
    assert transcript.run_points == (1 / 3, 1 / 3, 1 / 3)
    assert transcript.earned((True, True, True)) == 1.0
    assert transcript.earned((True, False, True)) == 2 / 3
    assert (
        points_text(2 / 3) == "0.67" and points_text(4.5) == "4.5" and points_text(1e6) == "1000000"
    )


# ------------------------------------------------------------------------- the comparison

STEPS = (Out("Hello\nWorld\n"), In("x"), OutAny(("6 2\n", "8 2\n")), Out("bye\n"))


def test_out_any_accepts_each_text_and_shows_the_closest_when_none_matches() -> None:
    for text in ("6 2\n", "8 2\n"):
        assert compare_output(STEPS, f"Hello\nWorld\n{text}bye\n").difference is None
    wrong = compare_output(STEPS, "Hello\nWorld\n8 3\nbye\n")
    assert wrong.expected == "Hello\nWorld\n8 2\nbye\n"
    assert wrong.difference is not None
    assert (wrong.difference.line, wrong.difference.column) == (3, 3)
    assert wrong.difference.step == "step 3 (out_any)"


@pytest.mark.parametrize(
    ("actual", "words"),
    [
        ("Hello  \nWorld\t\n8 2\nbye\n", "differs only in trailing spaces on 2 lines"),
        ("Hello\nWorld\n8 2\nbye", "differs only in a missing final newline"),
        (
            "Hello\r\nWorld\r\n8 2\r\nbye\r\n",
            "differs only in line endings (\\r\\n for \\n) on 4 lines",
        ),
        ("Hello\n\nWorld\n8 2\nbye\n", "differs only in blank lines"),
        ("HELLO\nWorld\n8 2\nBYE\n", "differs only in letter case on 2 lines"),
        (
            "hello \nWorld\n8 2\nbye",
            "differs only in a missing final newline, trailing spaces on 1 line and letter "
            "case on 1 line",
        ),
        ("Hello\nWorld\n7 2\nbye\n", None),
    ],
)
def test_a_near_miss_is_named_in_words(actual: str, words: str | None) -> None:
    result = compare_output(STEPS, actual)
    assert result.difference is not None
    assert result.note == words


def test_an_allowed_near_miss_passes_and_says_so() -> None:
    result = compare_output(STEPS, "Hello  \nWorld\n6 2\nbye", ("trailing-space",))
    assert result.difference is None
    assert result.note == (
        "passed with match: trailing-space; it differs only in a missing final newline and "
        "trailing spaces on 1 line"
    )
    assert compare_output(STEPS, "HELLO\nWorld\n6 2\nbye\n", ("trailing-space",)).difference
    patterned = (Out("Total: "), OutRe(r"\d+\n"))
    assert compare_output(patterned, "TOTAL: 12\n", ("case",)).difference is None


# ---------------------------------------------------------------------- a chain, run by run

COUNTER = """\
n=$(cat n 2>/dev/null || echo 0)
n=$((n + 1))
echo $n > n
read line
echo "run $n: $line"
"""


def _chain(points: str) -> str:
    runs = "".join(
        f'  - steps:\n      - in: "{word}"\n      - out: "run {number}: {expected}\\n"\n{points}'
        for number, (word, expected) in enumerate([("a", "a"), ("b", "B"), ("c", "c")], 1)
    )
    return f"name: chain\nprogram: counter\nruns:\n{runs}"


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_a_failed_run_costs_its_own_points_and_the_next_runs_on_its_state(
    tmp_path: Path, runner: str
) -> None:
    program = sh_program(tmp_path, "counter", COUNTER)
    path = write_transcript(tmp_path / "t" / "chain.yaml", _chain("") + "points: 3\n")
    result = run_cli("replay", "--score", "--runner", runner, "--program", program, path)
    assert result.status == 1
    lines = result.out.splitlines()
    assert lines[0] == f"FAIL [2/3] chain ({path})"
    assert lines[1:4] == [
        "  run 1 of 3: PASS [1/1]",
        "  run 2 of 3: FAIL [0/1]",
        "  run 2 of 3: output differs only in letter case on 1 line",
    ]
    assert "  run 3 of 3: PASS [1/1]" in lines
    assert lines[-1] == "score: 2/3"


def test_each_run_is_worth_its_own_points_in_every_report(tmp_path: Path) -> None:
    program = sh_program(tmp_path, "counter", COUNTER)
    path = write_transcript(tmp_path / "chain.yaml", _chain("    points: 0.25\n"))
    result = check_path(path, Options("pipe", tuple(program.split())))
    assert (result.points, result.max_points) == (0.5, 0.75)
    assert details(result, score=True).splitlines()[:2] == [
        "  run 1 of 3: PASS [0.25/0.25]",
        "  run 2 of 3: FAIL [0/0.25]",
    ]
    runs = json.loads(to_json([result]))["transcripts"][0]["runs"]
    assert [(r["run"], r["of"], r["status"], r["score"], r["max_score"]) for r in runs] == [
        (1, 3, "pass", 0.25, 0.25),
        (2, 3, "fail", 0.0, 0.25),
        (3, 3, "pass", 0.25, 0.25),
    ]
    tests = json.loads(to_gradescope([result]))["tests"]
    assert [(t["name"], t["score"], t["max_score"], t["status"]) for t in tests] == [
        (f"chain ({path}) run {n} of 3", score, 0.25, status)
        for n, score, status in [(1, 0.25, "passed"), (2, 0.0, "failed"), (3, 0.25, "passed")]
    ]
    assert tests[1]["output"].startswith("run 2 of 3: FAIL [0/0.25]\nrun 2 of 3: output differs")
    assert json.loads(to_gradescope([result]))["score"] == 0.5
    assert "run 2 of 3: FAIL" in to_junit([result])


# ---------------------------------------------------------------- out_any through a runner

MOVER = """\
printf 'move? '
read move
echo "you: $move"
echo "me: ${REPLY_MOVE:-8 2}"
echo bye
"""

MOVES = """\
name: mover
program: mover
steps:
  - out: "move? "
  - in: 3 2
  - out: "you: 3 2\\n"
  - out_any: ["me: 6 2\\n", "me: 8 2\\n"]
  - out: "bye\\n"
timeout: 5
"""


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_an_out_any_alternative_passes_through_each_runner(tmp_path: Path, runner: str) -> None:
    program = sh_program(tmp_path, "mover", MOVER)
    path = write_transcript(tmp_path / "mover.yaml", MOVES)
    result = run_cli("replay", "--runner", runner, "--program", program, path)
    assert result.out == f"PASS mover ({path})\n1 passed, 0 failed (1 transcript)\n"


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_no_alternative_is_a_diff_against_the_closest(tmp_path: Path, runner: str) -> None:
    program = sh_program(tmp_path, "mover", MOVER.replace("${REPLY_MOVE:-8 2}", "8 3"))
    path = write_transcript(tmp_path / "mover.yaml", MOVES)
    result = run_cli("replay", "--runner", runner, "--program", program, path)
    assert result.status == 1
    assert result.out.splitlines()[1:5] == [
        "  output differs at step 4 (out_any), line 2, column 7:",
        "    expected: me:·8·2⏎",
        "    actual:   me:·8·3⏎",
        "                    ^",
    ]
    assert "timed out" not in result.out


def test_update_keeps_an_out_any_step_that_still_matches(tmp_path: Path) -> None:
    text = (
        f'name: x\nprogram: demo\nsteps:\n  - out_any: ["{GREETING}", "hi\\n$ "]\n'
        '  - in: add 2 2\n  - out: "2 + 2 = 5\\n$ bye\\n"\n'
    )
    path = write_transcript(tmp_path / "x.yaml", text)
    result = run_cli("replay", "--update", path)
    assert result.status == 0, result.out
    updated = load_transcript(path)
    assert updated.runs[0].steps[0] == OutAny((GREETING.replace("\\n", "\n"), "hi\n$ "))
    assert updated.runs[0].steps[2] == Out("2 + 2 = 4\n$ bye\n")


# -------------------------------------------------------------- match: transcript, folder, CLI

SPACED = MOVER.replace('echo "you: $move"', 'echo "you: $move  "')


def test_a_folder_settings_file_allows_and_is_never_a_transcript(tmp_path: Path) -> None:
    program = sh_program(tmp_path, "mover", SPACED)
    folder = tmp_path / "transcripts" / "course"
    path = write_transcript(folder / "deep" / "mover.yaml", MOVES)
    strict = run_cli("replay", "--program", program, folder)
    assert strict.status == 1
    assert "  output differs only in trailing spaces on 1 line" in strict.out.splitlines()
    write_transcript(tmp_path / "transcripts" / "casino.yaml", "match: [trailing-space]\n")
    loose = run_cli("replay", "--program", program, folder.parent)
    assert loose.out.splitlines() == [
        f"PASS mover ({path}) (match: trailing-space)",
        "  output passed with match: trailing-space; it differs only in trailing spaces on 1 line",
        "1 passed, 0 failed (1 transcript)",
    ]
    assert not is_transcript(tmp_path / "transcripts" / "casino.yaml", tmp_path)
    assert is_transcript(path, tmp_path)


def test_a_transcripts_own_match_wins_over_its_folders(tmp_path: Path) -> None:
    program = sh_program(tmp_path, "mover", SPACED)
    write_transcript(tmp_path / "casino.yaml", "match: [trailing-space]\n")
    path = write_transcript(tmp_path / "mover.yaml", MOVES + "match: [case]\n")
    assert run_cli("replay", "--program", program, path).status == 1
    assert run_cli("replay", "--match", "trailing-space", "--program", program, path).status == 0


def test_a_bad_folder_settings_file_is_one_error_line(tmp_path: Path) -> None:
    write_transcript(tmp_path / "casino.yaml", "match: [tabs]\n")
    path = write_transcript(tmp_path / "mover.yaml", MOVES)
    result = run_cli("replay", "--program", "true", path)
    problem = "line 1, column 1: 'match' must be a list of trailing-space, blank-lines, case"
    assert result.out.splitlines()[0] == f"ERROR {tmp_path}/casino.yaml: {problem}, not 'tabs'"


def test_match_on_the_command_line_is_checked(tmp_path: Path) -> None:
    path = write_transcript(tmp_path / "mover.yaml", MOVES)
    result = run_cli("replay", "--match", "spaces", "--program", "true", path)
    assert result.status == 2
    assert (
        "--match: must be a list of trailing-space, blank-lines, case, not 'spaces'" in result.err
    )
