"""The machine: bets, deals, holds, payouts and the credit, on stacked cards."""

from __future__ import annotations

import random

import pytest

from casino.cards import parse_cards
from casino.errors import DeckExhausted
from casino.videopoker.game import (
    BadAmount,
    BadPositions,
    DuplicateCard,
    Machine,
    Phase,
    ShuffledCards,
    StackedCards,
    WrongMoment,
)
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, PayLine


def machine(cards: str, credit: int = 100) -> Machine:
    return Machine(credit, StackedCards(parse_cards(cards)))


def test_bet_defaults_to_five_then_repeats_the_last_bet() -> None:
    m = machine("")
    assert m.place_bet() == 5
    assert m.place_bet(2) == 2
    assert m.place_bet() == 2


@pytest.mark.parametrize("amount", [0, 6, -1, 101])
def test_bets_outside_one_to_five_or_above_the_credit_are_refused(amount: int) -> None:
    m = machine("", credit=100 if amount != 101 else 3)
    with pytest.raises(BadAmount):
        m.place_bet(amount if amount != 101 else 4)
    assert m.bet == 5 and m.credit == (100 if amount != 101 else 3)


def test_the_bet_leaves_the_credit_at_the_deal_and_payouts_include_it() -> None:
    m = machine("JC JD 4D 7D 9D 2S 3S 5S")
    m.place_bet(3)
    assert m.credit == 100
    assert m.deal() == tuple(parse_cards("JC JD 4D 7D 9D"))
    assert m.credit == 97 and m.phase is Phase.DRAWING
    outcome = m.hold([0, 1])
    assert outcome.hand == tuple(parse_cards("JC JD 2S 3S 5S"))
    assert outcome.line is PayLine.JACKS_OR_BETTER and outcome.payout == 3 and outcome.won
    assert m.credit == 100 == outcome.credit


def test_discarded_positions_are_refilled_left_to_right() -> None:
    m = machine("2H KH 2S JS 6D JH TC 9H")
    m.deal()
    outcome = m.hold([2, 0])
    assert outcome.hand == tuple(parse_cards("2H JH 2S TC 9H"))
    assert not outcome.won and m.credit == 95


def test_commands_at_the_wrong_moment_change_nothing() -> None:
    m = machine("2H KH 2S JS 6D JH TC 9H")
    with pytest.raises(WrongMoment):
        m.hold([])
    m.deal()
    for act in (m.deal, m.place_bet, lambda: m.place_bet(1)):
        with pytest.raises(WrongMoment):
            act()
    assert m.credit == 95 and m.phase is Phase.DRAWING and m.bet == 5


# casino_choice: a position out of range or twice is refused, the hand kept (seed
# videopoker-double-bonus.txt line 241: "a similar warning", not which holds are illegal).
@pytest.mark.casino_choice
def test_a_hold_of_bad_positions_changes_nothing() -> None:
    m = machine("2H KH 2S JS 6D JH TC 9H")
    m.deal()
    with pytest.raises(BadPositions):
        m.hold([5])
    with pytest.raises(BadPositions):
        m.hold([1, 1])
    assert m.credit == 95 and m.phase is Phase.DRAWING and m.bet == 5


def test_a_deal_needs_credit_for_the_bet() -> None:
    m = machine("2H KH 2S JS 6D", credit=4)
    with pytest.raises(WrongMoment):
        m.deal()
    m.place_bet(4)
    m.deal()
    assert m.credit == 0


def test_a_card_file_that_runs_out_or_repeats_a_card_is_reported() -> None:
    with pytest.raises(DeckExhausted):
        machine("2H KH 2S").deal()
    with pytest.raises(DuplicateCard):
        machine("2H KH 2S 2H 3C").deal()
    m = machine("2H KH 2S JS 6D 2H")
    m.deal()
    with pytest.raises(DuplicateCard):
        m.hold([0, 1, 2, 3])
    assert m.phase is Phase.DRAWING and m.credit == 95


def test_a_card_file_may_give_back_a_discarded_card() -> None:
    m = machine("2H KH 2S JS 6D KH")
    m.deal()
    assert m.hold([0, 2, 3, 4]).hand == tuple(parse_cards("2H KH 2S JS 6D"))


PAYS = {  # the seed's pay table, per credit bet; the royal flush pays 4000 at five credits
    PayLine.ROYAL_FLUSH: ("AS KS QS JS TS", 250),
    PayLine.STRAIGHT_FLUSH: ("9H 8H 7H 6H 5H", 50),
    PayLine.FOUR_ACES: ("AS AH AD AC 2C", 160),
    PayLine.FOUR_2_4: ("3S 3H 3D 3C KC", 80),
    PayLine.FOUR_5_K: ("KS KH KD KC 3C", 50),
    PayLine.FULL_HOUSE: ("KS KH KD 3D 3C", 10),
    PayLine.FLUSH: ("2D 5D 9D JD KD", 7),
    PayLine.STRAIGHT: ("AS 2H 3D 4C 5C", 5),
    PayLine.THREE_OF_A_KIND: ("7S 7H 7D 3D 2C", 3),
    PayLine.TWO_PAIR: ("7S 7H 3D 3C 2C", 1),
    PayLine.JACKS_OR_BETTER: ("QS QH 3D 4C 2C", 1),
    PayLine.NOTHING: ("TS TH 3D 4C 2C", 0),
}


@pytest.mark.parametrize("bet", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("line", list(PayLine))
def test_every_pay_line_at_every_bet(line: PayLine, bet: int) -> None:
    cards, per_credit = PAYS[line]
    m = machine(cards, credit=10)
    m.place_bet(bet)
    m.deal()
    outcome = m.hold(range(5))
    expected = 4000 if line is PayLine.ROYAL_FLUSH and bet == 5 else per_credit * bet
    assert outcome.line is line
    assert outcome.payout == expected == DOUBLE_BONUS_10_7.payout(line, bet)
    assert m.credit == 10 - bet + expected
    assert m.stats.counts[line] == 1 and m.stats.credit == m.credit


def test_shuffled_cards_give_a_fresh_deck_each_hand_and_follow_the_seed() -> None:
    def session(seed: int) -> list[str]:
        m = Machine(1000, ShuffledCards(random.Random(seed)))
        out = []
        for _ in range(30):
            out.append(str(m.deal()))
            out.append(str(m.hold([]).hand))
        return out

    assert session(4) == session(4) != session(5)
