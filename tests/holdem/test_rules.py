"""The rules value: its text form round-trips, bad rules are refused in one clear line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.errors import ParseError
from casino.holdem.rules import Rules


@given(st.integers(1, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_text_form_round_trips(small: int, extra: int, ante: int) -> None:
    rules = Rules(small, small + extra, ante)
    assert Rules.parse(str(rules)) == rules
    assert str(rules) == (f"{small}/{small + extra}/{ante}" if ante else f"{small}/{small + extra}")


@pytest.mark.parametrize("text", ["10/5", "0/10", "5", "5/10/1/2", "5/x", "5/10/-1", "٥/10", ""])
def test_bad_rules_are_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        Rules.parse(text)


def test_a_pair_of_blinds_is_the_no_ante_rules() -> None:
    assert Rules.of((5, 10)) == Rules() and Rules.of(Rules(1, 2, 3)) == Rules(1, 2, 3)
    assert Rules().with_ante(4) == Rules(5, 10, 4) and Rules(5, 10, 4).blinds == (5, 10)
