"""Explore plays the advanced game's AI (Project C's bonus) where the sessions cannot pin its
moves: an AI that loses a winnable game only where it had a choice is found by the play, shrunk
to one game and written as a ``play:`` transcript that ``casino replay`` judges the same way."""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import casino
from casino.__main__ import main as casino_main
from casino.explore.engine import Budget, Explorer
from casino.explore.feedback import ExploreSpec, explore_feedback
from casino.explore.judge import Program, judge
from casino.explore.nimsys import BONUS, PLAYED, PLAYS, NimsysGrammar
from casino.explore.nimsys_model import kayles_value, pinned_ai_move
from casino.explore.played import reshaped
from casino.harness.dump import dump_transcript
from casino.harness.load import load_transcript
from casino.harness.runners import make_runner
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from casino.nim.kayles import KaylesGame
from casino.nim.strategy import kayles_move
from explore.ai_mutants import advanced_ai_main
from explore.benchmark import MUTANTS, mutant_main

C = NimsysGrammar("c")
REFERENCE = Program(InProcessRunner(), Target("nimsys"))
ROOT = Path(casino.__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parents[1]
"""The tests folder (casino may be installed elsewhere: ROOT is then site-packages)."""


def unpinned_loser(available: Sequence[bool], last_move: str = "") -> str:
    """The reference's move, but where two or more moves win (the move is not pinned) a
    losing one: the first legal move that leaves the rival a winning position."""
    game = KaylesGame(tuple(available))
    if pinned_ai_move(game) is None and kayles_value(game) != 0:
        losing = [m for m in game.legal_moves() if kayles_value(game.take(m)) != 0]
        if losing:
            return str(losing[0])
    return str(kayles_move(available))


loser_main = advanced_ai_main(
    "unpinned-loser",
    "the advanced AI loses where its move is not pinned",
    unpinned_loser,
    pinned=False,
)
"""Nimsys whose advanced AI errs only where its move is not pinned."""


LOSER = Program(InProcessRunner({"nimsys": loser_main}), Target("nimsys"))

LOSER_SCRIPT = """\
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {tests!r})
from explore.test_ai_play import loser_main
sys.exit(loser_main(sys.argv[1:]))
"""


def test_the_mutant_errs_only_where_no_move_is_pinned() -> None:
    """Where the model pins the AI's move, the mutant makes it; it differs somewhere else."""
    differs = 0
    for size in range(1, 12):
        for bits in range(1 << size):
            stones = tuple(bool(bits >> i & 1) for i in range(size))
            game = KaylesGame(stones)
            if game.over:
                continue
            pinned = pinned_ai_move(game)
            if pinned is not None:
                assert unpinned_loser(stones) == str(pinned)
            differs += unpinned_loser(stones) != str(kayles_move(stones))
    assert differs > 100


def test_the_sessions_miss_the_mutant_and_the_play_finds_it(tmp_path: Path) -> None:
    explorer = Explorer(C, LOSER, Budget(runs=3000))
    found = explorer.find(0, 40)
    assert explorer.tried == 40 and not explorer.optional  # no session differs
    assert found is not None and found.played and found.group == PLAYED
    assert found.transcript.play is not None and found.transcript.play.total == 110
    first, failed = found.transcript.play.first, found.transcript
    explorer.shrink(found)
    play = found.transcript.play
    assert found.shrunk and play is not None
    assert play.total == 1 and play.first == first and play.game == "nimsys-advanced"
    # the fewest stones: at no size below it does the mutant lose one of the ten games
    assert play.sizes[0] > 1
    for size in range(1, play.sizes[0]):
        assert judge(reshaped(failed, size, 10, failed.seed or 0), LOSER).passed
    assert found.result.status is Status.FAIL
    # written and read back, it is an ordinary transcript replay judges the same way
    (tmp_path / "explore-nimsys.yaml").write_text(dump_transcript(found.transcript))
    written = load_transcript(tmp_path / "explore-nimsys.yaml")
    assert written.play == play and written.seed == found.transcript.seed
    assert check(written, LOSER.runner, LOSER.target).status is Status.FAIL
    assert check(written, REFERENCE.runner, REFERENCE.target).passed
    assert "lost:" in found.result.verdicts[0].output.actual


def test_the_same_seed_plays_the_same_games_and_shrinks_alike() -> None:
    shrunk = []
    for _ in range(2):
        explorer = Explorer(C, LOSER, Budget(runs=3000))
        found = explorer.find(3, 5)
        assert found is not None and found.played
        explorer.shrink(found)
        shrunk.append((dump_transcript(found.transcript), found.result.verdicts, explorer.runs))
    assert shrunk[0] == shrunk[1]
    other = Explorer(C, LOSER, Budget(runs=3000))
    assert C.plays(3, "x") != C.plays(4, "x")
    assert other.find(4, 5) is not None


def test_the_plays_cover_both_first_movers_and_every_rival() -> None:
    plays = C.plays(0, "explored")
    assert plays is not None and plays.part == BONUS and plays.group == PLAYED
    shapes = [(t.play.first, t.play.rival) for t in plays.transcripts if t.play is not None]
    assert shapes == list(PLAYS)
    assert all(
        t.play is not None and t.play.sizes == tuple(range(1, 12)) for t in plays.transcripts
    )
    assert NimsysGrammar("b").plays(0, "x") is None and NimsysGrammar("a").plays(0, "x") is None


@pytest.mark.parametrize("seed", range(5))
def test_casinos_own_ai_passes_every_play(seed: int) -> None:
    plays = C.plays(seed, "explored")
    assert plays is not None
    for transcript in plays.transcripts:
        assert judge(transcript, REFERENCE).passed


def test_the_reference_explored_finds_nothing_and_plays_every_game() -> None:
    explorer = Explorer(C, REFERENCE, Budget(runs=3000))
    assert explorer.find(0, 20) is None
    assert explorer.games == 440 and not explorer.optional
    assert explorer.explore(0, 20) == []


def test_a_skipped_bonus_is_reported_once_and_its_ai_not_played() -> None:
    program = Program(
        InProcessRunner({"nimsys": mutant_main(MUTANTS["no-bonus"])}), Target("nimsys")
    )
    explorer = Explorer(C, program, Budget(runs=400))
    assert explorer.find(0, 25) is None
    assert [each.part for each in explorer.optional] == [BONUS]
    assert explorer.tried >= 20 and explorer.games == 0  # the rest explored, no play


def test_every_reports_the_play_as_its_own_group() -> None:
    explorer = Explorer(C, LOSER, Budget(runs=3000))
    founds = explorer.explore(0, 20)
    assert [each.group for each in founds] == [PLAYED]
    explorer.shrink(founds[0])
    assert founds[0].transcript.play is not None and founds[0].transcript.play.total == 1


def _casino(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = casino_main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_an_external_nimsys_is_played_through_the_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    honest = f"{sys.executable} -m casino nimsys"
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    argv = ["explore", "--reference", "nimsys", "--sessions", "3", "--no-cache", "--jobs", "1"]
    status, out, err = _casino(*argv, "--program", honest)
    assert status == 0, out + err
    assert out.endswith("the AI won every game it could win in 440 games played\n")
    (tmp_path / "loser.py").write_text(
        LOSER_SCRIPT.format(root=str(ROOT), tests=str(TESTS)), encoding="utf-8"
    )
    loser = f"{sys.executable} loser.py"
    status, out, err = _casino(*argv, "--program", loser)
    assert status == 1, out + err
    assert f"fails in {PLAYED}: the AI did not win every game it could win; shrunk to 1 game" in out
    assert "casino replay --program" in out
    written = load_transcript(tmp_path / "explore-nimsys.yaml")
    assert written.play is not None and written.play.total == 1
    pipe = make_runner("pipe")
    assert check(
        written, pipe, Target("nimsys", (sys.executable, "loser.py"), tmp_path)
    ).status is (Status.FAIL)
    assert _casino("replay", "explore-nimsys.yaml")[0] == 0
    assert _casino("replay", "--program", loser, "explore-nimsys.yaml")[0] == 1


def test_a_budget_the_sessions_spend_still_plays_the_ai() -> None:
    explorer = Explorer(C, LOSER, Budget(runs=20))
    found = explorer.find(0, 1000)
    assert found is not None and found.played and explorer.runs <= 20
    assert explorer.tried > 5  # the sessions went on until the plays' runs were left


def test_grade_feedback_holds_the_shrunk_play(tmp_path: Path) -> None:
    (tmp_path / "loser.py").write_text(
        LOSER_SCRIPT.format(root=str(ROOT), tests=str(TESTS)), encoding="utf-8"
    )
    spec = ExploreSpec("nimsys", runs=80, sessions=1)
    text = explore_feedback(spec, (sys.executable, "loser.py"), tmp_path)
    assert text.startswith(
        "explore (nimsys, seed 0): your program did not win every game its advanced AI could"
        " win, in games casino played against it (first: ai, rival: perfect, stones: 5-5,"
        " 1 game each)."
    )
    assert "  play:\n    game: nimsys-advanced\n" in text and "    games: 1\n" in text
