"""Who acts first and how a pot is shared."""

from __future__ import annotations

from casino.cards import Card
from casino.stud.rules import first_to_act, rotation, settle


def hand(text: str) -> list[Card]:
    return [Card.parse(token) for token in text.split()]


def test_first_to_act_highest_up_card_then_best_showing() -> None:
    assert first_to_act({0: hand("10D"), 1: hand("AH"), 2: hand("AS")}) == 2
    assert first_to_act({0: hand("AS KD"), 1: hand("3C 3D")}) == 1
    assert rotation([0, 1, 2, 3], 2) == [2, 3, 0, 1]


def test_half_the_pot_to_the_highest_spade_odd_chip_to_the_hand() -> None:
    result = settle(25, {0: hand("KS 2D 3C"), 1: hand("4H 9D 9C"), 2: hand("QS 5D 6C")}, [0, 1, 2])
    assert result.winners == (1,)
    assert result.spade == 0
    assert result.payouts == {1: 13, 0: 12}


def test_no_spade_in_any_hole_the_hand_takes_all() -> None:
    result = settle(9, {0: hand("KH 2D 3C"), 1: hand("4H 9D 9C")}, [0, 1])
    assert result.spade is None
    assert result.payouts == {1: 9}


def test_same_player_wins_both_halves() -> None:
    assert settle(7, {0: hand("AS AD 3C"), 1: hand("4S 9D 8C")}, [0, 1]).payouts == {0: 7}


def test_tied_hands_split_and_the_odd_chip_goes_in_order() -> None:
    result = settle(11, {0: hand("KH KD 3C"), 1: hand("KS KC 3H"), 2: hand("2H 4D 6C")}, [1, 2, 0])
    assert result.winners == (1, 0)
    # 5 to the spade (seat 1's KS), 6 shared by the tied hands 3 + 3
    assert result.payouts == {1: 8, 0: 3}


def test_chips_always_conserved() -> None:
    hands = {0: hand("KH KD 3C"), 1: hand("KC KS 3H"), 2: hand("QS 4D 6C")}
    for pot in range(0, 60):
        assert sum(settle(pot, hands, [2, 0, 1]).payouts.values()) == pot
