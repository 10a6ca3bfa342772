"""The AST mutator of benchmarks/ast_mutants.py: deterministic sites, and every operator
makes a module that compiles, differs from the reference, and swaps in only while applied."""

from __future__ import annotations

import ast
import contextlib
import importlib
import sys
import types
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from casino.explore.nimsys import BONUS
from explore.benchmark import load_file, mutant_main

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

if TYPE_CHECKING:
    import ast_mutants
    import bench_explore
else:
    ast_mutants = load_file("ast_mutants", BENCHMARKS / "ast_mutants.py")
    load_file("machine", BENCHMARKS / "machine.py")  # bench_explore's own imports
    bench_explore = load_file("bench_explore", BENCHMARKS / "bench_explore.py")


def test_sites_and_the_sample_are_the_same_each_time() -> None:
    assert ast_mutants.sites("casino.nim.ranking") == ast_mutants.sites("casino.nim.ranking")
    first = ast_mutants.sample(12, 0)
    assert first == ast_mutants.sample(12, 0)
    assert first != ast_mutants.sample(12, 1)
    assert len(first) == 12 and len({site.name for site in first}) == 12


def _first_site(operator: str) -> ast_mutants.Site:
    for module in ast_mutants.MODULES:
        for site in ast_mutants.sites(module):
            if site.operator == operator:
                return site
    raise AssertionError(operator)


@pytest.mark.parametrize("operator", ast_mutants.OPERATORS)
def test_each_operator_makes_a_compilable_module_that_differs(operator: str) -> None:
    site = _first_site(operator)
    origin, text = ast_mutants._source(site.module)
    tree, change = ast_mutants.mutated_tree(site)
    assert ast.unparse(tree) != ast.unparse(ast.parse(text))
    assert change
    compile(tree, origin, "exec")
    mutant = ast_mutants.make(site)
    assert mutant is not None
    original = mutant.function.__code__
    assert mutant.code.co_code != original.co_code or mutant.code.co_consts != original.co_consts
    with mutant.applied():
        assert mutant.function.__code__ is mutant.code
    assert mutant.function.__code__ is original


def test_a_comparison_swap_changes_what_the_reference_does() -> None:
    from casino.errors import IllegalAction
    from casino.nim.nim_game import NimGame

    site = next(
        s
        for s in ast_mutants.sites("casino.nim.nim_game")
        if s.operator == "compare" and s.function == "NimGame.take"
    )
    mutant = ast_mutants.make(site)
    assert mutant is not None and mutant.change == "LtE -> Lt"
    assert NimGame(10, 3).take(1) == NimGame(9, 3)
    with mutant.applied(), pytest.raises(IllegalAction):
        NimGame(10, 3).take(1)
    assert NimGame(10, 3).take(1) == NimGame(9, 3)


def test_casinos_rival_keeps_the_unmutated_rules_while_a_mutant_runs() -> None:
    """A mutant of ``KaylesGame.legal_moves`` (the reference program never calls it) breaks
    the program's class only: the shipped ``play:`` transcripts' rival (``casino.nim.duel``)
    still lists the legal moves right, so it cannot kill the mutant by failing itself."""
    from casino.nim import duel, kayles

    site = next(
        s
        for s in ast_mutants.sites("casino.nim.kayles")
        if s.function == "KaylesGame.legal_moves" and s.operator == "boolop"
    )
    mutant = ast_mutants.make(site)
    assert mutant is not None
    full = (True, True, True)
    with mutant.applied():
        with pytest.raises(IndexError):  # `and` made `or`: the last stone reads past the end
            kayles.KaylesGame(full).legal_moves()
        judges = vars(duel)["KaylesGame"]  # the rival's own name for it (not exported)
        assert [str(move) for move in judges(full).legal_moves()] == [
            "1 1",
            "1 2",
            "2 1",
            "2 2",
            "3 1",
        ]
    assert vars(duel)["KaylesGame"] is kayles.KaylesGame


def test_every_module_of_the_nimsys_program_is_mutated() -> None:
    """Each module of ``casino/nim`` is in the list (the advanced AI's ``strategy`` too),
    except ``duel``: casino's rival, a judge, never the student's program."""
    folder = Path(__file__).resolve().parents[2] / "casino" / "nim"
    every = {f"casino.nim.{path.stem}" for path in folder.glob("*.py")}
    listed = {module for module in ast_mutants.MODULES if module.startswith("casino.nim.")}
    assert listed == every - {"casino.nim.__init__", "casino.nim.duel"}
    assert ast_mutants.sites("casino.nim.strategy") == ast_mutants.sites("casino.nim.strategy")
    names = [site.name for site in ast_mutants.sites("casino.nim.strategy")]
    assert len(names) == len(set(names)) > 50
    assert all(ast_mutants.site_named(name).name == name for name in names[::10])
    with pytest.raises(LookupError):
        ast_mutants.site_named("strategy:compare:999")


def _strategy_site(function: str, operator: str) -> ast_mutants.Site:
    return next(
        s
        for s in ast_mutants.sites("casino.nim.strategy")
        if s.function == function and s.operator == operator
    )


def test_a_grundy_mutant_breaks_the_programs_ai_but_not_casinos_rival() -> None:
    """``grundy`` is the program's (through ``_split_to``) and the rival's
    (``casino.nim.duel``): while the mutant runs, only the program's is mutated."""
    from casino.nim import duel, strategy

    site = _strategy_site("grundy", "compare")  # `n < 0` made `n <= 0`
    mutant = ast_mutants.make(site)
    assert mutant is not None and mutant.change == "Lt -> LtE"
    with mutant.applied():
        with pytest.raises(ValueError):
            strategy.grundy(0)
        assert vars(duel)["grundy"](0) == 0 and vars(duel)["grundy"](3) == 3
        assert vars(duel)["grundy"] is not strategy.grundy
    assert vars(duel)["grundy"] is strategy.grundy and strategy.grundy(0) == 0


def test_explore_kills_a_mutant_of_the_advanced_ai() -> None:
    """``kayles_move``'s ``if total == 0`` negated (a winning position played as lost):
    seed 0 finds it in 30 sessions, as a difference in the bonus, shrunk to a transcript
    that fails the mutant and passes casino's reference."""
    from casino.explore.engine import Budget, Explorer
    from casino.explore.grammars import grammar_of
    from casino.explore.judge import Program
    from casino.harness.runners.base import Target
    from casino.harness.runners.inproc import InProcessRunner
    from casino.harness.session import Status, check

    site = _strategy_site("kayles_move", "not")
    made = ast_mutants.make(site)
    assert made is not None and made.change == "if X -> if not X"
    mutant = ast_mutants.as_mutant(made)
    program = Program(InProcessRunner({"nimsys": mutant_main(mutant)}), Target("nimsys"))
    explorer = Explorer(grammar_of("nimsys"), program, Budget(runs=2_000))
    assert explorer.find(0, 30) is None
    assert [found.part for found in explorer.optional] == [BONUS]
    found = explorer.shrink(explorer.optional[0])
    assert found.lines <= 8 and BONUS.has(found.session)
    assert check(found.transcript, InProcessRunner(), Target("nimsys")).passed
    assert check(found.transcript, program.runner, program.target).status is Status.FAIL


def test_the_unit_tests_kill_a_strategy_mutant_and_pass_an_unrelated_one() -> None:
    """``--unit``: pytest in a subprocess with the mutant applied; the strategy tests fail on
    ``kayles_move``'s negated test and pass with a video poker mutant (not theirs)."""
    ai = _strategy_site("kayles_move", "not")
    assert ast_mutants.unit_kills(ai, "tests/nim/test_strategy.py")
    other = next(s for s in ast_mutants.sites("casino.videopoker.paytable") if s.operator == "not")
    assert not ast_mutants.unit_kills(other, "tests/nim/test_strategy.py")


def test_the_rates_count_a_unit_only_kill_and_leave_survivors_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A mutant only the unit tests kill is in the denominator; one nothing kills is not; one
    only a test of casino's own choices kills is in the first rate, not the second."""
    row = ast_mutants.Row
    ast_mutants._rates(
        [
            row(shipped=True, explore=True, search=True, lines=3),
            row(shipped=False, explore=True, search=True, lines=6),
            row(shipped=False, explore=False, search=None, lines=None, unit="seed"),
            row(shipped=False, explore=False, search=None, lines=None, unit="choice"),
            row(shipped=False, explore=False, search=False, lines=None, unit="none"),
        ]
    )
    assert capsys.readouterr().out == (
        "\nmutants run: 5; killed by anything: 4; presumed equivalent: 1\n"
        "(the unit tests asked of the 2 killed mutants that explore missed)\n"
        "killed by explore (seed 0):          2 (50 %)\n"
        "killed by the shipped transcripts:   1 (25 %)\n"
        "killed by unit tests of the seed's:  1 (25 %)\n"
        "killed by only casino's choice tests: 1 (25 %)\n"
        "explore, casino's choices left out: 2 of 3 (67 %)\n"
        "median shrunk session: 4.5 input lines\n"
    )


def _calls_while_shipped(names: Iterable[str]) -> set[str]:
    """Which of the functions ``names`` (module and qualified name) the programs call while
    every shipped transcript of Nimsys (Projects A to C) and video poker runs, in process as
    the benchmark runs them, each watched by ``sys.setprofile`` in the program's own run
    (casino's judges seeing fresh copies of the modules, as while a mutant runs). Every
    transcript must pass too: watching changes nothing."""
    from mutants import Mutant

    codes: dict[int, str] = {}  # by id: the judges' fresh copies have equal code objects
    held: list[types.CodeType] = []  # the code objects whose ids are keys
    modules = set()
    for name in names:
        module = next(m for m in ast_mutants.MODULES if name.startswith(m + "."))
        live = importlib.import_module(module)
        function = ast_mutants._live_function(live, name.removeprefix(module + "."))
        codes[id(function.__code__)] = name
        held.append(function.__code__)
        modules.add(module)
    called: set[str] = set()

    def watch(frame: types.FrameType, event: str, arg: object) -> None:
        if event == "call" and id(frame.f_code) in codes:
            called.add(codes[id(frame.f_code)])

    def patch(stack: contextlib.ExitStack) -> None:
        for module in sorted(modules):
            stack.enter_context(ast_mutants.judge_untouched(module))
        previous = sys.getprofile()
        sys.setprofile(watch)
        stack.callback(sys.setprofile, previous)

    for reference in ("nimsys", "nimsys-b", "nimsys-a", "videopoker"):
        watched = Mutant("watched", reference, "none", patch)
        assert not bench_explore.shipped_kills(watched), reference
    return called


def test_no_function_listed_as_not_the_programs_code_runs_in_the_shipped_transcripts() -> None:
    """Each function of ``NOT_THE_PROGRAM`` is watched while every shipped transcript runs
    and is never called; the same watch does see the functions the program calls (the
    advanced AI's ``_check_stones``, the pay table's ``payout``: not listed for that)."""
    listed = set(ast_mutants.NOT_THE_PROGRAM)
    assert "casino.videopoker.paytable.parse_paytable" in listed
    called = {
        "casino.nim.strategy._check_stones",
        "casino.videopoker.paytable.PayTable.payout",
        "casino.nim.kayles.KaylesGame.check",
    }
    assert _calls_while_shipped(listed | called) == called
    parsing = _site_of("casino.videopoker.paytable", "parse_paytable")
    assert (
        ast_mutants.not_the_program(parsing)
        == ast_mutants.NOT_THE_PROGRAM["casino.videopoker.paytable.parse_paytable"]
    )
    assert ast_mutants.not_the_program(_site_of("casino.nim.strategy", "_check_stones")) is None


def _site_of(module: str, function: str) -> ast_mutants.Site:
    return next(s for s in ast_mutants.sites(module) if s.function == function)


def test_only_a_test_of_casinos_choice_kills_the_b_with_two_amounts_mutant() -> None:
    """``commands:drop:8`` takes ``b 1 2`` as a bet: the seed has ``b`` or ``b i`` only, and
    the tests that refuse it are marked ``casino_choice``; the others pass with it."""
    site = ast_mutants.site_named("commands:drop:8")
    assert site.function == "VideoPokerCommands._bet"
    tests = "tests/videopoker/test_cli.py"
    assert not ast_mutants.unit_kills(site, tests, marks=f"not {ast_mutants.CHOICE}")
    assert ast_mutants.unit_kills(site, tests, marks=ast_mutants.CHOICE)
