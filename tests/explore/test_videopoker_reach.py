"""What explore's video poker sessions reach beyond the hands: the statistics table (judged on
what the seed pins of it), a bet of the whole credit, and with ``--choices`` casino's own
answers to illegal positions and arguments; and Nimsys's code shared by Projects A to C
explored as each of them (benchmarks/ast_mutants.py's ``PROJECTS``)."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import TYPE_CHECKING
from unittest import mock

import pytest

from casino.explore.engine import Budget, Explorer, Found
from casino.explore.grammars import grammar_of, with_choices
from casino.explore.judge import Program
from casino.explore.plan import Session
from casino.explore.videopoker import CREDIT_MARK, VideoPokerGrammar, table_pattern
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from casino.videopoker import stats
from explore.benchmark import Mutant, load_file, mutant_main

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

if TYPE_CHECKING:
    import ast_mutants
else:
    ast_mutants = load_file("ast_mutants", BENCHMARKS / "ast_mutants.py")
    load_file("machine", BENCHMARKS / "machine.py")  # bench_explore's own imports
    load_file("bench_explore", BENCHMARKS / "bench_explore.py")

TABLE = """\
Hand            Nb
Jacks or Better  0
Two Pair         0
Three of a Kind  0
Straight         0
Flush            0
Full house       0
Four of a Kind   0
Straight Flush   0
Royal Flush      0
Other            1
Total            1
Credit          95 (95.00%)
"""


def _patched(name: str, patch: contextlib.AbstractContextManager[object]) -> Program:
    def apply(stack: contextlib.ExitStack) -> None:
        stack.enter_context(patch)

    main = mutant_main(Mutant(name, "videopoker", name, apply))
    return Program(InProcessRunner({"videopoker": main}), Target("videopoker"))


def _found(grammar_name: str, program: Program, choices: bool = False) -> Found | None:
    grammar = grammar_of(grammar_name)
    if choices:
        chosen = with_choices(grammar)
        assert chosen is not None
        grammar = chosen
    explorer = Explorer(grammar, program, Budget(runs=2_000))
    found = explorer.find(0, 30)
    return None if found is None else explorer.shrink(found)


def _mutant(site: str) -> Program:
    made = ast_mutants.make(ast_mutants.site_named(site))
    assert made is not None
    mutant = ast_mutants.as_mutant(made)
    return Program(InProcessRunner({"videopoker": mutant_main(mutant)}), Target("videopoker"))


def test_the_table_pattern_pins_labels_and_counts_not_spacing_nor_the_percentage() -> None:
    import re

    pattern = re.compile(table_pattern(TABLE))
    assert pattern.fullmatch(TABLE)
    tabbed = "".join(
        re.sub(r"(?<=[a-zA-Z]) +(?=[0-9N-])", "\t", line) + "\n" for line in TABLE.splitlines()
    )
    assert "\t" in tabbed and pattern.fullmatch(tabbed)
    assert pattern.fullmatch(TABLE.replace("(95.00%)", "(-5%)"))
    assert not pattern.fullmatch(TABLE.replace("Other            1", "Other            0"))
    assert not pattern.fullmatch(TABLE.replace("Credit          95", "Credit          96"))
    assert not pattern.fullmatch(TABLE.replace("Two Pair ", "Two pair "))
    assert not pattern.fullmatch(TABLE.replace("Flush            0", "Flush0"))


def test_every_session_ends_with_the_table_and_a_tabbed_one_passes() -> None:
    grammar = VideoPokerGrammar()
    for seed in range(20):
        session = grammar.generate(random.Random(seed), 8)
        assert session.runs[0][-1] == ("s",)
    tabbed = mock.patch.object(stats, "_row", lambda label, value, width: f"{label}\t{value}")
    assert _found("videopoker", _patched("tabbed", tabbed)) is None


def test_a_wrong_count_in_the_table_is_found_in_one_line() -> None:
    def rows(self: stats.Statistics) -> list[tuple[str, int]]:
        kept = original(self)
        return [(label, count + (label == "Total")) for label, count in kept]

    original = stats.Statistics.rows
    found = _found(
        "videopoker", _patched("total", mock.patch.object(stats.Statistics, "rows", rows))
    )
    assert found is not None and found.lines == 1
    assert found.session.runs[0][-1] == ("s",)


def test_a_bet_of_the_whole_credit_is_dealt() -> None:
    """``Machine.deal``'s ``bet > credit`` made ``>=`` (a bet of all the credit refused): a
    session on a tight credit finds it, the credit in its arguments."""
    found = _found("videopoker", _mutant("game:compare:4"))
    assert found is not None and found.lines <= 4
    assert any(line.startswith(CREDIT_MARK) for unit in found.session.runs[0] for line in unit)
    assert found.transcript.runs[0].args is not None
    assert found.transcript.runs[0].args[1] != "10000"
    reference = InProcessRunner(), Target("videopoker")
    assert check(found.transcript, *reference).passed


def test_a_tight_credit_is_refused_where_a_bet_goes_over_it() -> None:
    grammar = VideoPokerGrammar()
    cards = "# 2H KH 2S JS 6D JH TC 9H QC AS"
    over = Session((((f"{CREDIT_MARK}3",), ("b 4", "d", "h", cards)),))
    assert grammar.unpinned(over) == "a bet over the credit left (casino's own message)"
    assert VideoPokerGrammar(choices=True).unpinned(over) is not None  # no bet: the deal open
    whole = Session((((f"{CREDIT_MARK}4",), ("b 4", "d", "h", cards), ("$",)),))
    assert grammar.unpinned(whole) is None
    assert grammar.render(whole).runs[0].args[1] == "4"
    broke = Session((((f"{CREDIT_MARK}4",), ("b 4", "d", "h", cards), ("b 1",)),))
    assert grammar.unpinned(broke) == "a bet over the credit left (casino's own message)"
    assert grammar.unpinned(Session((((f"{CREDIT_MARK}0",),),))) is not None


@pytest.mark.parametrize(
    ("site", "typed"),
    [
        ("game:boolop:1", "h "),  # _hold_set: a position twice accepted
        ("commands:drop:17", "s "),  # _statistics: `s 1` refused, then the table printed
    ],
)
def test_choices_reach_casinos_illegal_positions_and_arguments(site: str, typed: str) -> None:
    program = _mutant(site)
    assert _found("videopoker", program) is None
    found = _found("videopoker", program, choices=True)
    assert found is not None and found.lines <= 4
    files = dict(found.transcript.files or ())
    assert typed in files["cmd-file.txt"].text  # type: ignore[union-attr]
    assert check(found.transcript, program.runner, program.target).status is Status.FAIL


def test_code_shared_by_the_projects_is_explored_as_each() -> None:
    """``cli._run``'s ``stage == "a"`` made ``!=`` (Project B plays Project A): Project C's
    sessions never see it, Project B's first session does."""
    made = ast_mutants.make(ast_mutants.site_named("cli:compare:1"))
    assert made is not None
    mutant = ast_mutants.as_mutant(made)
    assert [each.reference for each in ast_mutants._projects(mutant)] == [
        "nimsys",
        "nimsys-b",
        "nimsys-a",
    ]
    found = ast_mutants._explored(mutant, 30)
    assert found is not None
    assert found.transcript.runs[0].args == ("--stage", "b")
