"""What explore once never typed or dealt (issue 42's seven blind spots), and the bonus scoped
as optional: each found and shrunk on a mutant of casino's reference (``benchmarks/mutants.py``,
the mutation benchmark's own), within a bounded number of sessions."""

from __future__ import annotations

import contextlib
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from casino.cards import parse_cards
from casino.explore.engine import Budget, Explorer, Found
from casino.explore.grammars import grammar_of
from casino.explore.judge import Program, reference_transcript
from casino.explore.nimsys import BONUS, NimsysGrammar
from casino.explore.nimsys_model import NEEDED
from casino.explore.plan import DATA_MARK, Session
from casino.explore.videopoker import VideoPokerGrammar, right_advice
from casino.harness.model import OutAny, Transcript
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from casino.videopoker.paytable import PayLine, classify
from explore.benchmark import MUTANTS, PROGRAM_OF, Mutant, mutant_main

ROOT = Path(__file__).resolve().parents[2]
C, B, A = NimsysGrammar("c"), NimsysGrammar("b"), NimsysGrammar("a")
VP = VideoPokerGrammar()


def _program(name: str) -> Program:
    program = PROGRAM_OF[MUTANTS[name].reference]
    return Program(InProcessRunner({program: mutant_main(MUTANTS[name])}), Target(program))


def _lines(found: Found) -> list[str]:
    return [line for run in found.session.runs for unit in run for line in unit]


def _extra_arguments(lines: list[str], _: Found) -> bool:
    fields = [(line.split(" ")[0], line.partition(" ")[2].split(",")) for line in lines]
    return any(word in NEEDED and len(args) > max(NEEDED[word], 1) for word, args in fields)


def _readded(lines: list[str], _: Found) -> bool:
    removed = [line.split(" ")[1] for line in lines if re.fullmatch(r"removeplayer \S+", line)]
    added = [line.split(" ")[1].split(",")[0] for line in lines if line.startswith("add")]
    return any(name in removed for name in added)


def _near_tie(_: list[str], found: Found) -> bool:
    return _shows_near_tie(found.transcript)


def _shows_near_tie(transcript: Transcript) -> bool:
    """Two rankings lines with the same percentage and different games."""
    text = "".join(getattr(step, "text", "") for run in transcript.runs for step in run.steps)
    shown = re.findall(r"^(\d+)%\s*\| (\d\d) games", text, re.MULTILINE)
    return any(p == q and g != h for p, g in shown for q, h in shown)


def _royal_at_five(lines: list[str], _: Found) -> bool:
    hands = [line.split()[1:6] for line in lines if line.startswith(DATA_MARK)]
    royal = any(classify(parse_cards(" ".join(hand))) is PayLine.ROYAL_FLUSH for hand in hands)
    return royal and "b 5" in lines


SPOTS: dict[str, tuple[int, Callable[[list[str], Found], bool]]] = {
    # mutant: (the most input lines its shrunk session may have, what it must type or deal)
    "extra-arguments-refused": (10, _extra_arguments),
    "a-again-lowercase": (8, lambda lines, _: lines[-1] not in ("Y", "N")),
    "whole-decimal-move": (8, lambda lines, _: any(re.fullmatch(r"\d+\.0", x) for x in lines)),
    "readded-keeps-record": (9, _readded),
    "rankings-by-rounded": (24, _near_tie),
    "vp-advice-zero-based": (4, lambda lines, _: "a" in lines),
    "vp-royal-per-coin": (3, _royal_at_five),
}


@pytest.mark.parametrize("name", sorted(SPOTS))
def test_each_blind_spot_is_found_and_shrunk(name: str) -> None:
    most, reached = SPOTS[name]
    mutant = MUTANTS[name]
    program = _program(name)
    explorer = Explorer(grammar_of(mutant.reference), program, Budget(runs=800))
    found = explorer.find(0, 120)
    assert found is not None, f"{name} survives 120 sessions"
    explorer.shrink(found)
    assert found.shrunk and found.part is None
    assert found.lines <= most, _lines(found)
    assert reached(_lines(found), found), _lines(found)
    reference = InProcessRunner()
    assert check(found.transcript, reference, Target(PROGRAM_OF[mutant.reference])).passed
    assert check(found.transcript, program.runner, program.target).status is Status.FAIL


# ------------------------------------------------------------ what the models now accept


def _session(*lines: str) -> Session:
    return Session((tuple((line,) for line in lines),))


def test_extra_arguments_are_pinned_in_project_c_only() -> None:
    lines = ("addplayer a,B,C,D", "addplayer b,E,F", "rankings asc,x", "removeplayer b,a")
    assert C.unpinned(_session(*lines)) is None
    assert "extra arguments" in (B.unpinned(_session(*lines)) or "")
    assert "empty arguments" in (C.unpinned(_session("addplayer a,B,C,")) or "")


def test_any_answer_but_capital_y_ends_project_a() -> None:
    game = ("Ann", "Bob"), ("1", "1", "1", "y")
    assert A.unpinned(Session((game,))) is None
    again = (*game, ("1", "1", "1", "N"))
    assert "after the last N" in (A.unpinned(Session((again,))) or "")


def test_near_ties_are_generated() -> None:
    rng = random.Random(4)
    quick = "startgame 1,1,"
    sessions = [C.generate(rng, 10) for _ in range(150)]
    many = [s for s in sessions if sum(u[0].startswith(quick) for r in s.runs for u in r) > 8]
    transcripts = [reference_transcript(C, session) for session in many]
    assert any(t is not None and _shows_near_tie(t) for t in transcripts)


def test_advice_accepts_every_hold_of_equal_exact_value() -> None:
    four_aces = parse_cards("AS AH AD AC KS")  # holding the kicker or not: both return 800
    assert set(right_advice(four_aces, 5)) == {
        "player should hold cards 1 2 3 4\n",
        "player should hold cards 1 2 3 4 5\n",
    }
    session = Session(((("b", "d", "a", "h 1 2 3 4", "# AS AH AD AC KS 2C"),),))
    transcript = reference_transcript(VP, session)
    assert transcript is not None
    alternatives = [s for s in transcript.runs[0].steps if isinstance(s, OutAny)]
    assert [set(s.texts) for s in alternatives] == [set(right_advice(four_aces, 5))]
    assert check(transcript, InProcessRunner(), Target("videopoker")).passed


def test_every_pay_line_is_dealt_at_every_bet() -> None:
    rng = random.Random(1)
    seen = set()
    for _ in range(200):
        for unit in VP.generate(rng, 12).runs[0]:
            if unit[-2:-1] == ("h 1 2 3 4 5",) and unit[0].startswith("b "):
                hand = parse_cards(" ".join(unit[-1].split()[1:6]))
                seen.add((classify(hand), int(unit[0].split()[1])))
    assert seen == {(line, bet) for line in PayLine for bet in range(1, 6)}


# ------------------------------------------------------------------ the bonus, optional


def test_a_student_who_skipped_the_bonus_gets_the_other_difference() -> None:
    program = _program("no-bonus-loser-not-counted")
    explorer = Explorer(C, program, Budget(runs=400))
    found = explorer.find(0, 60)
    assert found is not None and found.part is None
    explorer.shrink(found)
    assert not BONUS.has(found.session)
    assert check(found.transcript, program.runner, program.target).status is Status.FAIL
    assert [each.part for each in explorer.optional] == [BONUS]


def test_a_skipped_bonus_is_reported_once_and_the_rest_explored() -> None:
    explorer = Explorer(C, _program("no-bonus"), Budget(runs=400))
    assert explorer.find(0, 25) is None
    assert explorer.tried >= 20  # exploring went on without the bonus
    assert [each.part for each in explorer.optional] == [BONUS]


def test_the_command_line_names_the_skipped_bonus(tmp_path: Path) -> None:
    mutants = ROOT / "benchmarks" / "mutants.py"
    command = f"{sys.executable} {mutants} no-bonus"
    output = tmp_path / "explore-nimsys.yaml"
    argv = ["explore", "--reference", "nimsys", "--program", command, "--sessions", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "casino", *argv, "-o", str(output)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    assert "the bonus (startadvancedgame): not attempted" in done.stdout
    assert "no other difference in 2 sessions" in done.stdout
    assert (tmp_path / "explore-nimsys-optional-1.yaml").exists()


# ------------------------------------------------------------- many findings (--every)


def test_every_group_gets_its_own_shrunk_difference() -> None:
    bugs = [MUTANTS[name] for name in ("no-bonus", "rankings-column-4", "stats-not-saved")]

    def patch(stack: contextlib.ExitStack) -> None:
        for bug in bugs:
            bug.patch(stack)

    three = Mutant("three-bugs", "nimsys", "three bugs at once", patch)
    program = Program(InProcessRunner({"nimsys": mutant_main(three)}), Target("nimsys"))
    explorer = Explorer(C, program, Budget(runs=1500))
    founds = explorer.explore(0, 40)
    assert [f.group for f in founds] == [BONUS.name, "rankings", "files (players.dat)"]
    for found in founds:
        explorer.shrink(found)
        assert explorer.group_of(found) == found.group and found.lines <= 5
        assert check(found.transcript, program.runner, program.target).status is Status.FAIL
    assert len(founds[2].session.runs) == 2  # the records came back from players.dat
