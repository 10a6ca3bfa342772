"""The sit-and-go's pure rules: the blind schedule by hands played, the places, the prizes."""

from __future__ import annotations

import pytest

from casino.errors import IllegalAction, ParseError
from casino.holdem.rules import Rules
from casino.holdem.tournament import (
    DEFAULT_SCHEDULE,
    PAYOUTS,
    Schedule,
    Standings,
    prizes,
    shares_for,
)


def test_the_blinds_rise_every_n_hands_and_stay_at_the_last_level() -> None:
    schedule = Schedule((Rules(10, 20), Rules(15, 30), Rules(25, 50, 5)), hands_per_level=3)
    seen = [str(schedule.rules(hand)) for hand in range(11)]
    assert seen == ["10/20"] * 3 + ["15/30"] * 3 + ["25/50/5"] * 5
    assert [schedule.level(hand) for hand in (0, 2, 3, 5, 6, 1000)] == [0, 0, 1, 1, 2, 2]


def test_the_default_schedule_starts_at_ten_twenty_and_only_rises() -> None:
    assert DEFAULT_SCHEDULE.rules(0) == Rules(10, 20)
    assert DEFAULT_SCHEDULE.rules(9) == Rules(10, 20)
    assert DEFAULT_SCHEDULE.rules(10) == Rules(15, 30)
    bigs = [rules.big_blind for rules in DEFAULT_SCHEDULE.levels]
    assert bigs == sorted(set(bigs))


@pytest.mark.parametrize("levels, hands", [((), 1), ((Rules(1, 2),), 0), ((Rules(1, 2),), -3)])
def test_a_schedule_without_levels_or_with_empty_levels_is_refused(
    levels: tuple[Rules, ...], hands: int
) -> None:
    with pytest.raises(ParseError):
        Schedule(levels, hands)


def test_hands_played_are_never_negative() -> None:
    with pytest.raises(ParseError):
        DEFAULT_SCHEDULE.level(-1)


@pytest.mark.parametrize(
    "pool, shares, split",
    [
        (400, (65, 35), (260, 140)),
        (401, (65, 35), (261, 140)),  # 260.65 + 140.35: the dollar left over to the first
        (399, (65, 35), (260, 139)),  # 259.35 + 139.65 = 398: the remainder 1 to the first
        (7, (50, 30, 20), (4, 2, 1)),
        (0, (65, 35), (0, 0)),
        (1000, (100,), (1000,)),
    ],
)
def test_the_prizes_are_whole_dollars_that_add_up_to_the_pool(
    pool: int, shares: tuple[int, ...], split: tuple[int, ...]
) -> None:
    assert prizes(pool, shares) == split
    assert sum(split) == pool


def test_every_split_of_every_pool_adds_up_and_keeps_the_order() -> None:
    for pool in range(0, 2000, 7):
        for shares in set(PAYOUTS.values()):
            split = prizes(pool, shares)
            assert sum(split) == pool
            assert list(split) == sorted(split, reverse=True)


@pytest.mark.parametrize("shares", [(), (60, 30), (110, -10), (0, 100)])
def test_shares_that_do_not_add_up_to_a_hundred_are_refused(shares: tuple[int, ...]) -> None:
    with pytest.raises(ParseError):
        prizes(100, shares)


def test_a_negative_pool_and_an_unknown_table_size_are_refused() -> None:
    with pytest.raises(ParseError):
        prizes(-1, (100,))
    with pytest.raises(ParseError):
        shares_for(9)
    with pytest.raises(ParseError):
        Standings(1)
    assert shares_for(4) == (65, 35)


def test_the_first_out_finishes_last_and_the_last_left_wins() -> None:
    standings = Standings(4)
    assert standings.after_hand([500, 500, 500, 500], [900, 100, 500, 500]) == []
    assert standings.after_hand([900, 100, 500, 500], [1000, 0, 500, 500]) == [1]
    assert standings.places == {1: 4}
    assert standings.left == [0, 2, 3]
    assert standings.after_hand([1000, 0, 500, 500], [1500, 0, 0, 500]) == [2]
    assert not standings.over
    assert standings.after_hand([1500, 0, 0, 500], [0, 0, 0, 2000]) == [0]
    assert standings.over
    assert standings.by_place() == [3, 0, 2, 1]
    assert standings.payouts(400) == {3: 260, 0: 140}


def test_two_out_in_one_hand_are_placed_by_their_stacks_then_by_seat() -> None:
    standings = Standings(4)
    assert standings.after_hand([300, 700, 500, 500], [1500, 0, 0, 500]) == [1, 2]
    assert standings.places == {1: 3, 2: 4}
    tied = Standings(4)
    assert tied.after_hand([500, 500, 500, 500], [0, 2000, 0, 0]) == [0, 2, 3]
    assert tied.places == {0: 2, 2: 3, 3: 4, 1: 1}
    assert tied.payouts(400) == {1: 260, 0: 140}


def test_standings_refuse_wrong_stacks_everybody_out_and_an_early_payout() -> None:
    standings = Standings(3)
    with pytest.raises(IllegalAction):
        standings.after_hand([1, 2], [1, 2])
    with pytest.raises(IllegalAction):
        standings.after_hand([1, 1, 1], [0, 0, 0])
    with pytest.raises(IllegalAction):
        standings.payouts(300)
