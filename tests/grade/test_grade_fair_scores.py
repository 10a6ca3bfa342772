"""A course built like the real one, graded with ``casino grade`` over casino's own transcripts:
each program gets the score it deserves, run by run, alternative by alternative.

The students are casino's own programs, each changed the way a real submission differs:

- Nimsys (``transcripts/nimsys/project-c/``, 11.5 marks: 10 for the project, 1.5 for the
  advanced-game bonus, played live against the AI): complete; complete but for the bonus
  (``startadvancedgame`` does nothing); one that forgets its players between runs (so it passes
  3 of the 5 chained runs of the course's autotester, and 2 of the 3 of the published tests);
  one whose AI picks the other winning move; one that prints a space after ``wins!``.
- Five-card draw (``transcripts/draw/play5carddraw/``): casino's own, and one that prints the
  starter's set of valid characters in another of its orders.
- Video poker (``transcripts/videopoker/double-bonus/``): casino's own, and one that refuses a
  deal (``d``) without a bet (``b``) before it.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grade.grade_support import ROOT
from grade.student_python import GAMES_RUN, copy_games

TRANSCRIPTS = ROOT / "transcripts"

WRAP = """\
import sys
PATCH
from casino.MODULE import main
sys.exit(main())
"""

NO_BONUS = """\
from casino.nim.shell import NimsysShell
NimsysShell.start_advanced_game = lambda self, command: None
"""

OTHER_MOVE = """\
from functools import reduce
from casino.nim import ai
from casino.nim.kayles import KaylesGame
from casino.nim.strategy import grundy


def value(stones):
    rows = [len(row) for row in "".join("*" if s else " " for s in stones).split()]
    return reduce(lambda a, b: a ^ b, (grundy(n) for n in rows), 0)


def last_winning_move(self, available, last_move=""):
    game = KaylesGame(tuple(available))
    moves = game.legal_moves()
    winning = [m for m in moves if value(game.take(m).stones) == 0] or moves
    return str(winning[-1])


ai.NimAIPlayer.advanced_move = last_winning_move
"""

SPACE_AFTER_WINS = """\
class Spaced:
    def __init__(self, stream):
        self.stream = stream
    def write(self, text):
        return self.stream.write(text.replace("wins!\\n", "wins! \\n"))
    def __getattr__(self, name):
        return getattr(self.stream, name)
sys.stdout = Spaced(sys.stdout)
"""

OTHER_SET_ORDER = """\
from casino.draw import messages
messages.VALID_CHARACTERS = "{'f', 'F', 'B', 'b'}"
"""

BET_BEFORE_DEAL = """\
from casino.videopoker.commands import VideoPokerCommands
bet, deal = VideoPokerCommands._bet, VideoPokerCommands._deal


def _bet(self, command):
    args = command.args
    legal = len(args) <= 1 and all(a.isdigit() and 1 <= int(a) <= 5 for a in args)
    self.bet_placed = not self.machine.in_hand and legal
    bet(self, command)


def _deal(self, command):
    if not self.machine.in_hand and not getattr(self, "bet_placed", False):
        self._illegal(command)
        return
    deal(self, command)
    self.bet_placed = False


VideoPokerCommands._bet, VideoPokerCommands._deal = _bet, _deal
"""


PACKAGES = {
    "nimsys": ("nim",),
    "draw.cli": ("cards", "draw"),
    "videopoker.cli": ("cards", "videopoker"),
}
"""The packages of casino each game's students bring (casino's top-level modules besides)."""


def _students(
    factory: pytest.TempPathFactory, root: Path, module: str, students: dict[str, str]
) -> Path:
    """One folder per student under ``root``: ``run.sh`` starting its ``main.py`` with the
    system's ``python3``, beside its own copy of casino's games (standard library only,
    compiled, and the cards' tables unless it is Nimsys: :func:`student_python.copy_games`),
    as a real submission brings everything it runs: the sandbox shows a run nothing else."""
    for name, patch in students.items():
        folder = root / name
        folder.mkdir(parents=True)
        copy_games(factory, folder, PACKAGES[module], tables=module != "nimsys")
        (folder / "main.py").write_text(WRAP.replace("PATCH", patch).replace("MODULE", module))
        run = GAMES_RUN
        if name == "forgets":
            run = "rm -f players.dat\n" + run
        (folder / "run.sh").write_text(run)
    return root


def _grade(root: Path, submissions: Path, transcripts: Path, out: str) -> dict[str, dict[str, str]]:
    """``casino grade`` (pipe runner, two at once); the gradebook, by student."""
    argv = [sys.executable, "-m", "casino", "grade", str(submissions), "--transcripts"]
    argv += [str(transcripts), "--run", "sh run.sh", "--out", str(root / out), "--jobs", "2"]
    private = root / f"tmp-{out}"  # a temporary folder of its own: nothing else reaches it
    private.mkdir()
    env = dict(os.environ, TMPDIR=str(private))
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False, env=env)
    assert done.returncode == 0, done.stderr
    with (root / out / "gradebook.csv").open(newline="") as book:
        return {row["student"]: row for row in csv.DictReader(book)}


def _feedback(root: Path, out: str, student: str) -> list[str]:
    return (root / out / "feedback" / f"{student}.txt").read_text().splitlines()


PROJECT_C = {
    "score": 0,
    "max": 0,
    "ai-bonus-first-vs-perfect.yaml": 0.5,
    "ai-bonus-first-vs-random.yaml": 0.5,
    "ai-bonus-second-vs-random.yaml": 0.5,
    "conformance-autotester-chained.yaml": 4,
    "conformance-project-c-chained.yaml": 3,
    "seed-c-advanced-game-ai.yaml": 0,
    "seed-c-advanced-invalid-moves.yaml": 0,
    "seed-c-ai-player.yaml": 1,
    "seed-c-invalid-input.yaml": 1,
    "seed-c-rankings-ties.yaml": 1,
}


def _row(score: str | None = None, **changed: float) -> dict[str, str]:
    """A Nimsys gradebook row: full marks on every transcript but the ``changed`` ones (the
    total ``score`` when the rounded points do not add up to it)."""
    points = {k: v for k, v in PROJECT_C.items() if k.endswith(".yaml")}
    points.update({f"{k.replace('_', '-')}.yaml": v for k, v in changed.items()})
    shown = {k: f"{v:g}" for k, v in points.items()}
    return {"score": score or f"{round(sum(points.values()), 2):g}", "max": "11.5", **shown}


@pytest.fixture(scope="module")
def nimsys(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, str]]]:
    root = tmp_path_factory.mktemp("nimsys")
    students = {
        "complete": "",
        "no-bonus": NO_BONUS,
        "forgets": "",
        "other-move": OTHER_MOVE,
        "trailing": SPACE_AFTER_WINS,
    }
    submissions = _students(tmp_path_factory, root / "submissions", "nimsys", students)
    return root, _grade(root, submissions, TRANSCRIPTS / "nimsys" / "project-c", "grades")


def _book(row: dict[str, str]) -> dict[str, str]:
    """The transcripts' columns of a gradebook row: those before ``not exact`` (the rubric's
    lines and its final follow it, docs/rubrics.md), but the student's name."""
    keys = list(row)
    kept = keys[: keys.index("not exact")] if "not exact" in keys else keys
    return {key: row[key] for key in kept if key != "student"}


def test_a_complete_program_and_one_whose_ai_wins_otherwise_get_full_marks(
    nimsys: tuple[Path, dict[str, dict[str, str]]],
) -> None:
    root, book = nimsys
    assert _book(book["complete"]) == _row()
    assert _book(book["other-move"]) == _row()
    session = "addplayer l,S,L\naddaiplayer a,D,R\nstartadvancedgame 10,l,a\n3 2\n"
    board = "<3,x> <4,x> <5,*> <6,*> <7,*> <8,x> <9,x> <10,*>"  # it answered 8 2, not 6 2
    assert board in _session(root / "submissions" / "other-move", session)
    assert board not in _session(root / "submissions" / "complete", session)


def _session(folder: Path, stdin: str, *args: str) -> str:
    """What the student's program in ``folder`` prints for ``stdin``."""
    done = subprocess.run(
        ["sh", "run.sh", *args], cwd=folder, input=stdin, capture_output=True, text=True
    )
    return done.stdout


def test_a_program_complete_but_for_the_bonus_keeps_of_it_only_what_it_prints_right(
    nimsys: tuple[Path, dict[str, dict[str, str]]],
) -> None:
    root, book = nimsys
    # the bonus is the played AI's (0 here); the advanced game's text is feedback worth 0
    expected = _row(
        "10", ai_bonus_first_vs_perfect=0, ai_bonus_first_vs_random=0, ai_bonus_second_vs_random=0
    )
    assert _book(book["no-bonus"]) == expected
    lines = _feedback(root, "grades", "no-bonus")
    assert lines[0] == "no-bonus: 10/11.5"
    chain = [line for line in lines if line.startswith("  run ") and " of 5: " in line][:5]
    assert chain == [f"  run {n} of 5: PASS [1/1]" for n in range(1, 5)] + [
        "  run 5 of 5: PARTIAL (feedback only: worth no points)"
    ]  # the advanced game's text, worth 0: feedback only, the chain a PASS [4/4]


def test_a_program_that_forgets_its_players_keeps_the_runs_it_passes(
    nimsys: tuple[Path, dict[str, dict[str, str]]],
) -> None:
    root, book = nimsys
    # a run that prints only the banner and the prompts (every player forgotten) keeps
    # nothing; one that misses a list keeps every fact after it (aligned, not placed)
    expected = _row(conformance_autotester_chained=2.85, conformance_project_c_chained=2)
    assert _book(book["forgets"]) == expected
    assert expected["score"] == "9.35"
    lines = _feedback(root, "grades", "forgets")
    ends = ("]", "(feedback only: worth no points)")
    marks = [line for line in lines if line.startswith("  run ") and line.endswith(ends)]
    assert marks == [
        "  run 1 of 5: PASS [1/1]",
        "  run 2 of 5: FAIL [0/1]",
        "  run 3 of 5: PARTIAL [0.85/1]",
        "  run 4 of 5: PASS [1/1]",
        "  run 5 of 5: PASS (feedback only: worth no points)",
        "  run 1 of 3: PASS [1/1]",
        "  run 2 of 3: FAIL [0/1]",
        "  run 3 of 3: PASS [1/1]",
    ]


def test_trailing_spaces_cost_the_format_share_only_and_are_named_in_the_feedback(
    nimsys: tuple[Path, dict[str, dict[str, str]]],
) -> None:
    root, book = nimsys
    expected = _row(  # every run that ends a game prints "wins! ": it keeps 9/10 of its points
        conformance_autotester_chained=1 + 0.9 * 3,
        conformance_project_c_chained=2 + 0.9,
        seed_c_ai_player=0.9,
        seed_c_invalid_input=0.9,
    )  # (the played bonus judges who won, not the text: it keeps its 1.5)
    assert _book(book["trailing"]) == expected
    assert expected["score"] == "10.9"
    lines = _feedback(root, "grades", "trailing")
    why = "behaviour only: it differs only in trailing spaces on 1 line; every fact is right"
    assert f"  {why}" in lines
    assert f"  run 4 of 5: {why}" in lines
    assert f"seed-c-ai-player.yaml: {why}" in book["trailing"]["not exact"].split(" | ")


def test_a_folder_that_allows_trailing_spaces_gives_them_full_marks(
    nimsys: tuple[Path, dict[str, dict[str, str]]],
) -> None:
    root, _ = nimsys
    folder = root / "transcripts" / "project-c"
    shutil.copytree(TRANSCRIPTS / "nimsys" / "project-c", folder)
    (folder / "casino.yaml").write_text("match: [trailing-space]\n")
    trailing = {"trailing": root / "submissions" / "trailing"}
    subs = root / "loose-submissions"
    shutil.copytree(trailing["trailing"], subs / "trailing")
    book = _grade(root, subs, folder, "loose")
    assert _book(book["trailing"]) == _row()
    lines = _feedback(root, "loose", "trailing")
    assert (
        "PASS [0/0] Project C 2.6: Invalid move. for a position beyond 10, a count of 3, a "
        "removed stone, a pair with a gap; the game then played out "
        "(seed-c-advanced-invalid-moves.yaml) (match: trailing-space)"
    ) in lines


def test_a_draw_program_may_print_the_starters_set_in_another_order(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    students = {"casino": "", "other-order": OTHER_SET_ORDER}
    submissions = _students(tmp_path_factory, tmp_path / "submissions", "draw.cli", students)
    book = _grade(tmp_path, submissions, TRANSCRIPTS / "draw" / "play5carddraw", "grades")
    assert {name: (row["score"], row["max"]) for name, row in book.items()} == {
        "casino": ("8", "8"),
        "other-order": ("8", "8"),
    }
    printed = _session(submissions / "other-order", "5\nx\nf\n")
    assert "x not one of the valid characters {'f', 'F', 'B', 'b'}. Try again" in printed


def test_a_video_poker_program_that_wants_a_bet_before_each_deal(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    students = {"casino": "", "bet-first": BET_BEFORE_DEAL}
    submissions = _students(tmp_path_factory, tmp_path / "submissions", "videopoker.cli", students)
    folder = TRANSCRIPTS / "videopoker" / "double-bonus"
    book = _grade(tmp_path, submissions, folder, "grades")
    assert {name: (row["score"], row["max"]) for name, row in book.items()} == {
        "casino": ("9", "9"),
        "bet-first": ("9", "9"),
    }
    # it does refuse a bare d, as in the 2016/17 example, which is casino's reference only
    example = ROOT / "fixtures" / "videopoker" / "prof-example"
    args = ["-d", "10000", str(example / "cmd-file.txt"), str(example / "card-file.txt")]
    refused = _session(submissions / "bet-first", "", *args)
    assert "player loses and his credit is 9990\n\n-cmd d\nd: illegal command\n" in refused
    assert "-cmd d\nd: illegal command" not in _session(submissions / "casino", "", *args)
