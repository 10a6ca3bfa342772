"""``--every`` beyond Nimsys: video poker's and five-card draw's groups, each with its own
shrunk difference, for a program with two bugs in two parts of the assignment."""

from __future__ import annotations

import contextlib

import pytest

from casino.explore.draw import DrawGrammar
from casino.explore.engine import Budget, Explorer
from casino.explore.grammars import grammar_of
from casino.explore.judge import Program
from casino.explore.videopoker import VideoPokerGrammar
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from explore.benchmark import MUTANTS, PROGRAM_OF, Mutant, mutant_main

VP = VideoPokerGrammar()
DRAW = DrawGrammar()


def _both(first: str, second: str) -> Mutant:
    bugs = [MUTANTS[first], MUTANTS[second]]

    def patch(stack: contextlib.ExitStack) -> None:
        for bug in bugs:
            bug.patch(stack)

    return Mutant(f"{first}+{second}", bugs[0].reference, "two bugs at once", patch)


@pytest.mark.parametrize(
    ("first", "second", "groups", "sessions"),
    [
        ("vp-tens-or-better", "vp-advice-zero-based", {"pay lines", "advice"}, 60),
        ("draw-fold-message", "draw-bet-over-chips", {"bet or fold", "bets"}, 40),
    ],
)
def test_every_reports_one_shrunk_difference_per_group(
    first: str, second: str, groups: set[str], sessions: int
) -> None:
    mutant = _both(first, second)
    program_name = PROGRAM_OF[mutant.reference]
    program = Program(InProcessRunner({program_name: mutant_main(mutant)}), Target(program_name))
    explorer = Explorer(grammar_of(mutant.reference), program, Budget(runs=3000))
    founds = explorer.explore(0, sessions)
    assert {found.group for found in founds} == groups
    assert len(founds) == len(groups)
    for found in founds:
        explorer.shrink(found)
        assert found.shrunk and explorer.group_of(found) == found.group
        assert check(found.transcript, InProcessRunner(), Target(program_name)).passed
        assert check(found.transcript, program.runner, program.target).status is Status.FAIL


def test_video_pokers_groups_follow_the_reference_lines() -> None:
    assert VP.group_of_line("player should hold cards 1 4") == "advice"
    assert VP.group_of_line("player should discard everything") == "advice"
    assert VP.group_of_line("player wins with a TWO PAIR and his credit is 9990") == "pay lines"
    assert VP.group_of_line("player loses and his credit is 9995") == "pay lines"
    assert VP.group_of_line("player's hand 2H KH 2S JS 6D") == "hands"
    assert VP.group_of_line("b: illegal amount") == "commands"
    assert VP.group_of_line("player's credit is 9995") == "commands"
