"""The exact analyzer: hold values against brute force, the seed's plays, the known returns."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.cards import FULL_DECK, Card, HandValue, parse_cards
from casino.cards.evaluator import evaluate5
from casino.cards.suitclasses import CLASS_COUNTS
from casino.errors import ParseError
from casino.videopoker import analyzer
from casino.videopoker.analyzer import (
    DRAW_SPACE,
    TOTAL_OUTCOMES,
    Analysis,
    analyze,
    best_hold,
    draw_vectors,
    hold_values,
)
from casino.videopoker.holdcounts import unpack
from casino.videopoker.paytable import (
    DOUBLE_BONUS_10_7,
    PAYTABLES,
    PayLine,
    PayTable,
    classify_value,
)

JACKS_OR_BETTER = PAYTABLES["jacks-or-better-9-6"]

FIVE_CARD_LINES = {  # pay lines of all 2,598,960 five-card hands, from any poker textbook
    PayLine.ROYAL_FLUSH: 4,
    PayLine.STRAIGHT_FLUSH: 36,
    PayLine.FOUR_ACES: 48,
    PayLine.FOUR_2_4: 144,
    PayLine.FOUR_5_K: 432,
    PayLine.FULL_HOUSE: 3_744,
    PayLine.FLUSH: 5_108,
    PayLine.STRAIGHT: 10_200,
    PayLine.THREE_OF_A_KIND: 54_912,
    PayLine.TWO_PAIR: 123_552,
    PayLine.JACKS_OR_BETTER: 337_920,
    PayLine.NOTHING: 1_302_540 + 1_098_240 - 337_920,
}


def brute_force_ev(
    hand: Sequence[Card], held: Sequence[int], table: PayTable, bet: int
) -> Fraction:
    """Every draw for this hold, ranked one by one by the evaluator."""
    kept = tuple(hand[p].index for p in held)
    dealt = {card.index for card in hand}
    unseen = [index for index in range(52) if index not in dealt]
    pays = {}
    total = 0
    for drawn in itertools.combinations(unseen, 5 - len(kept)):
        strength = evaluate5(kept + drawn)
        if strength not in pays:
            pays[strength] = table.payout(classify_value(HandValue(strength)), bet)
        total += pays[strength]
    return Fraction(total, math.comb(47, 5 - len(kept)))


@pytest.mark.parametrize(
    "text", ["AC KC QC JC 2C", "AH AD AS 2C 2S", "5S 6S 7S 8S 8D", "TH JH QD KS 3C"]
)
def test_holds_of_two_or_more_cards_match_brute_force(text: str) -> None:
    hand = parse_cards(text)
    for value in hold_values(hand, DOUBLE_BONUS_10_7, 5):
        if len(value.positions) >= 2:
            expected = brute_force_ev(hand, value.positions, DOUBLE_BONUS_10_7, 5)
            assert value.ev == expected, value.positions


def test_one_card_and_empty_holds_match_brute_force() -> None:
    hand = parse_cards("2C 7D 9H JS KD")
    values = {value.positions: value.ev for value in hold_values(hand, JACKS_OR_BETTER, 3)}
    for held in [(), (3,), (4,)]:
        assert values[held] == brute_force_ev(hand, held, JACKS_OR_BETTER, 3), held


@pytest.mark.parametrize(
    ("text", "held"),
    [  # the seed's "difficult hands": optimal play agrees with every one of these
        ("KC QC JC TC 9C", "KC QC JC TC 9C"),
        ("AD KD QS JD TD", "AD KD JD TD"),
        ("AS KS JS TS 9S", "AS KS JS TS"),
        ("AH AD AS 2C 2S", "AH AD AS"),
        ("4C 4S 4H 5D 5C", "4C 4S 4H 5D 5C"),
        ("5S 6S 7S 8S JS", "5S 6S 7S 8S JS"),
        ("3D 4H 5H 6H 7H", "3D 4H 5H 6H 7H"),
        ("AC KD QD JD TS", "AC KD QD JD TS"),
        ("KC QC JC 9C 4D", "KC QC JC 9C"),
        ("AH AS KD KS QS", "AH AS KD KS"),
        ("JC JD 4D 7D 9D", "JC JD"),
        ("QS QH JH AH 2C", "QS QH"),
        ("8C JC QC KC 9H", "8C JC QC KC"),
        ("2S 5S 7S 9S 7H", "2S 5S 7S 9S"),
        ("TD JD QC KD 5S", "TD JD KD"),
        ("TH QH AH TD 8C", "TH QH AH"),
    ],
)
def test_best_hold_plays_the_seeds_difficult_hands(text: str, held: str) -> None:
    hand = parse_cards(text)
    assert [hand[p] for p in best_hold(hand, DOUBLE_BONUS_10_7, 5)] == parse_cards(held)


def test_ties_prefer_more_cards_then_earlier_positions() -> None:
    quads = parse_cards("AC AD AH AS 2C")
    values = hold_values(quads, DOUBLE_BONUS_10_7, 5)
    assert [v.positions for v in values[:2]] == [(0, 1, 2, 3, 4), (0, 1, 2, 3)]
    assert values[0].ev == values[1].ev == 800
    pair_or_pair = parse_cards("7C 7D 8H 9S TD")  # either seven with the straight draw
    assert best_hold(pair_or_pair, DOUBLE_BONUS_10_7, 5) == (0, 2, 3, 4)
    assert [v.ev for v in hold_values(pair_or_pair, DOUBLE_BONUS_10_7, 5)][:2] == [
        Fraction(200, 47)
    ] * 2


def test_hold_values_lists_all_32_holds_best_first() -> None:
    values = hold_values(parse_cards("AC KC QC JC 2C"), DOUBLE_BONUS_10_7, 5)
    assert len({v.positions for v in values}) == 32
    assert [v.ev for v in values] == sorted((v.ev for v in values), reverse=True)
    assert values[0].ev == Fraction(4380, 47)
    assert values[0].cards == tuple(parse_cards("AC KC QC JC"))


@pytest.mark.parametrize("text", ["AC KC QC JC", "AC KC QC JC 2C 3C", "AC AC QC JC 2C"])
def test_hands_that_are_not_five_distinct_cards_are_refused(text: str) -> None:
    with pytest.raises(ParseError):
        hold_values(parse_cards(text), DOUBLE_BONUS_10_7, 5)


def test_every_hold_draws_its_whole_draw_space() -> None:
    vectors = draw_vectors([0, 9, 22, 35, 51])
    for mask, vector in enumerate(vectors):
        assert sum(unpack(vector)) == math.comb(47, 5 - mask.bit_count())


SUIT_RENAMINGS = st.permutations(range(4))
HANDS = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=25, deadline=None)
@given(HANDS, SUIT_RENAMINGS, st.permutations(range(5)))
def test_values_ignore_suit_names_and_card_order(
    hand: list[Card], renaming: list[int], order: list[int]
) -> None:
    renamed = [
        Card.from_index(card.index - card.index % 4 + renaming[card.index % 4]) for card in hand
    ]
    shuffled = [renamed[p] for p in order]
    by_cards = {frozenset(v.cards): v.ev for v in hold_values(hand, DOUBLE_BONUS_10_7, 5)}
    for value in hold_values(shuffled, DOUBLE_BONUS_10_7, 5):
        original = frozenset(hand[renamed.index(card)] for card in value.cards)
        assert by_cards[original] == value.ev


def test_the_analysis_kernel_chooses_as_best_hold_does() -> None:
    job = analyzer._make_job(JACKS_OR_BETTER, 5, None)
    rng = random.Random(11)
    for _ in range(300):
        cards = sorted(rng.sample(range(52), 5))
        mask, numbers = job.choose(*cards)
        hand = [Card.from_index(card) for card in cards]
        assert tuple(p for p in range(5) if mask >> p & 1) == best_hold(hand, JACKS_OR_BETTER, 5)
        assert numbers == job.numbers(*cards)


def test_double_bonus_10_7_returns_the_published_figure(optimal_double_bonus: Analysis) -> None:
    analysis = optimal_double_bonus
    assert analysis.return_rate == Fraction(18086612134, 18055462425)
    assert analysis.total == TOTAL_OUTCOMES == 19_933_230_517_200
    assert analysis.counts[PayLine.ROYAL_FLUSH] == 414_860_472


def test_holding_nothing_or_everything_returns_a_random_hands_pay() -> None:
    """Without a choice, the final hand is a uniformly random hand: exact counts known, the
    same whatever the pay table. Discarding everything is analyzed on Double Bonus 10/7 at 5
    credits on two jobs, given as holds worked out beforehand (an empty mask per class: the
    path of ``analyze --strategy seed``, which reads the seed's from the cache), holding
    everything on Jacks or Better at 1 credit on one, asked of a chooser."""
    expected = {line: count * DRAW_SPACE for line, count in FIVE_CARD_LINES.items()}
    nothing = bytes(CLASS_COUNTS[5])
    for table, bet, holds, jobs in [
        (DOUBLE_BONUS_10_7, 5, nothing, 2),
        (JACKS_OR_BETTER, 1, None, 1),
    ]:
        everything = (lambda hand: range(5)) if holds is None else None
        analysis = analyze(table, bet, chooser=everything, holds=holds, strategy="fixed", jobs=jobs)
        assert analysis.counts == expected
        assert analysis.total == TOTAL_OUTCOMES == 19_933_230_517_200
        pays = sum(count * table.payout(line, bet) for line, count in FIVE_CARD_LINES.items())
        assert analysis.return_rate == Fraction(pays, math.comb(52, 5) * bet)
        if table == DOUBLE_BONUS_10_7:  # the figure typed from the textbook counts, by hand
            assert analysis.return_rate == Fraction(
                4 * 4000
                + 36 * 250
                + 48 * 800
                + 144 * 400
                + 432 * 250
                + 3744 * 50
                + 5108 * 35
                + 10200 * 25
                + 54912 * 15
                + 123552 * 5
                + 337920 * 5,
                2598960 * 5,
            )


def test_holds_given_beforehand_are_one_per_class() -> None:
    with pytest.raises(ValueError, match=r"^3 holds given for the 134459 classes$"):
        analyze(JACKS_OR_BETTER, holds=bytes(3))


def test_a_strategy_holding_positions_that_do_not_exist_is_reported() -> None:
    with pytest.raises(ValueError, match=r"^a strategy held positions \(5,\) of (\w\w ){4}\w\w$"):
        analyze(JACKS_OR_BETTER, chooser=lambda hand: (5,), jobs=1)


def test_the_analysis_draw_functions_agree_with_draw_vectors() -> None:
    job = analyzer._make_job(DOUBLE_BONUS_10_7, 5, None)
    rng = random.Random(12)
    for _ in range(50):
        cards = sorted(rng.sample(range(52), 5))
        numbers = job.numbers(*cards)
        assert [draw(numbers) for draw in job.draws] == draw_vectors(cards)
