"""casino's one whole-number reader: strict, bounded, and a refusal that quotes the input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.errors import ParseError
from casino.numbers import MAX_DIGITS, parse_bounded, parse_count, parse_int, quoted


@pytest.mark.parametrize(
    ("text", "value"),
    [("42", 42), (" -7 ", -7), ("+3", 3), ("007", 7), ("9" * 18, 10**18 - 1), ("-0", 0)],
)
def test_whole_numbers_are_read(text: str, value: int) -> None:
    assert parse_int(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a whole number: ''"),
        ("2.5", "not a whole number: '2.5'"),
        ("٣", "not a whole number: '٣'"),
        ("1_000", "not a whole number: '1_000'"),
        ("--1", "not a whole number: '--1'"),
        ("+", "not a whole number: '+'"),
        ("1" * 19, f"more than {MAX_DIGITS} digits: '{'1' * 19}'"),
    ],
)
def test_anything_else_is_refused_quoting_the_input(text: str, message: str) -> None:
    with pytest.raises(ParseError) as refused:
        parse_int(text)
    assert str(refused.value) == message


def test_a_number_past_pythons_digit_limit_is_refused_in_a_short_message() -> None:
    with pytest.raises(ParseError) as refused:
        parse_int("9" * 5000)
    assert str(refused.value) == f"more than 18 digits: '{'9' * 30}'… (5,000 characters)"


def test_ranges() -> None:
    assert parse_count("5", 5) == 5
    assert parse_bounded("0", 0) == 0
    with pytest.raises(ParseError, match=r"^not a whole number from 1 to 5: '6'$"):
        parse_count("6", 5)
    with pytest.raises(ParseError, match=r"^not a whole number of at least 1: '0'$"):
        parse_count("0")


def test_quoting_cuts_long_text() -> None:
    assert quoted("abc") == "'abc'"
    assert quoted("x" * 31) == f"'{'x' * 30}'… (31 characters)"


@given(st.integers(-(10**18) + 1, 10**18 - 1))
def test_every_bounded_number_reads_back(value: int) -> None:
    assert parse_int(str(value)) == value


@given(st.text(max_size=40))
def test_any_text_is_a_number_int_agrees_with_or_a_parse_error(text: str) -> None:
    try:
        value = parse_int(text)
    except ParseError as error:
        assert str(error).startswith(("not a whole number: ", "more than 18 digits: "))
    else:
        assert value == int(text.strip()) and text.strip().lstrip("+-").isascii()
