"""The AI wins every game it can win: Nim's k(M+1)+1 rule and Kayles by Grundy values."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.nim import NimAIPlayer
from casino.nim.kayles import KaylesGame, KaylesMove
from casino.nim.nim_game import NimGame
from casino.nim.strategy import PERIOD, PERIODIC_FROM, grundy, grundy_by_mex

from .kayles_oracle import mask_of, moves_of_mask, row_lengths, wins_mask, wins_rows

AI = NimAIPlayer()


def test_grundy_values_match_the_rules_far_beyond_the_period_start() -> None:
    direct = grundy_by_mex(1200)
    assert [grundy(n) for n in range(1200)] == direct
    assert direct[:12] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    assert direct[PERIODIC_FROM - 1] != direct[PERIODIC_FROM - 1 + PERIOD]


def test_grundy_of_huge_rows_follows_the_period() -> None:
    for n in (10**6, 10**12 + 5, 10**30 + 7):
        assert grundy(n) == grundy(PERIODIC_FROM + (n - PERIODIC_FROM) % PERIOD)
    with pytest.raises(ValueError):
        grundy(-1)


def _stones(mask: int, size: int) -> list[bool]:
    return [bool(mask >> index & 1) for index in range(size)]


@pytest.mark.parametrize("size", range(1, 15))
def test_every_position_of_a_row_up_to_14_stones(size: int) -> None:
    """From every subset of a row of ``size`` stones: a legal move, and a winning one if any."""
    for mask in range(1, 1 << size):
        stones = _stones(mask, size)
        before = list(stones)
        move = KaylesMove.parse(AI.advanced_move(stones, ""))
        assert stones == before
        after = KaylesGame(tuple(stones)).take(move)
        if wins_mask(mask):
            assert not wins_mask(mask_of(after.stones)), (stones, move)


def _play(size: int, ai_first: bool, opponent: random.Random | None) -> tuple[bool, bool]:
    """Play a game from a full row; ``opponent`` None is the perfect player.

    Returns (the AI won, the opponent ever left the AI a winning position).
    """
    game, ai_turn, erred, last = KaylesGame.start(size), ai_first, False, ""
    while True:
        if ai_turn:
            move = KaylesMove.parse(AI.advanced_move(list(game.stones), last))
        else:
            moves = game.legal_moves()
            good = [m for m in moves if not wins_mask(mask_of(game.take(m).stones))]
            move = (good or moves)[0] if opponent is None else opponent.choice(moves)
            erred |= wins_mask(mask_of(game.take(move).stones))
        game, last = game.take(move), str(move)
        if game.over:
            return ai_turn, erred
        ai_turn = not ai_turn


@pytest.mark.parametrize("size", range(1, 15))
def test_games_against_perfect_and_random_opponents(size: int) -> None:
    ai_won, _ = _play(size, ai_first=True, opponent=None)
    assert ai_won  # every single row is a first-player win
    ai_won, erred = _play(size, ai_first=False, opponent=None)
    assert not ai_won and not erred
    rng = random.Random(size)
    for _ in range(40):
        assert _play(size, ai_first=True, opponent=rng)[0]
        ai_won, erred = _play(size, ai_first=False, opponent=rng)
        assert ai_won == erred


def _mex_values(limit: int) -> list[int]:
    """Grundy values written out independently of the module: mex over all splits."""
    values: list[int] = []
    for n in range(limit):
        reachable = {
            values[a] ^ values[n - take - a] for take in (1, 2) for a in range(n - take + 1)
        }
        values.append(min(set(range(len(reachable) + 1)) - reachable))
    return values


MEX = _mex_values(61)


def _xor(lengths: list[int]) -> int:
    total = 0
    for length in lengths:
        total ^= MEX[length]
    return total


@given(st.lists(st.booleans(), min_size=1, max_size=60), st.data())
def test_random_multi_gap_positions_up_to_60_stones(
    stones: list[bool], data: st.DataObject
) -> None:
    if not any(stones):
        stones[data.draw(st.integers(0, len(stones) - 1))] = True
    before = list(stones)
    move = KaylesMove.parse(AI.advanced_move(stones, "1 1"))
    assert stones == before
    after = KaylesGame(tuple(stones)).take(move).stones
    if _xor(row_lengths(stones)):
        assert _xor(row_lengths(after)) == 0
    if sum(stones) <= 24:
        assert wins_rows(row_lengths(stones)) == bool(_xor(row_lengths(stones)))
        if wins_rows(row_lengths(stones)):
            assert not wins_rows(row_lengths(after))


def test_multiset_oracle_agrees_with_the_bitmask_oracle() -> None:
    for mask in range(1, 1 << 12):
        assert wins_rows(row_lengths(_stones(mask, 12))) == wins_mask(mask)
        assert all(after < mask for after in moves_of_mask(mask))


def _value(stones: tuple[bool, ...] | list[bool]) -> int:
    total = 0
    for length in row_lengths(stones):
        total ^= grundy(length)
    return total


def test_huge_boards_get_a_winning_move() -> None:
    rng = random.Random(3)
    for size in (10_000, 12_345, 100_001):
        stones = [rng.random() < 0.9 for _ in range(size)]
        move = KaylesMove.parse(AI.advanced_move(stones, ""))
        after = KaylesGame(tuple(stones)).take(move).stones
        assert _value(after) == 0 or _value(stones) == 0
    full = (True,) * 10_000
    move = KaylesMove.parse(AI.advanced_move(full))
    assert _value(KaylesGame(full).take(move).stones) == 0


# casino_choice: the seed's advancedMove(boolean[] available, ...) (nimsys-projects-a-b-c.txt
# line 991) says nothing of a board without stones or of non-boolean ones: a game never asks.
@pytest.mark.casino_choice
def test_advanced_move_rejects_a_board_without_stones() -> None:
    for bad in ([], [False, False]):
        with pytest.raises(ValueError):
            AI.advanced_move(bad, "")
    with pytest.raises(ValueError):
        AI.advanced_move([True, 2, True], "")  # type: ignore[list-item]


def test_nim_ai_leaves_k_times_m_plus_1_plus_1_whenever_possible() -> None:
    for bound in range(1, 9):
        for remaining in range(1, 60):
            take = AI.remove_stone(remaining, bound)
            after = NimGame(remaining, bound).take(take).remaining
            if (remaining - 1) % (bound + 1):
                assert after % (bound + 1) == 1
            else:
                assert take == 1


@functools.cache
def _nim_wins(remaining: int, bound: int) -> bool:
    """Minimax for ordinary Nim: the player who takes the last stone loses (memoized: each
    position is solved once, not once per path to it)."""
    if remaining == 0:
        return True  # the previous player took the last stone and lost
    return any(not _nim_wins(remaining - t, bound) for t in range(1, min(bound, remaining) + 1))


def test_nim_ai_wins_every_winnable_game_against_any_opponent() -> None:
    for bound in range(1, 6):
        for remaining in range(1, 25):
            if _nim_wins(remaining, bound):
                after = remaining - AI.remove_stone(remaining, bound)
                assert not _nim_wins(after, bound)
