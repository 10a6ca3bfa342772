"""Custom pay tables from text, and the subset tables the analyzer is built on."""

from __future__ import annotations

import itertools
import random

import pytest

from casino.errors import ParseError
from casino.videopoker.handtable import payline_by_hand
from casino.videopoker.holdcounts import subset_counts, subset_number, superset_numbers, unpack
from casino.videopoker.paytable import PAYTABLES, PayLine, parse_paytable

JACKS_OR_BETTER_TEXT = """\
name: jacks-or-better-9-6   # the built-in table, written out
ROYAL FLUSH      250 500 750 1000 4000
STRAIGHT FLUSH   50
four of a kind   25
FULL HOUSE       9
FLUSH            6
STRAIGHT         4
THREE OF A KIND  3
TWO PAIR         2
JACKS OR BETTER  1
"""


# casino_choice: a pay table read from a file is casino's analyzer's (--paytable FILE); the seed
# (videopoker-double-bonus.txt lines 21-27) posts one table, and no file of them.
@pytest.mark.casino_choice
def test_a_written_out_table_equals_the_built_in_one() -> None:
    assert parse_paytable(JACKS_OR_BETTER_TEXT, "ignored") == PAYTABLES["jacks-or-better-9-6"]


# casino_choice: the analyzer's pay table files (seed lines 21-27: one posted table).
@pytest.mark.casino_choice
def test_one_number_pays_per_credit_and_missing_lines_pay_nothing() -> None:
    table = parse_paytable("FOUR 2-4 80\n\nfull   house 10 20 30 40 55\n", "mine")
    assert table.name == "mine"
    assert [table.payout(PayLine.FOUR_2_4, bet) for bet in range(1, 6)] == [80, 160, 240, 320, 400]
    assert table.payout(PayLine.FULL_HOUSE, 5) == 55
    assert table.payout(PayLine.FOUR_ACES, 5) == 0


# casino_choice: the analyzer's pay table files (seed lines 21-27: one posted table).
@pytest.mark.casino_choice
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("FLUSH 6\nFIVE ACES 400\n", "line 2: unknown hand 'FIVE ACES'"),
        ("FLUSH 6 7\n", "line 1: give one pay per credit or five returns"),
        ("FLUSH six\n", "line 1: unknown hand 'FLUSH SIX'"),
        ("FLUSH -6\n", "line 1: unknown hand 'FLUSH -6'"),
        ("FOUR ACES 160\nFOUR OF A KIND 25\n", "line 2: FOUR ACES is paid twice"),
        ("NOTHING 1\n", "line 1: unknown hand 'NOTHING'"),
        ("# nothing here\n", "no paying hands"),
    ],
)
def test_bad_tables_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=f"^{message}$"):
        parse_paytable(text, "bad")


def test_superset_numbers_are_the_numbers_of_each_set_plus_one_card() -> None:
    rng = random.Random(4)
    for size in range(5):
        cards = sorted(rng.sample(range(52), size))
        expected = [subset_number([*cards, x]) for x in range(52) if x not in cards]
        assert superset_numbers(cards) == expected


def test_subset_counts_match_counting_every_hand() -> None:
    counts = subset_counts()
    lines = payline_by_hand()
    rng = random.Random(9)
    for size in (0, 1, 2, 3, 4, 5):
        cards = sorted(rng.sample(range(52), size))
        rest = [card for card in range(52) if card not in cards]
        tally = [0] * len(PayLine)
        if size >= 2:  # smaller sets have hundreds of thousands of hands: see the totals below
            for more in itertools.combinations(rest, 5 - size):
                tally[lines[subset_number([*cards, *more])]] += 1
            assert unpack(counts.vector(cards)) == tuple(tally)
        assert sum(unpack(counts.vector(cards))) == len(
            list(itertools.combinations(rest, 5 - size))
        )
    everything = unpack(counts.vector([]))
    assert everything == tuple(lines.count(code) for code in range(len(PayLine)))
