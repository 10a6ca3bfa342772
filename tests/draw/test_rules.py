"""The table: turns, bets, folds, exchanges and the showdown, by the seed's rules."""

from __future__ import annotations

import pytest

from casino.cards import Category, Deck
from casino.draw.rules import (
    Bet,
    Exchange,
    Fold,
    Phase,
    Table,
    Tiebreak,
    split_pot,
)
from casino.errors import DeckExhausted, IllegalAction

from .helpers import cards, deck_of

PAIR_OF_FIVES = "5H 5D 2C 8S JD"
PAIR_OF_KINGS = "KH KS 3D 9C 7H"
NOTHING = "AC TS 4D 3H 6C"


def three_players(*banks: int) -> Table:
    return Table(3, deck_of(PAIR_OF_FIVES, PAIR_OF_KINGS, NOTHING), banks)


def test_each_player_is_dealt_five_cards_in_turn_from_the_top() -> None:
    table = three_players()
    assert [seat.name for seat in table.seats] == ["Player_1", "Player_2", "Player_3"]
    assert [seat.hand for seat in table.seats] == [
        cards(PAIR_OF_FIVES),
        cards(PAIR_OF_KINGS),
        cards(NOTHING),
    ]
    assert [seat.bank for seat in table.seats] == [1000, 1000, 1000]
    assert (table.phase, table.to_act, table.pot) == (Phase.FIRST_BET, 0, 0)


def test_player_1_names_the_bet_and_the_others_match_it() -> None:
    table = three_players()
    assert table.open(100) == Bet(0, "Player_1", tuple(cards(PAIR_OF_FIVES)), 100, 100, 900)
    assert table.call(1) == Bet(1, "Player_2", tuple(cards(PAIR_OF_KINGS)), 100, 200, 900)
    assert table.fold(2) == Fold(2, "Player_3", 1000)
    assert (table.phase, table.active(), table.pot, table.chips) == (
        Phase.EXCHANGE,
        [0, 1],
        200,
        3000,
    )


@pytest.mark.parametrize("amount", [0, -1, 1001])
def test_a_bet_outside_1_to_what_player_1_has_is_refused(amount: int) -> None:
    table = three_players()
    with pytest.raises(IllegalAction, match=f"{amount} not between 1 and 1000"):
        table.open(amount)
    assert not table.can_open(amount)
    assert (table.pot, table.seats[0].bank) == (0, 1000)


def test_only_the_player_whose_turn_it_is_acts() -> None:
    table = three_players()
    with pytest.raises(IllegalAction, match="Player_1's turn"):
        table.fold(1)
    table.open(10)
    with pytest.raises(IllegalAction, match="Player_2's turn"):
        table.call(2)
    with pytest.raises(IllegalAction, match="not during the first betting round"):
        table.exchange(1, [])
    with pytest.raises(IllegalAction, match="not during the first betting round"):
        table.showdown()


def test_a_player_who_cannot_cover_the_bet_can_only_fold() -> None:
    table = three_players(1000, 50)
    table.open(100)
    assert not table.can_call(1)
    with pytest.raises(IllegalAction, match="Player_2 cannot cover 100"):
        table.call(1)
    assert table.fold(1).left == 50


def test_player_1_folding_ends_the_game_with_no_winner_and_the_pot_stays() -> None:
    table = three_players()
    table.open(100)
    table.call(1)
    table.call(2)
    for seat in range(3):
        table.exchange(seat, [])
    table.fold(0)
    assert (table.phase, table.to_act, table.pot, table.chips) == (Phase.OVER, None, 300, 3000)
    with pytest.raises(IllegalAction):
        table.showdown()


def test_an_exchange_keeps_the_order_and_appends_cards_never_seen() -> None:
    table = Table(2, deck_of("7H 5C 9S 7S QS", "2D 6H 8H JH 3S", "7D TH QC"))
    table.open(1)
    table.call(1)
    assert table.exchange(0, [1, 0]) == Exchange(0, "Player_1", 2, tuple(cards("9S 7S QS 7D TH")))
    assert table.exchange(1, [4]).hand == tuple(cards("2D 6H 8H JH QC"))
    assert len(table.dealt) == len(set(table.dealt)) == 13
    assert table.phase is Phase.SECOND_BET


@pytest.mark.parametrize(
    ("positions", "reason"),
    [([0, 1, 2, 3], "at most 3"), ([1, 1], "at most 3 different"), ([5], "positions are 1 to 5")],
)
def test_an_exchange_takes_up_to_three_different_positions(
    positions: list[int], reason: str
) -> None:
    table = three_players()
    table.open(1)
    table.fold(1)
    table.fold(2)
    with pytest.raises(IllegalAction, match=reason):
        table.exchange(0, positions)
    assert table.seats[0].hand == cards(PAIR_OF_FIVES)


def play_to_showdown(table: Table) -> None:
    for _ in range(2):
        table.open(100)
        for seat in table.active()[1:]:
            table.call(seat)
        if table.phase is Phase.EXCHANGE:
            for seat in table.active():
                table.exchange(seat, [])


def test_by_default_the_first_player_with_the_best_rank_wins() -> None:
    table = three_players()
    play_to_showdown(table)
    result = table.showdown()
    assert [h.category for h in result.holdings] == [
        Category.ONE_PAIR,
        Category.ONE_PAIR,
        Category.HIGH_CARD,
    ]
    assert [h.name for h in result.winners] == ["Player_1"]
    assert ([s.bank for s in table.seats], table.pot) == ([1400, 800, 800], 0)


def test_with_kickers_the_higher_pair_wins() -> None:
    table = three_players()
    play_to_showdown(table)
    result = table.showdown(Tiebreak.KICKERS)
    assert [h.name for h in result.winners] == ["Player_2"]
    assert table.seats[1].bank == 1400


def test_an_exact_tie_with_kickers_splits_the_pot_odd_chip_first() -> None:
    table = Table(3, deck_of("5H 6C 7D 8S 9H", "JH JS 2D 4C KD", "5D 6S 7C 8H 9C"))
    table.open(101)
    table.call(1)
    table.call(2)
    for seat in range(3):
        table.exchange(seat, [])
    table.open(100)
    table.call(1)
    table.call(2)
    result = table.showdown(Tiebreak.KICKERS)
    assert [h.name for h in result.winners] == ["Player_1", "Player_3"]
    assert result.shares == (302, 301)
    assert [s.bank for s in table.seats] == [1101, 799, 1100]
    assert table.chips == 3000


def test_with_nothing_left_player_1_skips_the_second_betting_round() -> None:
    table = three_players()
    table.open(1000)
    table.call(1)
    table.fold(2)
    table.exchange(0, [])
    table.exchange(1, [])
    assert table.phase is Phase.SHOWDOWN


def test_split_pot_shares_differ_by_at_most_one_chip() -> None:
    assert split_pot(603, 2) == (302, 301)
    assert split_pot(10, 3) == (4, 3, 3)
    assert split_pot(0, 2) == (0, 0)


def test_the_table_takes_two_to_five_players_and_the_deck_must_hold_their_cards() -> None:
    with pytest.raises(IllegalAction):
        Table(1, Deck.standard())
    with pytest.raises(IllegalAction):
        Table(6, Deck.standard())
    with pytest.raises(DeckExhausted):
        Table(2, Deck(cards("2C 3C 4C 5C 6C 7C")))


def test_the_table_says_what_may_be_done_now() -> None:
    table = three_players(300)
    assert table.bet_limits() == (1, 300)
    assert table.can_fold(0) and not table.can_fold(1)
    assert not table.can_exchange(0, [])
    table.open(300)
    table.fold(1)
    table.fold(2)
    assert table.bet_limits() == (1, 0)
    assert table.can_exchange(0, [0, 4]) and not table.can_exchange(0, [-1])
    assert not table.can_exchange(1, [])
