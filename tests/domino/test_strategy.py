"""The computer's choices: heavy doubles early, numbers it holds, blocking, counting; and its
record against the baselines on a bounded number of seeded hands."""

from __future__ import annotations

import random

from casino.domino.rules import End, Move
from casino.domino.strategy import View, greedy, head_to_head, ours, random_legal
from casino.domino.tiles import Tile, parse_tile

T = parse_tile


def _view(hand: str, ends: tuple[int, int] | None, line: str = "", lack: str = "") -> View:
    tiles = tuple(T(t) for t in hand.split())
    on_line = tuple(T(t) for t in line.split())

    def fits(tile: Tile) -> list[End]:
        if ends is None:
            return [End.LEFT]
        return [end for end, n in zip(End, ends, strict=True) if tile.has(n)]

    moves = tuple(Move(t, e) for t in tiles for e in fits(t))
    return View(tiles, moves, ends, on_line, 7, 7, frozenset(int(n) for n in lack.split()))


def test_it_leads_a_heavy_double() -> None:
    assert ours(_view("6-6 5-6 0-1 2-3 1-4 0-2 3-4", None)).tile == T("6-6")


def test_it_keeps_the_ends_on_numbers_it_holds() -> None:
    # [2|5] and [2|4] both fit the 2; after [2|5] the end is a 5, which it holds three more of
    move = ours(_view("2-5 2-4 5-5 0-5 1-5", (2, 2), "2-2"))
    assert move.tile == T("2-5")


def test_it_plays_to_a_number_the_member_drew_on() -> None:
    # two moves alike in every way but the new end: a 3 or a 4; the member drew on one of them
    for lack, tile in (("3", "1-3"), ("4", "0-4")):
        assert ours(_view("0-4 1-3", (0, 1), "0-1", lack=lack)).tile == T(tile)


def test_baselines_are_what_they_say() -> None:
    view = _view("0-1 5-6 1-2", (1, 6), "1-6")
    assert greedy(view).tile == T("5-6")
    assert random_legal(random.Random(1))(view) in view.moves


def test_it_beats_both_baselines_over_400_seeded_hands() -> None:
    won, lost, _ = head_to_head(ours, random_legal(random.Random(7)), 400, 1000)
    assert won > 0.58 * 400 and won > 1.5 * lost
    won, lost, _ = head_to_head(ours, greedy, 400, 2000)
    assert won > 0.55 * 400 and won > lost


def test_it_prefers_an_end_of_which_no_tile_is_left_out() -> None:
    # [2|5] leaves a 5 and [2|4] a 4, alike otherwise; every other 4 is on the line or kept
    on_line = "4-4 0-4 1-4 3-4 4-5 4-6 2-2"
    assert ours(_view("2-4 2-5", (2, 2), on_line)).tile == T("2-4")
