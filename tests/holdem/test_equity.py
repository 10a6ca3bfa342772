"""Exact equity with ranges against brute force (evaluate7 and treys), Monte Carlo against
exact, and the bots drawing no random number for their equity where it is exact."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from treys import Card as TreysCard
from treys import Evaluator

from casino.cards import parse_cards
from casino.cards.evaluator import evaluate7
from casino.holdem.bots import STYLES, decide
from casino.holdem.engine import Hand, Street
from casino.holdem.equity import (
    NO_FLOOR,
    equity,
    exact_equity,
    exact_ranged_equity,
    is_cheap,
    preflop_score,
)

_TREYS = [TreysCard.new("23456789TJQKA"[i >> 2] + "cdhs"[i & 3]) for i in range(52)]
_treys_evaluate = Evaluator().evaluate

Strength = Callable[[Sequence[int]], int]


def treys_strength(cards: Sequence[int]) -> int:
    """treys's value of seven cards, negated so that a higher number is a better hand."""
    return -int(_treys_evaluate([_TREYS[c] for c in cards[:2]], [_TREYS[c] for c in cards[2:]]))


def brute_force(
    hero: Sequence[int],
    board: Sequence[int],
    floors: Sequence[float],
    strength: Strength = evaluate7,
) -> float:
    """The oracle: every runout, every tuple of disjoint opponent holdings at or above their
    floors, each deal once, ties sharing; no floors at all if no deal satisfies them."""
    unseen = [card for card in range(52) if card not in {*hero, *board}]
    total = 0.0
    count = 0
    for runout in itertools.combinations(unseen, 5 - len(board)):
        full = [*board, *runout]
        mine = strength([*hero, *full])
        rest = [card for card in unseen if card not in runout]
        for holdings in _holdings(rest, list(floors)):
            values = [strength([*held, *full]) for held in holdings]
            best = max(values)
            if mine >= best:
                total += 1 / (1 + values.count(mine))
            count += 1
    if count == 0:
        return brute_force(hero, board, [NO_FLOOR] * len(floors), strength)
    return total / count


def _holdings(rest: list[int], floors: list[float]) -> list[list[tuple[int, int]]]:
    """Every tuple of disjoint two-card holdings of ``rest``, one per floor, each at or above it."""
    if not floors:
        return [[]]
    deals = []
    for a, b in itertools.combinations(rest, 2):
        if preflop_score(a, b) >= floors[0]:
            left = [card for card in rest if card not in (a, b)]
            deals += [[(a, b), *more] for more in _holdings(left, floors[1:])]
    return deals


def cards(text: str) -> list[int]:
    """Card indices of ``text``."""
    return [card.index for card in parse_cards(text.upper())]


def spot(shown: int) -> st.SearchStrategy[list[int]]:
    """Two hole cards then ``shown`` board cards, all distinct."""
    return st.lists(st.integers(0, 51), min_size=2 + shown, max_size=2 + shown, unique=True)


FLOORS = st.sampled_from([NO_FLOOR, 0.0, 5.0, 8.0, 12.0, 16.0, 20.0, 25.0])


def test_without_floors_it_is_exact_equity_on_turn_and_river_spots() -> None:
    rng = random.Random(45)
    for shown in (4, 4, 4, 5, 5, 5, 5, 5):
        dealt = rng.sample(range(52), 2 + shown)
        hero, board = dealt[:2], dealt[2:]
        assert exact_ranged_equity(hero, board) == exact_equity(hero, board)
        assert exact_ranged_equity(hero, board, 1, [NO_FLOOR]) == exact_equity(hero, board)


@given(spot(5), FLOORS)
@settings(max_examples=60, deadline=None)
def test_river_heads_up_with_a_floor_is_the_brute_force(dealt: list[int], floor: float) -> None:
    hero, board = dealt[:2], dealt[2:]
    assert exact_ranged_equity(hero, board, 1, [floor]) == brute_force(hero, board, [floor])


@given(spot(5), FLOORS)
@settings(max_examples=25, deadline=None)
def test_river_heads_up_agrees_with_treys(dealt: list[int], floor: float) -> None:
    hero, board = dealt[:2], dealt[2:]
    expected = brute_force(hero, board, [floor], treys_strength)
    assert exact_ranged_equity(hero, board, 1, [floor]) == expected


@given(spot(4), FLOORS)
@settings(max_examples=6, deadline=None)
def test_turn_heads_up_with_a_floor_is_the_brute_force(dealt: list[int], floor: float) -> None:
    hero, board = dealt[:2], dealt[2:]
    assert exact_ranged_equity(hero, board, 1, [floor]) == brute_force(hero, board, [floor])


@given(spot(5), st.sampled_from([12.0, 14.0, 16.0, 20.0]), st.sampled_from([12.0, 16.0, 20.0]))
@settings(max_examples=15, deadline=None)
def test_two_ranged_opponents_on_the_river_are_the_brute_force(
    dealt: list[int], first: float, second: float
) -> None:
    hero, board = dealt[:2], dealt[2:]
    expected = brute_force(hero, board, [first, second])
    assert math.isclose(exact_ranged_equity(hero, board, 2, [first, second]), expected)


def test_three_way_and_two_way_splits_share_the_pot() -> None:
    royal = cards("As Ks Qs Js Ts")  # the board plays for everybody
    assert math.isclose(exact_ranged_equity(cards("2c 3d"), royal, 2), 1 / 3)
    assert math.isclose(exact_ranged_equity(cards("2c 3d"), royal, 2, [12.0, 12.0]), 1 / 3)
    # the hero's straight ties tens (floor 10 holds them) and beats the sets (floor 16)
    hero, board = cards("Th 3c"), cards("As Ks Qd Jd 2h")
    expected = brute_force(hero, board, [10.0, 16.0])
    assert 0.5 < expected < 1
    assert math.isclose(exact_ranged_equity(hero, board, 2, [10.0, 16.0]), expected)


def test_a_floor_filters_the_opponents_holdings() -> None:
    # kings on a board without an ace or a queen: ahead of most hands (not of sets, two
    # pairs, straights or aces)
    hero, board = cards("Ks Kh"), cards("2c 7d 9h 4s Jc")
    assert 0.85 < exact_ranged_equity(hero, board) < 0.9
    assert exact_ranged_equity(hero, board, 1, [20.0]) == 0.0  # only aces score 20
    # floor 16 is kings (the other two: a split) or aces (six holdings)
    assert exact_ranged_equity(hero, board, 1, [16.0]) == 0.5 / 7
    # floor 14: queens too (six holdings beaten, one split, six ahead)
    assert exact_ranged_equity(hero, board, 1, [14.0]) == 6.5 / 13


def test_a_floor_nothing_satisfies_falls_back_to_every_holding() -> None:
    hero, board = cards("Ks Kh"), cards("2c 7d 9h 4s Jc")
    assert exact_ranged_equity(hero, board, 1, [21.0]) == exact_equity(hero, board)
    aces, ace_board = cards("As Ah"), cards("Ac 7d 9h 4s Jc")  # one ace left: no pair of aces
    assert exact_ranged_equity(aces, ace_board, 1, [20.0]) == exact_equity(aces, ace_board)
    assert exact_ranged_equity(aces, ace_board, 1, [16.0]) == 1.0  # kings are there


@given(spot(5), FLOORS)
@settings(max_examples=40, deadline=None)
def test_a_floor_keeps_exactly_the_holdings_at_or_above_it(dealt: list[int], floor: float) -> None:
    """The ranged equity is the mean over the holdings the floor keeps of the equity against
    each one: the floor filters, nothing more."""
    hero, board = dealt[:2], dealt[2:]
    unseen = [card for card in range(52) if card not in dealt]
    mine = evaluate7([*hero, *board])
    kept = [h for h in itertools.combinations(unseen, 2) if preflop_score(*h) >= floor]
    if not kept:
        kept = list(itertools.combinations(unseen, 2))
    shares = [1 if mine > s else 0.5 if mine == s else 0 for s in _strengths(kept, board)]
    assert exact_ranged_equity(hero, board, 1, [floor]) == sum(shares) / len(shares)


def _strengths(holdings: list[tuple[int, int]], board: list[int]) -> list[int]:
    return [evaluate7([*held, *board]) for held in holdings]


def test_monte_carlo_is_near_the_exact_equity() -> None:
    rng = random.Random(7)
    for shown in (4, 5):
        for _ in range(3):
            dealt = rng.sample(range(52), 2 + shown)
            exact = exact_ranged_equity(dealt[:2], dealt[2:])
            estimate = equity(dealt[:2], dealt[2:], 1, 4000, rng)
            assert abs(estimate - exact) < 4 * 0.5 / math.sqrt(4000)  # four sd at most


def test_no_opponent_is_the_whole_pot() -> None:
    assert exact_ranged_equity(cards("2c 7d"), cards("As Ks Qs Js"), 0) == 1.0


def test_exact_is_cheap_heads_up_on_the_turn_and_river_only() -> None:
    board = cards("2c 7d 9h 4s Jc")
    assert [is_cheap(board[:shown], 1) for shown in (0, 3, 4, 5)] == [False, False, True, True]
    assert not is_cheap(board, 2)
    assert not is_cheap(board[:4], 3)


class Counting(random.Random):
    """A random source that counts the numbers drawn from it."""

    drawn = 0

    def random(self) -> float:
        self.drawn += 1
        return super().random()


def _heads_up_on(street: Street) -> Hand:
    """A heads-up hand checked down to ``street``, the big blind (seat 0) to act."""
    top = cards("Ks 2c Kh 7d 9h 4s Jc Qd 3h")  # holes dealt one at a time, then the board
    deck = top + [card for card in range(52) if card not in top]
    hand = Hand.deal([1000, 1000], 1, (5, 10), deck)
    hand.call()
    hand.check()
    while hand.street is not street:
        hand.check()
    return hand


def test_on_the_turn_and_river_heads_up_a_bot_draws_nothing_for_its_equity() -> None:
    for street in (Street.TURN, Street.RIVER):
        hand = _heads_up_on(street)
        assert hand.to_act == 0 and len(hand.board) in (4, 5)
        rng = Counting(1)
        decide(hand, STYLES["station"], rng)  # a station never bluffs: at most a bet's size
        assert rng.drawn <= 1


def test_on_the_flop_a_bot_still_samples() -> None:
    hand = _heads_up_on(Street.FLOP)
    rng = Counting(1)
    decide(hand, STYLES["station"], rng, samples=50)
    assert rng.drawn >= 50 * 4  # at least two board cards and two hole cards a deal
