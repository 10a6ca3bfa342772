"""The AST mutator of benchmarks/ast_mutants.py: deterministic sites, and every operator
makes a module that compiles, differs from the reference, and swaps in only while applied."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from explore.benchmark import load_file

if TYPE_CHECKING:
    import ast_mutants
else:
    ast_mutants = load_file(
        "ast_mutants", Path(__file__).resolve().parents[2] / "benchmarks" / "ast_mutants.py"
    )


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
