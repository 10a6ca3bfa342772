"""Snapshots (syrupy) of every program's fixed texts, so that a change of wording, spacing or
layout is seen and blessed on purpose (``pytest --snapshot-update``), never by accident.

Each program plays a whole session in-process from a golden transcript's arguments, seed and
typed lines (the transcripts say what the session is), and the snapshot holds all it printed:
Nimsys's prompts, messages and statistics tables, five-card draw's messages, the dominoes and
Hold'em views (Hold'em hot-seat, with no computer player's name in it), video poker's
messages (``b: illegal command`` and the others at the wrong moment, the win and loss lines,
the errors of a bad card or command file, the prompts and the statistics table).
Three-card stud's frames are a seeded table's whole conversation, both ways; ``replay``'s
report is that of a transcript that fails, in each of its formats.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import re
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from casino.clock import FakeClock
from casino.harness import cli as harness_cli
from casino.harness.load import load_transcript
from casino.harness.model import In
from casino.harness.session import write_files
from casino.programs import load_main
from casino.stud.bots import STRATEGIES
from casino.stud.dealer import Seat, Table, TableConfig
from casino.stud.local import LocalConnection
from casino.stud.player import PlayerSession

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = [
    "nimsys/project-a/seed-a-example.yaml",
    "nimsys/project-c/seed-c-invalid-input.yaml",
    "nimsys/project-c/choices-commands.yaml",
    "nimsys/project-b/seed-b-display-and-rankings.yaml",
    "nimsys/project-b/seed-b-player-commands.yaml",
    "nimsys/project-b/seed-b-startgame.yaml",
    "draw/casino/invalid-input-every-prompt.yaml",
    "draw/casino/players-3.yaml",
    "domino/casino-royal/invalid-input.en.yaml",
    "domino/casino-royal/won-hand.es.yaml",
    "holdem/casino-royal/hot-seat-two-humans.en.yaml",
    "holdem/casino-royal/hot-seat-two-humans.es.yaml",
    "videopoker/double-bonus/wrong-moment-commands.yaml",
    "videopoker/double-bonus/illegal-commands.yaml",
    "videopoker/double-bonus/course-example-with-rebet.yaml",
    "videopoker/double-bonus/error-bad-card.yaml",
    "videopoker/double-bonus/error-card-file-runs-out.yaml",
    "videopoker/double-bonus/error-missing-file.yaml",
    "videopoker/double-bonus/interactive-prompted.yaml",
    "videopoker/double-bonus/simulation.yaml",
]


def played(relative: str, folder: Path) -> str:
    """What the transcript's first run prints (stdout, then any stderr), played in-process in
    ``folder`` (its ``files`` written there first) with the transcript's arguments, seed and
    typed lines."""
    transcript = load_transcript(ROOT / "transcripts" / relative)
    run = transcript.runs[0]
    write_files(transcript, folder)
    assert transcript.program is not None, relative
    argv = list(run.argv)
    if transcript.seed is not None:
        argv += ["--seed", str(transcript.seed)]
    typed = "".join(step.text + "\n" for step in run.steps if isinstance(step, In))
    out, err = io.StringIO(), io.StringIO()
    main = load_main(transcript.program)
    here = Path.cwd()
    os.chdir(folder)
    try:
        status = main(argv, stdin=io.StringIO(typed), stdout=out, stderr=err)
    finally:
        os.chdir(here)
    return f"{out.getvalue()}{err.getvalue()}[exit {status}]\n"


@pytest.mark.parametrize("relative", SESSIONS)
def test_a_programs_session(relative: str, tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    assert played(relative, tmp_path) == snapshot


def test_three_card_stud_frames_both_ways(snapshot: SnapshotAssertion) -> None:
    """Three seeded hands at a table of three of our players: every frame, in order."""
    talk: list[str] = []
    connections = []
    for number in range(3):
        session = PlayerSession(STRATEGIES["ours"](random.Random(number)), f"id{number}", "A")

        def respond(text: str, number: int = number, session: PlayerSession = session) -> str:
            reply = session.respond(text)
            talk.append(f"dealer → {number}: {text}")
            if reply is not None:
                talk.append(f"{number} → dealer: {reply}")
            return reply  # type: ignore[return-value]

        connections.append(LocalConnection(respond))
    seats = [Seat(n, f"id{n}", f"A{n}", 100, c) for n, c in enumerate(connections)]
    table = Table(seats, TableConfig(hands=3), FakeClock(), random.Random(7))
    asyncio.run(table.play())
    assert "\n".join(talk) + "\n" == snapshot


FAILING = """\
name: greets with two spaces
steps:
  - out: "name? "
  - in: Ada
  - out: "hello  Ada\\n"
"""


@pytest.mark.parametrize("report", ["text", "json", "junit", "gradescope"])
def test_replays_report_of_a_failure(
    report: str, tmp_path: Path, snapshot: SnapshotAssertion
) -> None:
    """A program that prints one space where the transcript wants two, and forgets the end:
    what ``replay --score`` prints, and the report file of each format (its timings shown as
    ``<s>``)."""
    (tmp_path / "t.yaml").write_text(FAILING, encoding="utf-8")
    (tmp_path / "greet.sh").write_text('printf "name? "; read name; printf "hello %s" "$name"\n')
    argv = ["replay", "--program", "sh greet.sh", "--score", "t.yaml"]
    if report != "text":
        argv[1:1] = ["--report", report, "--report-file", "report"]
    out, err = io.StringIO(), io.StringIO()
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        status = harness_cli.main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    finally:
        os.chdir(here)
    text = f"{out.getvalue()}{err.getvalue()}[exit {status}]\n"
    if report != "text":
        written = (tmp_path / "report").read_text(encoding="utf-8")
        if report != "junit":
            json.loads(written)  # what is locked is well formed
        text += re.sub(r'("seconds": |time=")[0-9.]+', r"\1<s>", written)
    assert text == snapshot


SEEDS = Path(os.environ.get("CASINO_SEEDS", "/work/shared/seeds"))
"""Where the assignments' texts are (``CASINO_SEEDS``): they are the courses', not casino's, so
where they are absent only the snapshot half of the check below runs."""
SNAPSHOTS = Path(__file__).parent / "__snapshots__" / "test_fixed_texts.ambr"
FIXED: dict[str, list[str]] = {
    "nimsys-projects-a-b-c.txt": [
        "Welcome to Nim",
        "The player already exists.",
        "The player does not exist.",
        "One of the players does not exist.",
        "Are you sure you want to remove all players? (y/n)",
        "Are you sure you want to reset all player statistics? (y/n)",
        "Please enter initial number of stones:",
        "Please enter upper bound of stone removal:",
        "Initial stone count: 10",
        "Maximum stone removal: 3",
        "Invalid move. You must remove between 1 and 3 stones.",
        "Game Over",
        "Han wins!",
    ],
    "five-card-draw.txt": [
        "Enter a number between 2 and 5, inclusive, for # players ==> ",
        "9 not between 2 and 5. Try again",
        "Do you bet or fold (B or F)?==> ",
        "e not one of the valid characters {'B', 'f', 'b', 'F'}. Try again",
        "1600 not between 1 and 1000. Try again",
        "Player_2 folds",
    ],
    "videopoker-double-bonus.txt": [
        "b: illegal command",
        "player loses and his credit is ",
        "player wins with a ",
    ],
}
"""Every message a seed fixes word for word (its own sample lines and quoted texts), by seed:
each must be in the seed (whitespace and Markdown bold aside) and in a snapshot above, so that
a changed wording breaks a snapshot, and a snapshot blessed without it breaks this test."""


def flat(text: str) -> str:
    """``text`` with Markdown's ``**`` gone and every run of whitespace one space."""
    return re.sub(r"\s+", " ", text.replace("**", ""))


@pytest.mark.parametrize(
    ("seed", "message"), [(seed, text) for seed, texts in FIXED.items() for text in texts]
)
def test_every_fixed_message_of_the_seeds_is_locked_in_a_snapshot(seed: str, message: str) -> None:
    if (SEEDS / seed).is_file():  # the seeds are the course's texts, not shipped with casino
        assert flat(message) in flat((SEEDS / seed).read_text(encoding="utf-8"))
    assert message in SNAPSHOTS.read_text(encoding="utf-8")
