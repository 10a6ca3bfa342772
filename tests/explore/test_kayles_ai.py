"""Explore reaches the advanced game's AI (Project C's bonus): the model keeps an AI seat where
each of its moves is pinned, the grammar plays such games often, and a wrong move is found."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from casino.explore.engine import Budget, Explorer
from casino.explore.judge import Program
from casino.explore.nimsys import NimsysGrammar
from casino.explore.nimsys_model import kayles_value, pinned_ai_move
from casino.explore.plan import Session
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from casino.nim.kayles import KaylesGame
from casino.nim.strategy import kayles_move
from explore.ai_mutants import advanced_ai_main

C = NimsysGrammar("c")


def _session(*lines: str) -> Session:
    return Session((tuple((line,) for line in lines),))


def test_a_pinned_move_is_the_references_and_the_only_right_one() -> None:
    """Every position of up to 9 stones: where the model pins a move, the reference's AI makes
    it, and it is the only legal move or the only one that leaves a lost position."""
    pinned = 0
    for size in range(1, 10):
        for stones in itertools.product((True, False), repeat=size):
            game = KaylesGame(stones)
            if game.over:
                continue
            move = pinned_ai_move(game)
            legal = game.legal_moves()
            winning = [m for m in legal if kayles_value(game.take(m)) == 0]
            if move is None:
                assert len(legal) > 1 and len(winning) != 1
                continue
            pinned += 1
            assert move == kayles_move(stones)
            assert len(legal) == 1 or winning == [move]
    assert pinned > 300


def test_the_model_keeps_an_ai_game_where_each_move_is_pinned() -> None:
    # 3 stones, the AI first: "2 1" is its one winning move; then "3 1" or "1 1" is its last
    kept = _session("addaiplayer r,D,R", "addplayer l,S,L", "startadvancedgame 3,r,l", "1 1")
    assert C.unpinned(kept) is None
    # 6 stones, the AI first: two moves win, so either is right
    refused = _session("addaiplayer r,D,R", "addplayer l,S,L", "startadvancedgame 6,r,l")
    assert C.unpinned(refused) == "the advanced AI has more than one right move here"


def test_the_grammar_plays_the_advanced_ai_often_and_from_split_rows() -> None:
    games = split = 0
    for seed in range(30):
        session = C.generate(random.Random(seed), 12)
        assert C.unpinned(session) is None
        ai: set[str] = set()
        for run in session.runs:
            for unit in run:
                if unit[0].startswith("addaiplayer "):
                    ai.add(unit[0].split(" ")[1].split(",")[0])
                if unit[0].startswith("startadvancedgame ") and (
                    set(unit[0].split(" ")[1].split(",")[1:]) & ai
                ):
                    games += 1
                    split += any(
                        _inside(move, int(unit[0][18:].split(",")[0])) for move in unit[1:]
                    )
    assert games >= 10 and split >= 3


def _inside(move: str, size: int) -> bool:
    """Whether ``move`` takes stones from inside a row of ``size`` (leaving two rows)."""
    position, count = map(int, move.split(" "))
    return position > 1 and position + count - 1 < size


def _row_blind(available: Sequence[bool], last_move: str = "") -> str:
    """An AI that sees the stones left as one row (it ignores the gaps)."""
    return str(kayles_move((True,) * sum(available)))


row_blind_main = advanced_ai_main(
    "row-blind", "the advanced AI ignores the gaps between rows", _row_blind, pinned=True
)
"""Nimsys whose advanced AI ignores the gaps between rows."""


def test_explore_finds_an_ai_that_ignores_split_rows() -> None:
    mutant = Program(InProcessRunner({"nimsys": row_blind_main}), Target("nimsys"))
    explorer = Explorer(C, mutant, Budget(runs=3000))
    found = explorer.find(0, 60)
    if found is None and explorer.optional:
        found = explorer.optional[0]
    assert found is not None
    explorer.shrink(found)
    assert any(
        line.startswith("startadvancedgame") for run in found.transcript.runs for line in run.inputs
    )
    assert check(found.transcript, InProcessRunner(), Target("nimsys")).passed
    assert check(found.transcript, mutant.runner, mutant.target).status is Status.FAIL
