"""The golden transcripts carry the course's own data, and the interactive ones hold on a
real terminal (the pty runner), where the prompts come from detecting the terminal."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from casino.harness.model import Out, OutAny, Transcript, load_transcript
from casino.harness.runners import make_runner
from casino.harness.session import Options, check, target_of

from .conftest import FIXTURES

TRANSCRIPTS = Path(__file__).parents[2] / "transcripts" / "videopoker" / "double-bonus"
EXPECTED = (FIXTURES / "prof-example" / "expected-with-rebet.txt").read_text()


def output_of(transcript: Transcript) -> str:
    """The expected output (an ``out_any`` step as its first text: casino's own)."""
    steps = transcript.runs[0].steps
    return "".join(
        step.text if isinstance(step, Out) else step.texts[0]
        for step in steps
        if isinstance(step, (Out, OutAny))
    )


def test_the_course_example_transcripts_hold_the_course_expected_output() -> None:
    later = load_transcript(TRANSCRIPTS / "course-example-with-rebet.yaml")
    assert output_of(later) == EXPECTED
    block = "\n-cmd b\nplayer is betting 5\n"
    first = load_transcript(TRANSCRIPTS / "course-example-2016-17.yaml")
    assert output_of(first) == EXPECTED.replace(
        block + "\n-cmd d\nplayer's hand 7D", "\n-cmd d\nplayer's hand 7D"
    )


def test_the_difficult_hands_transcripts_advise_what_the_course_holds() -> None:
    for part, name in ((1, "difficult-hands-1-40.yaml"), (2, "difficult-hands-41-81.yaml")):
        text = output_of(load_transcript(TRANSCRIPTS / name))
        advised = [line.split("cards ")[1] for line in text.splitlines() if "should hold" in line]
        commands = (FIXTURES / "difficult-hands" / f"cmd-file{part}.txt").read_text().splitlines()
        held = [line.split("h ", 1)[1].strip() for line in commands if "h " in line]
        assert advised == held


def test_every_pay_line_at_every_bet_is_covered() -> None:
    lines = set()
    for bet in range(1, 6):
        text = output_of(load_transcript(TRANSCRIPTS / f"paytable-bet-{bet}.yaml"))
        lines |= {(bet, line.split(" and ")[0]) for line in text.splitlines() if "player " in line}
    assert len([line for line in lines if "wins" in line[1]]) == 5 * 11
    assert {line for _, line in lines if "loses" in line} == {"player loses"}


def _pty_check(transcript: Transcript) -> None:
    pytest.importorskip("pexpect", reason="the pty runner needs pexpect")
    runner = make_runner("pty")
    result = check(transcript, runner, target_of(transcript, Options("pty")))
    assert result.passed, result.verdicts


@pytest.mark.parametrize("name", ["interactive-prompted.yaml", "interactive-piped.yaml"])
def test_interactive_transcripts_hold_on_a_real_terminal(name: str) -> None:
    _pty_check(load_transcript(TRANSCRIPTS / name))


def test_a_terminal_is_detected_without_the_prompt_option() -> None:
    prompted = load_transcript(TRANSCRIPTS / "interactive-prompted.yaml")
    run = prompted.runs[0]
    assert run.args is not None and "--prompt" in run.args
    plain = dataclasses.replace(run, args=tuple(a for a in run.args if a != "--prompt"))
    _pty_check(prompted.with_runs((plain,)))
