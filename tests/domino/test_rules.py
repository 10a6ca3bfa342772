"""The pure rules of a hand: deal, opening draw, moves, blocked hands, time-outs, tiles files."""

from __future__ import annotations

import random

import pytest

from casino.domino.money import Ledger
from casino.domino.rules import (
    COMPUTER,
    MEMBER,
    Deal,
    End,
    Finish,
    HandState,
    Move,
    Result,
    Turn,
    parse_deals,
    shuffled_deal,
)
from casino.domino.strategy import take_turn
from casino.domino.tiles import ALL_TILES, Tile, parse_tile
from casino.errors import IllegalAction, ParseError

from .helpers import check_invariants

T = parse_tile


def _deal(member: str, computer: str, boneyard: str, draws: str = "6-6 0-0") -> Deal:
    """A deal from hands written as tiles; unnamed tiles go to the boneyard's end."""
    named = [T(t) for t in f"{member} {computer} {boneyard}".split()]
    rest = [t for t in ALL_TILES if t not in named]
    tiles = [T(t) for t in draws.split()]
    pairs = tuple((tiles[i], tiles[i + 1]) for i in range(0, len(tiles), 2))
    return Deal(pairs, (*named, *rest))


def test_28_distinct_tiles_and_their_values() -> None:
    assert len(set(ALL_TILES)) == 28
    assert sum(t.has(3) for t in ALL_TILES) == 7
    assert T("[5|3]") == Tile(3, 5) and T("6-6").pips == 12 and T("6-6").is_double
    assert Tile(3, 5).ascii(5) == "[5|3]" and Tile(0, 0).glyph() == "\U0001f031"
    for bad in ("7-1", "3", "a-b", "[3|5", "33-1", "٣-1"):
        with pytest.raises(ParseError):
            T(bad)


def test_a_shuffled_deal_redraws_equal_totals_and_the_higher_total_opens() -> None:
    for seed in range(200):
        deal = shuffled_deal(random.Random(seed))
        *ties, (member, computer) = deal.draws
        assert all(a.pips == b.pips for a, b in ties)
        assert member.pips != computer.pips
        assert deal.opener == (MEMBER if member.pips > computer.pips else COMPUTER)
    assert any(len(shuffled_deal(random.Random(s)).draws) > 1 for s in range(200))
    assert shuffled_deal(random.Random(5)) == shuffled_deal(random.Random(5))


def test_the_deal_gives_seven_each_and_the_rest_to_the_boneyard_in_order() -> None:
    deal = shuffled_deal(random.Random(1))
    state = HandState.start(deal)
    assert state.hands[0] == list(deal.order[:7]) and state.hands[1] == list(deal.order[7:14])
    assert state.boneyard == list(deal.order[14:]) and state.turn == deal.opener


def test_the_opener_plays_anything_then_tiles_must_match_an_open_end() -> None:
    state = HandState.start(_deal("1-2 3-4 0-0 0-1 0-2 0-3 0-4", "2-5 5-5 1-1 1-3 1-4 2-2 2-3", ""))
    assert len(state.moves(MEMBER)) == 7  # the opening tile: any, at either end
    state.play(MEMBER, T("1-2"), End.RIGHT)
    assert state.ends == (1, 2) and state.turn == COMPUTER
    with pytest.raises(IllegalAction, match="does not fit the left end"):
        state.play(COMPUTER, T("2-5"), End.LEFT)
    with pytest.raises(IllegalAction, match="not that player's turn"):
        state.play(MEMBER, T("0-1"), End.LEFT)
    with pytest.raises(IllegalAction, match="not in the hand"):
        state.play(COMPUTER, T("3-4"), End.RIGHT)
    placed = state.play(COMPUTER, T("2-5"), End.RIGHT)
    assert (placed.left, placed.right) == (2, 5) and state.ends == (1, 5)
    placed = state.play(MEMBER, T("0-1"), End.LEFT)
    assert (placed.left, placed.right) == (0, 1) and state.ends == (0, 5)
    check_invariants(state)


def test_drawing_takes_tiles_until_one_fits_and_only_when_none_does() -> None:
    state = HandState.start(
        _deal("6-6 0-1 0-2 0-3 0-4 0-5 1-1", "6-5 1-2 1-3 1-4 2-2 2-3 2-4", "3-3 4-4 5-5 6-1")
    )
    state.play(MEMBER, T("6-6"), End.LEFT)
    state.play(COMPUTER, T("6-5"), End.LEFT)  # ends 5 and 6
    with pytest.raises(IllegalAction, match="only when no tile fits"):
        state.draw(MEMBER)  # [0|5] fits
    state.play(MEMBER, T("0-5"), End.LEFT)  # ends 0 and 6
    assert state.can_draw(COMPUTER)
    assert state.draw(COMPUTER) == [T("3-3"), T("4-4"), T("5-5"), T("1-6")]
    assert state.lacks[COMPUTER] == {0, 6}
    state.play(COMPUTER, T("1-6"), End.RIGHT)
    assert state.lacks[COMPUTER] == {0}  # it showed a 6
    check_invariants(state)


def test_a_blocked_hand_is_won_on_pips_or_drawn_on_equal_pips() -> None:
    for member, computer, winner in (
        ("0-1", "0-2", MEMBER),
        ("1-3", "0-4", None),
        ("2-5", "1-1", COMPUTER),
    ):
        hands = ([T("6-6"), T(member)], [T(computer)])
        state = HandState(hands, [], MEMBER)
        state.play(MEMBER, T("6-6"), End.LEFT)
        assert state.result == Result(winner, Finish.BLOCKED, state.pips())


def test_passing_only_when_nothing_fits_and_the_boneyard_is_empty() -> None:
    state = HandState(([T("6-6"), T("1-2")], [T("0-6"), T("3-3")]), [T("4-4")], MEMBER)
    state.play(MEMBER, T("6-6"), End.LEFT)
    with pytest.raises(IllegalAction, match="passing is allowed only"):
        state.pass_turn(COMPUTER)
    state.play(COMPUTER, T("0-6"), End.LEFT)  # ends 0 and 6
    with pytest.raises(IllegalAction, match="passing is allowed only"):
        state.pass_turn(MEMBER)  # must draw first
    assert state.draw(MEMBER) == [T("4-4")]
    with pytest.raises(IllegalAction, match="only when no tile fits"):
        state.draw(MEMBER)  # the boneyard is empty
    state.pass_turn(MEMBER)  # then nobody can play: blocked, the lower total wins
    assert state.result == Result(COMPUTER, Finish.BLOCKED, (11, 6))


def test_a_time_out_plays_the_first_playable_tile_and_ends_the_turn() -> None:
    state = HandState.start(shuffled_deal(random.Random(26)))
    assert state.turn == MEMBER
    first = state.moves(MEMBER)[0]
    assert state.time_out(MEMBER) == Turn((), first)
    assert state.timeouts[MEMBER] == 1 and state.turn == COMPUTER
    check_invariants(state)


def test_a_time_out_with_nothing_playable_draws_until_a_tile_fits_and_plays_it() -> None:
    state = HandState.start(
        _deal("6-6 0-1 0-2 0-3 0-4 0-5 1-1", "6-5 1-2 1-3 1-4 2-2 2-3 2-4", "3-3 4-4 5-5 6-1")
    )
    state.play(MEMBER, T("6-6"), End.LEFT)
    state.play(COMPUTER, T("6-5"), End.LEFT)
    state.play(MEMBER, T("0-5"), End.LEFT)  # ends 0 and 6: nothing of the computer's fits
    automatic = state.time_out(COMPUTER)
    assert automatic == Turn((T("3-3"), T("4-4"), T("5-5"), T("1-6")), Move(T("1-6"), End.RIGHT))
    assert state.ends == (0, 1) and state.turn == MEMBER and state.timeouts[COMPUTER] == 1
    check_invariants(state)


def test_a_time_out_passes_when_the_boneyard_runs_out_before_a_tile_fits() -> None:
    state = HandState(([T("6-6"), T("1-2"), T("1-1")], [T("0-6"), T("3-3")]), [T("4-4")], MEMBER)
    state.play(MEMBER, T("6-6"), End.LEFT)
    state.play(COMPUTER, T("0-6"), End.LEFT)  # ends 0 and 6: the member has nothing
    assert state.time_out(MEMBER) == Turn((T("4-4"),), None)
    assert state.timeouts[MEMBER] == 1  # and nobody can play: blocked, the lower total wins
    assert state.result == Result(COMPUTER, Finish.BLOCKED, (13, 6))


def test_three_turns_in_a_row_timed_out_lose_the_hand_and_no_move_is_made() -> None:
    state = HandState.start(shuffled_deal(random.Random(26)))
    for count in (1, 2):
        assert state.time_out(MEMBER) is not None and state.timeouts[MEMBER] == count
        assert state.turn == COMPUTER  # a turn times out once at most
        take_turn(state, COMPUTER, lambda view: view.moves[0])
    hand = list(state.hands[MEMBER])
    assert state.time_out(MEMBER) is None and state.hands[MEMBER] == hand
    assert state.result == Result(COMPUTER, Finish.TIMEOUTS, state.pips())


def test_a_play_or_a_pass_ends_the_run_of_time_outs_but_a_draw_does_not() -> None:
    state = HandState.start(shuffled_deal(random.Random(26)))
    state.time_out(MEMBER)
    take_turn(state, COMPUTER, lambda view: view.moves[0])
    state.play(MEMBER, state.moves(MEMBER)[0].tile, state.moves(MEMBER)[0].end)
    assert state.timeouts[MEMBER] == 0
    drawing = HandState(([T("6-6"), T("1-2")], [T("0-6"), T("3-3")]), [T("4-4"), T("0-1")], MEMBER)
    drawing.play(MEMBER, T("6-6"), End.LEFT)
    drawing.play(COMPUTER, T("0-6"), End.LEFT)
    drawing.timeouts[MEMBER] = 1  # the member's previous turn timed out
    assert drawing.draw(MEMBER) == [T("4-4"), T("0-1")] and drawing.timeouts[MEMBER] == 1
    assert drawing.time_out(MEMBER) == Turn((), Move(T("0-1"), End.LEFT))
    assert drawing.timeouts[MEMBER] == 2  # drew in time, then let the clock run out


def test_the_ledger_moves_ten_dollars_and_knows_who_is_broke() -> None:
    ledger = Ledger.even(20)
    ledger.settle(Result(MEMBER, Finish.DOMINO, (0, 5)))
    ledger.settle(Result(None, Finish.BLOCKED, (4, 4)))
    assert ledger.bankrolls == [30, 10] and ledger.broke() is None
    ledger.settle(Result(MEMBER, Finish.BLOCKED, (1, 5)))
    assert ledger.broke() == COMPUTER and (ledger.won, ledger.drawn, ledger.net) == (2, 1, 20)


def test_a_tiles_file_stacks_deals_and_names_the_line_of_a_mistake() -> None:
    order = " ".join(f"{t.low}-{t.high}" for t in ALL_TILES)
    deals = parse_deals(f"# two deals\n3-3 2-4 6-6 0-0 / {order}\n\n1-2 0-0 / {order}\n")
    assert [d.opener for d in deals] == [MEMBER, MEMBER] and len(deals[0].draws) == 2
    for text, problem in (
        (f"6-6 0-0 {order}", "line 1: expected the opening draws"),
        (f"6-6 / {order}", "come in pairs"),
        (f"6-6 0-0 / {order} 1-1", "exactly once"),
        (f"3-3 2-4 / {order}", "only the last opening draw"),
        (f"6-6 6-6 / {order}", "two different tiles"),
        (f"6-6 0-0 / {order[:-4]} 9-9", "not a double-six tile"),
        ("# nothing\n", "no deal"),
    ):
        with pytest.raises(ParseError, match=problem):
            parse_deals(text)
