"""``casino grade`` plays each student's AI in the student's own sandbox: Project C's three bonus
cases (``play:`` transcripts) give a perfect AI 1.5, one careless when it moves second 1.0, one
that always takes the first stone 0, through a pipe and through a terminal (issue 27, item 3)."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grade.grade_support import ROOT, UNSANDBOXED
from grade.student_python import GAMES_RUN, copy_games

BONUS = sorted((ROOT / "transcripts" / "nimsys" / "project-c").glob("ai-bonus-*.yaml"))

PATCHES = {
    "perfect": "",
    "first-stone": """\
from casino.nim import ai
ai.NimAIPlayer.advanced_move = lambda self, a, m="": f"{list(a).index(True) + 1} 1"
""",
    "weak-second": """\
from casino.nim import ai, shell
start, perfect = shell.NimsysShell.start_advanced_game, ai.NimAIPlayer.advanced_move
def start_advanced_game(self, command):
    self.ai.second = command.rest.split(",")[-1].strip() == "ai"
    return start(self, command)
def advanced_move(self, a, m=""):
    return f"{list(a).index(True) + 1} 1" if self.second else perfect(self, a, m)
shell.NimsysShell.start_advanced_game = start_advanced_game
ai.NimAIPlayer.advanced_move = advanced_move
""",
    "reworded": """\
from casino.nim import play
human, computer = play.Human.move, play.Computer.move
def reword(prompt):
    return prompt.replace("'s turn - which to remove?", "'s turn - remove how many?")
play.Human.move = lambda self, r, g, prompt, m: human(self, r, g, reword(prompt), m)
play.Computer.move = lambda self, r, g, prompt, m: computer(self, r, g, reword(prompt), m)
""",
}
"""Each student: casino's own Nimsys, its AI changed so (the AI player casino adds is ``ai``),
or (``reworded``) casino's perfect AI with a real student's turn prompt, ``remove how many?``
in the advanced game too (issue 38, item 4)."""


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder per student (its own copy of casino's games, compiled, run by the system's
    python3, as a real submission brings what it runs) and the three bonus transcripts."""
    root = tmp_path_factory.mktemp("play-course")
    for name, patch in PATCHES.items():
        folder = root / "submissions" / name
        folder.mkdir(parents=True)
        copy_games(tmp_path_factory, folder, ("nim",))
        main = f"import sys\n{patch}from casino.nim.cli import main\nsys.exit(main())\n"
        (folder / "main.py").write_text(main)
        (folder / "run.sh").write_text(GAMES_RUN)
    (root / "transcripts").mkdir()
    for case in BONUS:
        shutil.copy(case, root / "transcripts" / case.name)
    return root


def _grade(root: Path, out: str, *options: str, students: str = "submissions") -> dict[str, str]:
    """Each student's score, from the gradebook of ``casino grade``."""
    argv = [sys.executable, "-m", "casino", "grade", str(root / students), "--transcripts"]
    argv += [str(root / "transcripts"), "--run", "sh run.sh", "--out", str(root / out)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv += ["--jobs", "2", *UNSANDBOXED, *options]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    with (root / out / "gradebook.csv").open(newline="") as book:
        return {row["student"]: f"{row['score']}/{row['max']}" for row in csv.DictReader(book)}


def test_the_bonus_is_graded_by_playing_each_students_ai(course: Path) -> None:
    assert _grade(course, "grades") == {
        "first-stone": "0/1.5",
        "perfect": "1.5/1.5",
        "reworded": "1.5/1.5",
        "weak-second": "1/1.5",
    }
    feedback = (course / "grades" / "feedback" / "weak-second.txt").read_text()
    assert "FAIL [0/0.5] Project C 2.6 bonus: the advanced game's AI, moving second" in feedback
    assert " lost: rival " in feedback  # each lost game with its moves


def test_through_a_terminal_it_is_the_same(course: Path) -> None:
    for name in ("weak-second", "reworded"):
        shutil.copytree(course / "submissions" / name, course / "one" / name)
    graded = _grade(course, "pty", "--runner", "pty", students="one")
    assert graded == {"reworded": "1.5/1.5", "weak-second": "1/1.5"}
