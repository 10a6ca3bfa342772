"""The transcript model: loading, validation errors naming file and step, exact YAML dumps."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.harness.dump import dump_transcript
from casino.harness.load import load_transcript
from casino.harness.model import Fixture, In, Inline, Out, OutRe, Run, Transcript, TranscriptError
from casino.harness.parse import parse_transcript
from harness.harness_support import ROOT

HERE = Path("t.yaml")

CANONICAL = """\
name: every key, in the documented order
program: demo
args: [--flag, "10000", "a,b", ""]
seed: 7
files:
  demo.dat: "7\\n"
  data/cards.txt:
    fixture: ../fixtures/demo/cards.txt
steps:
  - out: |-
      Welcome

      $
  - in: add 2 3
  - out_re: "rolled [1-6]\\n"
  - out: "$ "
  - in: ""
  - in: "03"
  - out: "\\tx  \\r\\n"
exit: 3
stderr: "warning: careful\\n"
timeout: 0.5
points: 2
"""

RUNS = """\
name: two runs
program: demo
runs:
  - args: []
    steps:
      - out: "$ "
      - in: store 1
    exit: 0
  - steps: []
timeout: 3
"""


def test_single_run_form_loads_into_values() -> None:
    transcript = parse_transcript(CANONICAL, HERE)
    assert transcript == Transcript(
        name="every key, in the documented order",
        program="demo",
        seed=7,
        files=(
            ("demo.dat", Inline("7\n")),
            ("data/cards.txt", Fixture("../fixtures/demo/cards.txt")),
        ),
        timeout=0.5,
        points=2.0,
        runs=(
            Run(
                steps=(
                    Out("Welcome\n\n$"),
                    In("add 2 3"),
                    OutRe("rolled [1-6]\n"),
                    Out("$ "),
                    In(""),
                    In("03"),
                    Out("\tx  \r\n"),
                ),
                args=("--flag", "10000", "a,b", ""),
                exit=3,
                stderr="warning: careful\n",
            ),
        ),
    )
    assert transcript.step_timeout == 0.5 and transcript.max_points == 2


def test_runs_form_loads_each_run() -> None:
    transcript = parse_transcript(RUNS, HERE)
    assert not transcript.single
    assert transcript.runs == (
        Run(steps=(Out("$ "), In("store 1")), args=(), exit=0),
        Run(steps=()),
    )
    assert transcript.max_points == 1 and transcript.step_timeout == 3


@pytest.mark.parametrize("text", [CANONICAL, RUNS])
def test_load_dump_round_trip_is_byte_exact(text: str) -> None:
    assert dump_transcript(parse_transcript(text, HERE)) == text


def test_every_recorded_demo_transcript_is_in_canonical_form() -> None:
    recorded = [
        p for p in sorted((ROOT / "transcripts" / "demo").glob("*.yaml")) if not _has_comments(p)
    ]
    assert len(recorded) >= 5
    for path in recorded:
        assert dump_transcript(load_transcript(path)) == path.read_text(encoding="utf-8"), path


def _has_comments(path: Path) -> bool:
    return path.read_text(encoding="utf-8").startswith("#")


def test_yaml_implicit_types_do_not_apply_to_text() -> None:
    text = "name: n\nsteps:\n  - in: 03\n  - in: no\n  - in:\n  - in: 1e3\n  - out: ~\n"
    steps = parse_transcript(text, HERE).runs[0].steps
    assert steps == (In("03"), In("no"), In(""), In("1e3"), Out("~"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name: x\nsteps:\n  - out: a\n  - in: b\n  - out: [1]\n",
            "line 5, column 5: step 3: 'out' must be a string",
        ),
        (
            "name: x\nsteps:\n  - out: a\n  - foo: b\n",
            "line 4, column 5: step 2: unknown step 'foo' "
            "(expected one of out, out_re, out_any, in)",
        ),
        (
            "name: x\nsteps:\n  - {out: a, in: b}\n",
            "line 3, column 5: step 1: must be a mapping with exactly one of "
            "out, out_re, out_any, in",
        ),
        (
            "name: x\nsteps:\n  - out_re: '[a'\n",
            "line 3, column 5: step 1: 'out_re' is not a valid regex: "
            "unterminated character set at position 0",
        ),
        (
            "name: x\nsteps:\n  - out_re: 'a{" + "9" * 5000 + "}'\n",
            "line 3, column 5: step 1: 'out_re' is not a valid regex: Exceeds the limit (4300 "
            "digits) for integer string conversion: value has 5000 digits; use "
            "sys.set_int_max_str_digits() to increase the limit",
        ),
        (
            'name: x\nsteps:\n  - in: "a\\nb"\n',
            "line 3, column 5: step 1: 'in' must be one line (one step per line typed)",
        ),
        (
            "name: x\nruns:\n  - steps: []\n  - steps: [{out: {}}]\n",
            "line 4, column 13: run 2: step 1: 'out' must be a string",
        ),
        (
            "name: x\nruns:\n  - stpes: []\n",
            "line 3, column 5: run 1: unknown key 'stpes' "
            "(expected args, steps, exit, stderr, points)",
        ),
        ("name: x\nruns: []\n", "line 2, column 1: 'runs' must be a non-empty list of runs"),
        (
            "name: x\nsteps: []\nruns: [{steps: []}]\n",
            "line 2, column 1: 'steps' belongs inside each run when 'runs' is used",
        ),
        ("steps: []\n", "'name' is missing"),
        ('name: "a\\nb"\nsteps: []\n', "line 1, column 1: 'name' must be one non-empty line"),
        ("name: x\n", "'steps' is missing (a list of out/out_re/out_any/in steps; may be empty)"),
        (
            "name: x\nsteps: []\nexit: zero\n",
            "line 3, column 1: 'exit' must be a whole number from 0 to 255",
        ),
        (
            "name: x\nsteps: []\ntimeout: 0\n",
            "line 3, column 1: 'timeout' must be a number from 0.001 to 3600",
        ),
        (
            "name: x\nsteps: []\npoints: -1\n",
            "line 3, column 1: 'points' must be a number from 0 to 1000000",
        ),
        (
            "name: x\nsteps: []\nargs: [a, [b]]\n",
            "line 3, column 1: 'args' must be a list of strings",
        ),
        (
            "name: x\nsteps: []\nfiles: {../x: a}\n",
            "line 3, column 9: files: '../x' must be a relative path inside the working directory",
        ),
        (
            "name: x\nsteps: []\nfiles: {x: {fixture: a, other: b}}\n",
            "line 3, column 9: files: 'x' must be text or {fixture: path}",
        ),
        (
            "name: x\nsteps: []\nstpes: []\n",
            "line 3, column 1: unknown key 'stpes' (expected args, exit, facts, files, match, "
            "name, play, points, program, reference, rubric, runs, seed, stderr, steps, timeout, "
            "visibility)",
        ),
        (
            "- just a list\n",
            "a transcript must be a mapping with name, program and steps (or runs)",
        ),
        ("name: [\n", "line 2, column 1: not valid YAML: did not find expected node content"),
    ],
)
def test_malformed_transcript_is_one_line_naming_file_and_step(text: str, message: str) -> None:
    with pytest.raises(TranscriptError) as raised:
        parse_transcript(text, Path("transcripts/x.yaml"))
    assert str(raised.value) == f"transcripts/x.yaml: {message}"


def test_unreadable_files_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(TranscriptError, match=r"missing\.yaml: cannot read: No such file"):
        load_transcript(tmp_path / "missing.yaml")
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"name: caf\xe9\nsteps: []\n")
    with pytest.raises(TranscriptError, match=r"latin\.yaml: line 1, column 10: not UTF-8 text$"):
        load_transcript(latin)


any_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)
one_line = any_text.filter(lambda text: "\n" not in text and "\r" not in text)
steps = st.lists(
    st.one_of(any_text.map(Out), one_line.map(In), st.sampled_from(["a+", "[0-9]*\n"]).map(OutRe)),
    max_size=8,
)


@settings(max_examples=150, deadline=None)
@given(
    name=one_line.filter(lambda text: text.strip() != ""),
    run_steps=steps,
    args=st.lists(one_line.filter(lambda text: "\0" not in text), max_size=3),
    stderr=st.none() | any_text,
    files=st.lists(
        st.tuples(st.sampled_from(["a.txt", "d/b.dat"]), any_text),
        max_size=2,
        unique_by=lambda f: f[0],
    ),
)
def test_any_text_survives_dump_and_load(
    name: str,
    run_steps: list[Out | In | OutRe],
    args: list[str],
    stderr: str | None,
    files: list[tuple[str, str]],
) -> None:
    transcript = Transcript(
        name=name,
        program="demo",
        runs=(Run(tuple(run_steps), tuple(args), 0, stderr),),
        files=tuple((file, Inline(text)) for file, text in files),
    )
    dumped = dump_transcript(transcript)
    again = parse_transcript(dumped, HERE)
    assert again == transcript
    assert dump_transcript(again) == dumped
