"""The computer players: what they exchange, what a hand is worth, when they call."""

from __future__ import annotations

import random

import pytest

from casino.draw.contest import contest
from casino.draw.rules import Table, Tiebreak
from casino.draw.strategy import (
    FINAL_SHARE,
    AlwaysBet,
    RandomPlayer,
    Strategy,
    choose_discards,
    draw_kind,
    equity,
    final_equity,
    measure_final_shares,
)

from .helpers import cards, deck_of


@pytest.mark.parametrize(
    ("hand", "discards"),
    [
        ("5H 6C 7D 8S 9H", []),  # a straight stands pat
        ("2S 7S 9S JS KS", []),  # a flush
        ("QH QD 7D QC 7H", []),  # a full house
        ("3C 3H 3S 9D KH", [3, 4]),  # trips: the two others
        ("3C 2C 3H 2S TD", [4]),  # two pair: the kicker
        ("7H 5C 9S 7S QS", [1, 2, 4]),  # a pair: the three others
        ("2H 9H 5H KH 8C", [4]),  # four to a flush: the odd suit
        ("5C 6D 7H 8S KC", [4]),  # four in a row open at both ends
        ("TC JD QH KS 3C", [4]),  # 10 J Q K is open (9 or ace)
        ("AC 2D 3H 4S 9C", [1, 2, 3]),  # A 2 3 4 is not: keep the two highest (ace, nine)
        ("JC QD KH AS 3C", [0, 1, 4]),  # J Q K A is not either
        ("3D 8D QH 4D 9C", [0, 1, 3]),  # nothing: keep the queen and the nine
    ],
)
def test_choose_discards_follows_the_rules_in_order(hand: str, discards: list[int]) -> None:
    assert choose_discards(cards(hand)) == discards


def test_a_pair_beats_a_flush_draw_in_what_is_kept() -> None:
    assert draw_kind(cards("2H 2S 5H KH 8H")) == "pair"
    assert choose_discards(cards("2H 2S 5H KH 8H")) == [2, 3, 4]


def test_equity_grows_with_the_hand() -> None:
    hands = [
        "2C 4D 6H 8S 9C",
        "2C 4D 6H 8S AC",
        "2C 2D 6H 8S 9C",
        "AC AD 6H 8S 9C",
        "3C 3H 2S 2D TD",
        "3C 3H 3S 9D KH",
        "5H 6C 7D 8S 9H",
        "2S 7S 9S JS KS",
        "QH QD 7D QC 7H",
        "QH QD QS QC 7H",
        "5H 6H 7H 8H 9H",
    ]
    values = [final_equity(cards(hand)) for hand in hands]
    assert values == sorted(values)
    assert values[0] > 0 and values[-1] <= 1


def test_before_the_exchange_a_draw_is_worth_more_than_what_it_is() -> None:
    flush_draw = cards("2H 9H 5H KH 8C")
    assert equity(flush_draw, drawn=False) > equity(flush_draw, drawn=True)
    made = cards("5H 6C 7D 8S 9H")
    assert equity(made, drawn=False) == equity(made, drawn=True)


def player_2(hand: str, bet: int, players: int = 2) -> bool:
    """Whether casino's Player_2 holding ``hand`` calls Player_1's opening ``bet``."""
    others = ["2D 6H 8H JH 3S", "4C 7C 9D JS KD", "2S 5S 8D TD QC", "3D 6D 9H QD KC"]
    table = Table(players, deck_of(others[0], hand, *others[1 : players - 1]))
    table.open(bet)
    return Strategy().calls(table, 1)


def test_strong_hands_call_and_weak_ones_fold() -> None:
    assert player_2("3C 3H 3S 9D KH", 100)
    assert not player_2("2C 4D 6H 8S 7C", 100)


def test_a_bet_large_for_the_bank_needs_a_better_hand() -> None:
    assert player_2("AC AD 6H 8S 9C", 10)
    assert not player_2("AC AD 6H 8S 9C", 900)


def test_more_opponents_need_a_better_hand() -> None:
    assert player_2("8C 8D 6H 2S KC", 100, players=2)
    assert not player_2("8C 8D 6H 2S KC", 100, players=5)


def test_the_benchmark_opponents_do_what_they_say() -> None:
    table = Table(2, deck_of("2D 6H 8H JH 3S", "2C 4D 6H 8S 7C"))
    table.open(999)
    assert AlwaysBet().calls(table, 1)
    rng = random.Random(1)
    player = RandomPlayer(rng)
    answers = {player.calls(table, 1) for _ in range(50)}
    assert answers == {True, False}
    for _ in range(50):
        discards = player.discards(cards("2C 4D 6H 8S 7C"))
        assert len(discards) <= 3 and discards == sorted(set(discards))


@pytest.mark.parametrize("tiebreak", list(Tiebreak))
def test_casino_finishes_with_more_chips_than_always_bet_and_random(tiebreak: Tiebreak) -> None:
    records = contest(600, seed=11, tiebreak=tiebreak)
    assert records["casino"].net > records["always-bet"].net
    assert records["casino"].net > records["random"].net
    assert (
        sum(record.net for record in records.values()) == 0
    )  # Player_1 never folds: no pot is left


def test_the_final_shares_are_what_the_discard_rules_give() -> None:
    measured = measure_final_shares(4000, random.Random(3))
    assert sum(FINAL_SHARE.values()) == pytest.approx(1, abs=1e-4)
    for category, share in FINAL_SHARE.items():
        assert measured[category] == pytest.approx(share, abs=0.025), category
