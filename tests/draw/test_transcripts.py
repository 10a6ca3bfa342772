"""The draw transcripts: where they live, what they hold, and that they hold on every runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.harness.load import load_transcript
from casino.harness.model import In, Out, OutRe, Transcript
from casino.harness.runners import make_runner
from casino.harness.session import Options, check, target_of

TRANSCRIPTS = Path(__file__).parents[2] / "transcripts" / "draw"
STUDENT = sorted((TRANSCRIPTS / "play5carddraw").glob("*.yaml"))
CASINO_ONLY = sorted((TRANSCRIPTS / "casino").glob("*.yaml"))
CASINO_OPTIONS = {"--seed", "--deck-file", "--choose", "--tiebreak", "--banks", "--players"}


def output_of(transcript: Transcript) -> str:
    return "".join(s.text for s in transcript.runs[0].steps if isinstance(s, Out))


def test_a_student_transcript_needs_nothing_but_the_seeds_program() -> None:
    assert len(STUDENT) >= 8
    for path in STUDENT:
        transcript = load_transcript(path)
        run = transcript.runs[0]
        assert transcript.reference is None, path.name
        assert transcript.seed is None and transcript.files is None, path.name
        assert not set(run.argv) & CASINO_OPTIONS, path.name
        assert run.stderr is None and run.exit in (None, 0), path.name


def test_the_casino_only_transcripts_cover_what_the_issue_lists() -> None:
    names = {path.stem for path in CASINO_ONLY}
    assert {"seed-sample-1", "seed-sample-2", "split-pot", "cannot-cover"} <= names
    assert {"tiebreak-first", "tiebreak-kickers", "choose-positions", "fold-third-round"} <= names
    assert {f"players-{n}" for n in range(2, 6)} <= names
    for path in CASINO_ONLY:
        transcript = load_transcript(path)
        assert transcript.reference == "casino", path.name
        assert not any(isinstance(step, OutRe) for step in transcript.runs[0].steps), path.name


SEED_HANDS = {
    "seed-sample-1": [
        "Player_1 cards: [('7', 'Hearts'), ('5', 'Clubs'), ('9', 'Spades'), ('7', 'Spades'), "
        "('Queen', 'Spades')]",
    ],
    "seed-sample-2": [
        "Player_1 cards: [('9', 'Spades'), ('2', 'Clubs'), ('King', 'Spades'), ('5', 'Clubs'), "
        "('6', 'Clubs')]",
        "Player_2 cards: [('6', 'Spades'), ('2', 'Spades'), ('8', 'Clubs'), ('Jack', 'Diamonds'), "
        "('Jack', 'Spades')]",
        "You folded! You have 800 left",
    ],
}


@pytest.mark.parametrize("name", sorted(SEED_HANDS))
def test_the_seed_samples_deal_the_seeds_hands(name: str) -> None:
    transcript = load_transcript(TRANSCRIPTS / "casino" / f"{name}.yaml")
    shown = output_of(transcript).splitlines()
    for line in SEED_HANDS[name]:
        assert any(text.endswith(line) for text in shown), line
    student = load_transcript(TRANSCRIPTS / "play5carddraw" / f"{name}.yaml")
    assert student.runs[0].inputs == transcript.runs[0].inputs
    assert [s for s in student.runs[0].steps if isinstance(s, In)]


AS_A_PROCESS = [
    ("pipe", "play5carddraw/seed-sample-1"),
    ("pipe", "play5carddraw/not-an-int"),
    ("pipe", "casino/end-of-input-mid-game"),
    ("pty", "play5carddraw/seed-sample-2"),
    ("pty", "casino/invalid-input-every-prompt"),
]


@pytest.mark.parametrize(
    ("runner", "name"), AS_A_PROCESS, ids=[f"{r}-{n}" for r, n in AS_A_PROCESS]
)
def test_transcripts_hold_as_a_process_too(runner: str, name: str) -> None:
    """A few transcripts under the pipe and pty runners (a process each, so only a few here:
    ``casino replay --runner pipe|pty transcripts/draw`` runs them all)."""
    path = TRANSCRIPTS / f"{name}.yaml"
    if runner == "pty":
        pytest.importorskip("pexpect", reason="the pty runner needs pexpect")
    transcript = load_transcript(path)
    result = check(transcript, make_runner(runner), target_of(transcript, Options(runner)))
    assert result.passed, result.verdicts
