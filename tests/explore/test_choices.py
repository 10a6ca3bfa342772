"""``casino explore --choices``: what the seed leaves open, explored and judged by casino's own
answer (stderr and exit status too) — only when asked, never for a student the seed binds."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from casino.explore.engine import Budget, Explorer
from casino.explore.grammars import grammar_of, with_choices
from casino.explore.judge import Program
from casino.explore.nimsys import CHOICE_FILES, NimsysGrammar
from casino.explore.plan import Session
from casino.explore.videopoker import VideoPokerGrammar
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from explore.benchmark import load_file, mutant_main

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

if TYPE_CHECKING:
    import ast_mutants
else:
    ast_mutants = load_file("ast_mutants", BENCHMARKS / "ast_mutants.py")

CHOICE_MUTANTS = {
    "storage:not:10": "nimsys",  # _describe: a bad file's reason read as an OS error's (a crash)
    "storage:string:0": "nimsys",  # _unescape: "Line 2: bad escape"
    "storage:string:21": "nimsys",  # load: "..., Starting with no players"
    "commands:drop:8": "videopoker",  # _bet: `b 1 2` bets 1 instead of "b: illegal amount"
}
"""Tool-made mutants (benchmarks/ast_mutants.py, seed 0's sample) that only tests of casino's
own choices killed before ``--choices``."""


def _program(site: str) -> Program:
    made = ast_mutants.make(ast_mutants.site_named(site))
    assert made is not None
    mutant = ast_mutants.as_mutant(made)
    name = "nimsys" if mutant.reference == "nimsys" else "videopoker"
    return Program(InProcessRunner({name: mutant_main(mutant)}), Target(name))


@pytest.mark.parametrize("site", sorted(CHOICE_MUTANTS))
def test_choices_find_and_shrink_what_only_casinos_choice_tests_killed(site: str) -> None:
    program = _program(site)
    plain = grammar_of(CHOICE_MUTANTS[site])
    assert Explorer(plain, program, Budget(runs=2_000)).find(0, 30) is None
    chosen = with_choices(plain)
    assert chosen is not None
    explorer = Explorer(chosen, program, Budget(runs=2_000))
    found = explorer.find(0, 30)
    assert found is not None
    found = explorer.shrink(found)
    assert found.lines <= 2
    assert check(found.transcript, InProcessRunner(), Target(chosen.program)).passed
    assert check(found.transcript, program.runner, program.target).status is Status.FAIL


def test_casino_explored_with_its_choices_never_differs_from_itself() -> None:
    for name in ("nimsys", "videopoker"):
        chosen = with_choices(grammar_of(name))
        assert chosen is not None
        program = Program(InProcessRunner(), Target(chosen.program))
        explorer = Explorer(chosen, program, Budget(runs=2_000))
        assert explorer.find(0, 60) is None and not explorer.optional


def test_a_starting_players_dat_is_drawn_rendered_and_shrunk_away() -> None:
    grammar = NimsysGrammar(choices=True)
    import random

    drawn = {grammar.generate(random.Random(seed), 6).data for seed in range(60)}
    assert drawn >= {("0",)} and len(drawn) > 3
    session = Session(((("rankings",),),), ("2",))
    assert grammar.render(session).files == (CHOICE_FILES[2],)
    assert CHOICE_FILES[2] is not None and CHOICE_FILES[2][0] == "players.dat"
    assert grammar.render(Session(session.runs, ("0",))).files == ()
    simpler = [each.data for each in grammar.simpler(session) if each.runs == session.runs]
    assert simpler[-2:] == [("0",), ("1",)]
    assert all(Session(session.runs, data).size < session.size for data in simpler[-2:])
    plain = NimsysGrammar()
    assert plain.generate(random.Random(3), 6).data == ()
    assert not plain.judges_errors and grammar.judges_errors


def test_every_choice_file_is_refused_by_casino_and_leaves_no_players(tmp_path: Path) -> None:
    from casino.errors import ParseError
    from casino.nim import storage

    assert CHOICE_FILES[0] is None
    for start in CHOICE_FILES[1:]:
        assert start is not None
        name, text = start
        if name == "players.dat":
            with pytest.raises(ParseError):
                storage.loads(text)
            continue
        assert name == "players.dat/kept"  # players.dat a folder: it cannot be read
        (tmp_path / "players.dat").mkdir()
        loaded = storage.load(tmp_path / "players.dat")
        assert loaded.players == [] and loaded.warning is not None
        assert "is a directory" in loaded.warning


def test_a_bet_of_two_amounts_is_pinned_only_with_choices() -> None:
    session = Session(((("b 1 2",), ("$",)),))
    assert VideoPokerGrammar().unpinned(session) == "not a command explore types: 'b 1 2'"
    assert VideoPokerGrammar(choices=True).unpinned(session) is None
    dealt = Session(((("b 1 2",), ("d",)),))  # no bet was placed: the deal is left open
    assert (
        VideoPokerGrammar(choices=True).unpinned(dealt) == "a deal with no bet since the last hand"
    )


def test_choices_for_a_grammar_that_has_none_is_one_usage_line(tmp_path: Path) -> None:
    from casino.explore.cli import main

    out, err = io.StringIO(), io.StringIO()
    status = main(["explore", "--reference", "nimsys-b", "--choices"], stdout=out, stderr=err)
    assert status == 2
    assert err.getvalue().splitlines()[-1] == (
        "casino explore: --choices: explore knows no casino's choices of nimsys-b"
        " (see casino explore --help)"
    )
    assert with_choices(grammar_of("demo")) is None


def test_the_rates_count_what_choices_adds(capsys: pytest.CaptureFixture[str]) -> None:
    row = ast_mutants.Row
    ast_mutants._rates(
        [
            row(shipped=True, explore=True, search=True, lines=3),
            row(shipped=False, explore=False, search=None, lines=None, unit="choice", choices=True),
            row(
                shipped=False, explore=False, search=None, lines=None, unit="choice", choices=False
            ),
            row(shipped=False, explore=False, search=False, lines=None, unit="none", choices=False),
        ]
    )
    out = capsys.readouterr().out
    assert "mutants run: 4; killed by anything: 3; presumed equivalent: 1\n" in out
    assert "killed by explore (seed 0):          1 (33 %)\n" in out
    assert (
        "killed by explore --choices (seed 0): 2 (67 %) (explore's kills and those --choices"
        " adds)\n"
    ) in out
