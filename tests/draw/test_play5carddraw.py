"""``Play5CardDraw.py`` at the top of the repository, as the course's graders run it: with
nothing but the standard library (``python3 -I -S``: no site-packages, no environment, no
install), from the repository's folder, it is ``casino draw``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from casino.harness.load import load_transcript
from casino.harness.model import In, Out

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "transcripts" / "draw"
BARE = [sys.executable, "-I", "-S", "Play5CardDraw.py"]
"""The program as a grader types it, on a Python that sees no installed package."""


def play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*BARE, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, check=False
    )


@pytest.mark.parametrize("sample", ["seed-sample-1", "seed-sample-2"])
def test_it_plays_the_seeds_sample_games_exactly(sample: str) -> None:
    """The seed's samples, their hands dealt from a stacked deck: every prompt and line."""
    transcript = load_transcript(TRANSCRIPTS / "casino" / f"{sample}.yaml")
    steps = transcript.runs[0].steps
    typed = "".join(step.text + "\n" for step in steps if isinstance(step, In))
    shown = "".join(step.text for step in steps if isinstance(step, Out))
    deck = ROOT / "fixtures" / "draw" / f"{sample}.txt"
    done = play("--deck-file", str(deck), stdin=typed)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == shown


def test_it_passes_every_transcript_a_students_program_must() -> None:
    replay = [sys.executable, "-m", "casino", "replay", "--program", " ".join(BARE)]
    done = subprocess.run(
        [*replay, "--program-dir", str(ROOT), str(TRANSCRIPTS / "play5carddraw")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    passed = [line for line in done.stdout.splitlines() if line.startswith("PASS ")]
    assert len(passed) == len(list((TRANSCRIPTS / "play5carddraw").glob("*.yaml")))


def test_it_is_casino_draw_byte_for_byte() -> None:
    """A seeded game with bad answers, through both: the same output and status."""
    typed = "7\n3\nx\nb\n0\n10\n1 2\nb\n5\n"
    ours = play("--seed", "11", stdin=typed)
    casino = subprocess.run(
        [sys.executable, "-m", "casino", "draw", "--seed", "11"],
        input=typed,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (ours.returncode, ours.stdout) == (casino.returncode, casino.stdout)
    assert "Player_1 bets 10." in ours.stdout


def test_a_bad_option_is_one_line_in_its_own_name() -> None:
    done = play("--players", "9", stdin="")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "Play5CardDraw.py: argument --players: not a whole number from 2 to 5: '9' "
        "(see Play5CardDraw.py --help)"
    ]
