"""Scores that hold on the shapes real programs have: honest variants of casino's own video
poker and a Nimsys that does nothing, graded by ``casino replay --score`` over the course's
folders, land where the assignment's rubric puts them (within 0.5 of it).

Each video poker variant is casino's own program with its output rewritten line by line, the
way a real submission differs (IST's rubric: 9 points over the graded transcripts, 0.5 of each
5.5 for the format): an echo without its amount (``-cmd b`` for ``b 1``), an echo that splits
a number (``-cmd b 1 0``) with a pay line named ``Four A``, one advice of another length, every
advice 0-based. The Nimsys prints only its banner and a ``$`` after each input.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from harness.harness_support import ROOT, run_cli

PYTHON = shlex.quote(sys.executable)
VIDEOPOKER = ROOT / "transcripts" / "videopoker" / "double-bonus"
NIMSYS = ROOT / "transcripts" / "nimsys"

REWRITE = """\
import io, re, sys
from casino.videopoker.cli import main

captured = io.StringIO()
status = main(sys.argv[1:], stdout=captured)
advised = 0


def rewrite(line):
    global advised
    REWRITE
    return line


sys.stdout.write("".join(rewrite(line) for line in captured.getvalue().splitlines(True)))
sys.exit(status)
"""

VARIANTS = {
    "worded": (
        'line = line.replace("player should hold cards", "player should hold")\n'
        '    line = line.replace("player is betting", "Player is betting")'
    ),
    "echo-without-amount": 'line = re.sub(r"^-cmd b \\d+$", "-cmd b", line, flags=re.M)',
    "echo-splits-a-number": (
        'line = re.sub(r"^-cmd b (\\d)(\\d)$", r"-cmd b \\1 \\2", line, flags=re.M)\n'
        '    line = line.replace("FOUR ACES", "Four A")'
    ),
    "one-advice-wrong": (
        'if line.startswith("player should hold cards 1 4") and not advised:\n'
        '        advised, line = 1, "player should hold cards 1 2 4\\n"'
    ),
    "advice-0-based": (
        'held = re.match(r"player should hold cards ([\\d ]+)$", line)\n'
        "    if held:\n"
        '        moved = " ".join(str(int(n) - 1) for n in held.group(1).split())\n'
        '        line = f"player should hold cards {moved}\\n"'
    ),
}

RUBRIC = {
    "worded": 9 * 5 / 5.5,  # the format's 0.5 of 5.5, on every transcript
    "echo-without-amount": 9 * 5 / 5.5,  # an echo is format: the bet itself is right
    "echo-splits-a-number": 7.75,  # format, a pay line misnamed, three bets echoed wrong
    "one-advice-wrong": 9 - 2 / 11,  # the format of the two transcripts it shows in
}
"""What the IST rubric gives each variant (of 9)."""


def _score(output: str) -> float:
    last = output.splitlines()[-1]
    found = re.fullmatch(r"score: ([\d.]+)/([\d.]+)", last)
    assert found, output
    return float(found.group(1))


@pytest.fixture(scope="module")
def poker_scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    folder = tmp_path_factory.mktemp("variants")
    scores = {}
    for name, rewrite in VARIANTS.items():
        script = folder / f"{name}.py"
        script.write_text(REWRITE.replace("REWRITE", rewrite))
        done = run_cli("replay", "--score", "--program", f"{PYTHON} {script}", VIDEOPOKER)
        scores[name] = _score(done.out)
    return scores


@pytest.mark.parametrize("variant", sorted(RUBRIC))
def test_a_video_poker_variant_scores_what_the_rubric_gives(
    poker_scores: dict[str, float], variant: str
) -> None:
    assert poker_scores[variant] == pytest.approx(RUBRIC[variant], abs=0.5)


def test_the_alignment_locks_each_variants_score(poker_scores: dict[str, float]) -> None:
    """The figures, to the hundredth (``docs/transcripts.md``, "Behaviour credit")."""
    assert {name: round(score, 2) for name, score in poker_scores.items()} == {
        "worded": 8.18,
        "echo-without-amount": 7.86,
        "echo-splits-a-number": 8.16,
        "one-advice-wrong": 8.8,
        "advice-0-based": 8.37,
    }


def test_every_advice_wrong_costs_every_advice_line(poker_scores: dict[str, float]) -> None:
    """Every advice 0-based is an error on each advice line: beyond the format of the three
    transcripts that advise (3/11), it costs each advice's facts (0.36 of 9 for the 81
    advised hands and the example's one)."""
    assert poker_scores["advice-0-based"] < poker_scores["one-advice-wrong"] - 0.4
    assert poker_scores["advice-0-based"] < 9 - 3 / 11 - 0.3


BANNER_ONLY = "printf 'Welcome to Nim\\n\\n$'\nwhile read -r line; do printf '\\n$'; done\n"


@pytest.mark.parametrize("project", ["project-b", "project-c"])
def test_a_nimsys_printing_only_its_banner_and_prompts_scores_0(
    tmp_path: Path, project: str
) -> None:
    program = tmp_path / "banner.sh"
    program.write_text(BANNER_ONLY)
    done = run_cli("replay", "--score", "--program", f"sh {program}", NIMSYS / project)
    assert _score(done.out) == 0, done.out
    assert "PARTIAL" not in done.out
