"""The golden transcripts carry the course's own data, and the interactive ones hold on a
real terminal (the pty runner), where the prompts come from detecting the terminal."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from casino.harness.load import load_transcript
from casino.harness.model import Fixture, Out, OutAny, Transcript
from casino.harness.runners import make_runner
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Options, check, target_of
from casino.shell import Command
from casino.videopoker.commands import VideoPokerCommands

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


WRONG_MOMENT = TRANSCRIPTS / "wrong-moment-commands.yaml"
SIMILAR = {
    "casino's": {},
    "a real student's": {"h": "h: can't hold right now", "d": "d: can't deal right now"},
    "word last": {"h": "Illegal command: h", "d": "Illegal command: d"},
    "by its name": {"h": "You cannot hold now.", "d": "You cannot DEAL now."},
}
"""Warnings for ``h`` and ``d`` at the wrong moment: the seed fixes only ``b: illegal command``
("Other commands might be illegal in certain points of the game; in that case, just print a
similar warning")."""
NOT_SIMILAR = {
    "names no command": {"h": "illegal command"},
    "two lines": {"d": "d: illegal\ncommand"},
    "another command": {"h": "b: illegal command"},
    "nothing": {"d": ""},
}


def _warn(monkeypatch: pytest.MonkeyPatch, words: dict[str, str]) -> None:
    """casino's video poker, its refusals of ``words``' commands worded so."""
    illegal = VideoPokerCommands._illegal

    def reworded(self: VideoPokerCommands, command: Command, what: str = "command") -> None:
        if what == "command" and command.word in words:
            if words[command.word]:
                self.console.line(words[command.word])
            return
        illegal(self, command, what)

    monkeypatch.setattr(VideoPokerCommands, "_illegal", reworded)


@pytest.mark.parametrize("wording", sorted(SIMILAR))
def test_a_similar_warning_passes_where_the_seed_asks_only_for_one(
    wording: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _warn(monkeypatch, SIMILAR[wording])
    result = check(load_transcript(WRONG_MOMENT), InProcessRunner(), Target("videopoker"))
    assert result.passed, result.verdicts[0].output.actual


@pytest.mark.parametrize("wording", sorted(NOT_SIMILAR))
def test_a_warning_that_is_not_one_line_naming_the_command_fails(
    wording: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _warn(monkeypatch, NOT_SIMILAR[wording])
    result = check(load_transcript(WRONG_MOMENT), InProcessRunner(), Target("videopoker"))
    assert not result.passed


def test_the_seeds_own_refusal_stays_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    _warn(monkeypatch, {"b": "b: can't bet right now"})
    result = check(load_transcript(WRONG_MOMENT), InProcessRunner(), Target("videopoker"))
    assert not result.passed  # "b: illegal command" is the seed's own text


def test_the_graded_cmd_file_is_the_courses_single_spaced() -> None:
    """The course's ``cmd-file2.txt`` has one stray double space (line 41), which a program
    splitting on one space reads as an empty command: the graded transcript gives the same
    file with that space single, as the course writes every other line; the course's own file
    stays byte for byte in ``difficult-hands/``."""
    course = (FIXTURES / "difficult-hands" / "cmd-file2.txt").read_bytes()
    graded = (FIXTURES / "difficult-hands-graded" / "cmd-file2.txt").read_bytes()
    assert course.count(b"  ") == 1 and b"  " not in graded
    assert graded == course.replace(b"4  \r\n", b"4 \r\n")
    transcript = load_transcript(TRANSCRIPTS / "difficult-hands-41-81.yaml")
    files = dict(transcript.files or ())
    given = files["cmd-file.txt"]
    assert isinstance(given, Fixture)
    assert (
        TRANSCRIPTS / given.path
    ).resolve() == FIXTURES / "difficult-hands-graded" / "cmd-file2.txt"
