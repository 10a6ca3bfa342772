"""The rules of one hand, case by case: blinds, order, raises, short all-ins, pots, splits."""

from __future__ import annotations

import random

import pytest

from casino.cards import parse_cards
from casino.errors import IllegalAction
from casino.holdem.engine import Hand, Kind, Refused, Street
from casino.holdem.rules import Rules
from casino.holdem.table import Seat, Table


def deck(text: str) -> list[int]:
    """A deck whose top is ``text`` (dealing order), then every other card."""
    top = [card.index for card in parse_cards(text)]
    return top + [card for card in range(52) if card not in top]


def test_heads_up_the_button_posts_the_small_blind_and_acts_first() -> None:
    hand = Hand.deal([1000, 1000], 1, (5, 10), deck(""))
    assert hand.bets == [10, 5]
    assert hand.to_act == 1
    hand.call()
    hand.check()
    assert hand.street is Street.FLOP
    assert hand.to_act == 0  # after the flop the big blind acts first


def test_three_handed_blinds_follow_the_button_and_utg_opens() -> None:
    hand = Hand.deal([100, 100, 100, 0], 2, (5, 10), deck(""))
    assert hand.bets == [5, 10, 0, 0]
    assert hand.to_act == 2
    assert hand.folded[3]  # an empty seat is not dealt in


def test_hole_cards_are_dealt_one_at_a_time_from_the_seat_after_the_button() -> None:
    hand = Hand.deal([100, 100, 100], 0, (5, 10), deck("2C 3C 4C 5C 6C 7C"))
    assert hand.hole[1] == [card.index for card in parse_cards("2C 5C")]
    assert hand.hole[2] == [card.index for card in parse_cards("3C 6C")]
    assert hand.hole[0] == [card.index for card in parse_cards("4C 7C")]


def test_the_minimum_raise_is_the_last_raise_size() -> None:
    hand = Hand.deal([1000, 1000, 1000], 0, (5, 10), deck(""))
    hand.bet_or_raise(40)  # a raise of 30
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (70, 1000)
    with pytest.raises(Refused, match="the minimum is 70"):
        hand.bet_or_raise(69)
    assert not hand.can_bet_or_raise(69)
    assert hand.can_bet_or_raise(70)


def test_a_short_all_in_does_not_reopen_the_betting() -> None:
    hand = Hand.deal([1000, 1000, 60], 2, (5, 10), deck(""))
    # seat 2 (button) acts first three-handed; seat 0 small blind, seat 1 big blind
    hand.bet_or_raise(50)  # button raises to 50 (a raise of 40)
    hand.call()  # small blind calls
    hand.all_in()  # big blind all-in for 60: only 10 more, a short raise
    assert hand.actions[-1].kind is Kind.RAISE and hand.actions[-1].all_in
    assert hand.to_act == 2
    assert not hand.can_bet_or_raise()
    with pytest.raises(Refused, match="cannot raise"):
        hand.bet_or_raise(200)
    assert hand.legal().call == 10


def test_checking_into_a_bet_is_refused_with_the_reason_and_a_free_fold_is_allowed() -> None:
    hand = Hand.deal([1000, 1000], 0, (5, 10), deck(""))
    with pytest.raises(Refused, match="cannot check: 5 to call"):
        hand.check()
    hand.call()
    assert hand.legal().can_check and hand.can_fold()
    with pytest.raises(Refused, match="nothing to call"):
        hand.call()
    folded = hand.fold()  # the big blind folds although the check is free: the seed allows it
    assert folded.kind is Kind.FOLD and hand.over
    assert hand.stacks == [1010, 990]  # the button wins the big blind's 10


def test_the_first_to_act_on_the_flop_may_check_raise_or_fold() -> None:
    hand = Hand.deal([1000, 1000, 1000], 0, (5, 10), deck(""))
    hand.call()  # the button
    hand.call()  # the small blind
    hand.check()  # the big blind
    assert (hand.street, hand.to_act) == (Street.FLOP, 1)
    legal = hand.legal()
    assert legal.can_check and legal.can_bet_or_raise and hand.can_fold()
    hand.fold()  # "pasar, subir o retirarse"
    hand.check()
    hand.check()
    assert (hand.street, hand.folded[1], hand.pot_total()) == (Street.TURN, True, 30)


def test_side_pots_go_to_the_best_hand_among_their_players() -> None:
    # seat 1 (short) has aces, seat 2 kings, seat 0 deuce-trey
    cards = deck("2D AS KC 3D AH KD 8S 9S TH 4C 6H")
    hand = Hand.deal([1000, 100, 500], 2, (5, 10), cards)
    hand.all_in()  # button (seat 2) 500
    hand.all_in()  # small blind (seat 0): nobody left to raise against, so a call of 500
    assert hand.actions[-1].kind is Kind.CALL and hand.actions[-1].paid == 495
    hand.all_in()  # big blind (seat 1) 100
    assert hand.over
    pots = [(award.amount, award.winners) for award in hand.awards]
    assert pots == [(300, (1,)), (800, (2,))]
    assert hand.stacks == [500, 300, 800]
    assert sum(hand.stacks) == 1600


def test_a_split_gives_the_odd_chip_to_the_first_winner_after_the_button() -> None:
    table = Table([Seat("a", 1000), Seat("b", 1000), Seat("c", 1000)], Rules(5, 10))
    table.button = 2  # the next hand's button is seat 0
    hand = table.start_hand(deck("2C 2D 3C 3D 4C 4D TS JS QS KS AS"))
    assert hand.button == 0
    hand.call()  # seat 0 (button) calls 10
    hand.fold()  # seat 1 (small blind) folds 5
    hand.check()  # seat 2 (big blind)
    while not hand.over:
        hand.check()
    (award,) = hand.awards
    assert award.amount == 25 and award.winners == (2, 0) and award.shares == (13, 12)


def test_busted_players_leave_and_the_button_skips_them() -> None:
    table = Table([Seat("a", 10), Seat("b", 1000), Seat("c", 1000)], Rules(5, 10))
    hand = table.start_hand(deck("KC AC 2C KD AD 3D 7H 8H 9S 4C 5S"))
    assert hand.button == 0
    hand.all_in()  # a: all-in for 10 with 2-3
    hand.call()
    hand.check()
    while not hand.over:
        hand.check()
    table.settle()
    assert not table.seats[0].playing
    hand = table.start_hand(deck(""))
    assert hand.button == 1 and hand.starting[0] == 0 and hand.folded[0]


def test_nobody_acts_when_the_hand_is_over() -> None:
    hand = Hand.deal([1000, 1000], 0, (5, 10), deck(""))
    hand.fold()
    assert hand.over and hand.stacks == [995, 1005]
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.check()


def test_a_table_is_saved_and_restored_as_json_data() -> None:
    table = Table([Seat("a", 300), Seat("b", 700)], Rules(5, 10))
    hand = table.start_hand(deck(""))
    hand.call()
    copy = Table.from_dict(table.to_dict())
    assert copy.to_dict() == table.to_dict()
    assert copy.hand is not None and copy.hand.to_act == hand.to_act


def test_random_hands_never_lose_a_chip() -> None:
    from .oracle import random_hand

    rng = random.Random(99)
    for _ in range(300):
        hand = random_hand(rng, rng.randint(2, 9))
        assert sum(hand.stacks) == sum(hand.starting)
