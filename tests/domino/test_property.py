"""Property tests: thousands of seeded hands with random, also illegal, moves; and whole
sessions fed random lines. No traceback, every tile in one place at every step, every placed
tile matched its end, money conserved."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.domino.cli import main
from casino.domino.money import Ledger
from casino.domino.rules import End, HandState, shuffled_deal
from casino.domino.strategy import take_turn
from casino.domino.tiles import ALL_TILES
from casino.errors import IllegalAction
from casino.programs import run_captured

from .helpers import check_invariants

HANDS_PER_EXAMPLE = 20
MAX_RANDOM_STEPS = 400


def _snapshot(state: HandState) -> tuple[object, ...]:
    return (*map(tuple, state.hands), tuple(state.line), tuple(state.boneyard), state.turn)


def _step(state: HandState, pick: int) -> None:
    """One action chosen by ``pick``: a play of any tile (also not held) at any end, a draw,
    a pass or a time-out, by either seat (also out of turn). Illegal ones must be refused
    and change nothing."""
    seat, kind, rest = pick % 2 if pick % 7 == 0 else state.turn, (pick // 2) % 5, pick // 10
    before = _snapshot(state)
    try:
        if kind <= 1:
            tile = (
                ALL_TILES[rest % 28]
                if rest % 3
                else state.hands[seat][rest % len(state.hands[seat])]
            )
            end = End.LEFT if kind == 0 else End.RIGHT
            ends = state.ends
            placed = state.play(seat, tile, end)
            if ends is not None:  # it matched the end it was played at
                assert (placed.right if end is End.LEFT else placed.left) == ends[end is End.RIGHT]
        elif kind == 2:
            state.draw(seat)
        elif kind == 3:
            state.pass_turn(seat)
        else:
            state.time_out(seat)
            assert state.turn != seat or state.result is not None  # one time-out a turn
    except IllegalAction:
        assert before == _snapshot(state)
    check_invariants(state)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_random_moves_keep_every_tile_and_the_money(seed: int, picks: list[int]) -> None:
    ledger = Ledger.even(100)
    rng = random.Random(seed)
    for _ in range(HANDS_PER_EXAMPLE):
        state = HandState.start(shuffled_deal(rng))
        check_invariants(state)
        for step in range(MAX_RANDOM_STEPS):
            if state.result is not None:
                break
            _step(state, picks[step % len(picks)] + step * 7919)
        while state.result is None:  # random picks may keep missing: finish it legally
            take_turn(state, state.turn, lambda view: view.moves[0])
            check_invariants(state)
        ledger.settle(state.result)
        assert sum(ledger.bankrolls) == 200
    assert ledger.hands == HANDS_PER_EXAMPLE


LINES = st.one_of(
    st.sampled_from(
        [
            "1",
            "2 left",
            "3 right",
            "4 izquierda",
            "5 derecha",
            "9",
            "draw",
            "robar",
            "pass",
            "pasar",
            "help",
            "",
            "xyz",
            "@16",
            "@4",
            "y",
            "n",
            "s",
            "1 2 3",
            "-1",
            "quit",
        ]
    ),
    st.text(max_size=8),
    st.integers(0, 9).map(lambda n: f"{n} left"),
)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.lists(LINES, max_size=60), st.sampled_from(["es", "en"]))
def test_random_sessions_never_crash_and_conserve_money(
    seed: int, lines: list[str], lang: str
) -> None:
    stdin = "".join(line.replace("\n", " ").replace("\r", " ") + "\n" for line in lines)
    done = run_captured(
        main, ["--seed", str(seed), "--fake-clock", "--lang", lang, "--bankroll", "20"], stdin
    )
    assert (done.status, done.err) == (0, "")
    money = re.findall(r"\$(\d+) \([+-]\d+\), [^$]*\$(\d+)\.\n\Z", done.out)
    assert money and sum(map(int, money[0])) == 40
