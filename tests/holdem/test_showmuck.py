"""Show or muck at the end of a hand: the order, who must show, who may muck, the defaults."""

from __future__ import annotations

import pytest

from casino.cards import parse_cards
from casino.errors import IllegalAction
from casino.holdem.engine import Hand, Refused
from casino.holdem.showmuck import Choice, Reveal, Showdown, last_aggressor

from .test_engine import deck

# Dealt from seat 1 (the button is 0): seat 1 aces, seat 2 kings, seat 0 seven-deuce.
STACKED = "AS KS 2C AH KH 7D 3D 8S 9C JD 4H"


def cards(text: str) -> tuple[int, ...]:
    """Card indices of ``text``."""
    return tuple(card.index for card in parse_cards(text))


def to_the_river(bet_on_river: bool) -> Hand:
    """Three players check it down to the river; there seat 2 bets 20 (if ``bet_on_river``)
    and both others call, or all three check."""
    hand = Hand.deal([1000, 1000, 1000], 0, (5, 10), deck(STACKED))
    hand.call()  # seat 0
    hand.call()  # seat 1 (small blind)
    hand.check()  # seat 2 (big blind)
    for _ in range(6):  # flop and turn checked through
        hand.check()
    hand.check()  # seat 1
    if bet_on_river:
        hand.bet_or_raise(20)  # seat 2
        hand.call()  # seat 0
        hand.call()  # seat 1
    else:
        hand.check()
        hand.check()
    assert hand.over
    return hand


def test_the_last_aggressor_shows_first_and_a_beaten_loser_may_muck() -> None:
    hand = to_the_river(bet_on_river=True)
    before = hand.to_dict()
    showdown = Showdown(hand)
    assert last_aggressor(hand) == 2
    assert showdown.order == [2, 0, 1]
    # seat 2 shows first and has no choice: nothing shown beats it yet
    assert showdown.reveals == [Reveal(2, Choice.SHOW, cards("KS KH"), True)]
    assert showdown.to_choose == 0
    assert showdown.can_muck() and showdown.can_show()
    assert showdown.muck() == Reveal(0, Choice.MUCK, (), False)
    # the winner must show: shown at once, and everything is decided
    assert showdown.reveals[-1] == Reveal(1, Choice.SHOW, cards("AS AH"), True)
    assert showdown.over and showdown.to_choose is None
    assert showdown.shown == [2, 1]
    assert hand.to_dict() == before  # never a chip moved


def test_a_round_checked_through_shows_from_the_button_and_nobody_may_muck_a_winner() -> None:
    hand = to_the_river(bet_on_river=False)
    showdown = Showdown(hand)
    assert last_aggressor(hand) is None
    assert showdown.order == [1, 2, 0]
    assert showdown.reveals == [Reveal(1, Choice.SHOW, cards("AS AH"), True)]
    assert showdown.to_choose == 2
    assert showdown.show() == Reveal(2, Choice.SHOW, cards("KS KH"), False)
    assert showdown.to_choose == 0
    assert showdown.default() == Reveal(0, Choice.MUCK, (), False)
    assert showdown.over
    with pytest.raises(Refused, match="nobody is to show or muck"):
        showdown.show()
    assert not showdown.can_show() and not showdown.can_muck()


def test_a_loser_nobody_has_beaten_yet_must_show() -> None:
    hand = to_the_river(bet_on_river=False)
    showdown = Showdown(hand)
    assert showdown.must_show(1)  # the winner
    assert not showdown.must_show(0)  # the aces are shown: seven-deuce is beaten


def test_an_uncontested_winner_may_show_or_not_and_does_not_by_default() -> None:
    hand = Hand.deal([1000, 1000, 1000], 0, (5, 10), deck(STACKED))
    hand.bet_or_raise(30)  # seat 0
    hand.fold()
    hand.fold()
    showdown = Showdown(hand)
    assert showdown.uncontested and showdown.order == [0] and showdown.reveals == []
    assert showdown.to_choose == 0 and not showdown.must_show(0)
    assert showdown.default() == Reveal(0, Choice.MUCK, (), False)
    again = Showdown(hand)
    assert again.show() == Reveal(0, Choice.SHOW, cards("2C 7D"), False)
    assert again.shown == [0]


def test_an_all_in_showdown_shows_every_hand_with_no_choice() -> None:
    hand = Hand.deal([100, 100], 0, (5, 10), deck("AS KS AH KH 3D 8S 9C JD 4H"))
    hand.all_in()
    hand.call()
    showdown = Showdown(hand)
    assert showdown.all_in and showdown.over
    assert [(r.seat, r.choice, r.forced) for r in showdown.reveals] == [
        (0, Choice.SHOW, True),  # the button raised all-in: the last aggressor
        (1, Choice.SHOW, True),
    ]
    with pytest.raises(Refused, match="nobody is to show or muck"):
        showdown.muck()


def test_a_hand_still_being_played_has_no_showdown_and_a_forced_show_cannot_be_mucked() -> None:
    hand = Hand.deal([1000, 1000, 1000], 0, (5, 10), deck(STACKED))
    with pytest.raises(IllegalAction, match="the hand is not over"):
        Showdown(hand)
    river = to_the_river(bet_on_river=True)
    showdown = Showdown(river)
    showdown.reveals.clear()  # back to seat 2's turn, which must show
    with pytest.raises(Refused, match="cannot muck: your hand must be shown"):
        showdown.muck()
