"""casino's one whole-number reader: strict, bounded, and a refusal that quotes the input."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.errors import ParseError
from casino.numbers import (
    MAX_DIGITS,
    parse_bounded,
    parse_count,
    parse_int,
    parse_seconds,
    quoted,
)


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


@pytest.mark.parametrize(
    ("text", "value"),
    [("30", 30.0), (" 0.5 ", 0.5), (".25", 0.25), ("2.", 2.0), ("3600", 3600.0), ("007", 7.0)],
)
def test_seconds_are_read(text: str, value: float) -> None:
    assert parse_seconds(text, 3600) == value


@pytest.mark.parametrize(
    ("text", "zero", "message"),
    [
        ("nan", False, "not a number of seconds above 0, at most 3600: 'nan'"),
        ("inf", False, "not a number of seconds above 0, at most 3600: 'inf'"),
        ("-1", False, "not a number of seconds above 0, at most 3600: '-1'"),
        ("-0", True, "not a number of seconds of 0 or more, at most 3600: '-0'"),
        ("0", False, "not a number of seconds above 0, at most 3600: '0'"),
        ("0.000", False, "not a number of seconds above 0, at most 3600: '0.000'"),
        ("3600.5", False, "not a number of seconds above 0, at most 3600: '3600.5'"),
        ("1e3", False, "not a number of seconds above 0, at most 3600: '1e3'"),
        ("1_0", False, "not a number of seconds above 0, at most 3600: '1_0'"),
        ("٣", False, "not a number of seconds above 0, at most 3600: '٣'"),
        (".", False, "not a number of seconds above 0, at most 3600: '.'"),
        ("1.2.3", False, "not a number of seconds above 0, at most 3600: '1.2.3'"),
        ("9" * 19, False, "not a number of seconds above 0, at most 3600: '" + "9" * 19 + "'"),
    ],
)
def test_nan_inf_negatives_and_zero_are_refused(text: str, zero: bool, message: str) -> None:
    with pytest.raises(ParseError) as refused:
        parse_seconds(text, 3600, zero=zero)
    assert str(refused.value) == message


def test_zero_seconds_where_a_command_takes_them() -> None:
    assert parse_seconds("0", zero=True) == 0.0
    with pytest.raises(ParseError, match=r"^not a number of seconds above 0: '0'$"):
        parse_seconds("0")


@given(st.text(max_size=30), st.booleans())
def test_any_text_is_finite_positive_seconds_or_a_parse_error(text: str, zero: bool) -> None:
    try:
        value = parse_seconds(text, 10**7, zero=zero)
    except ParseError as error:
        assert str(error).startswith("not a number of seconds ")
        assert str(error).endswith(quoted(text))
        return
    assert math.isfinite(value) and (value > 0 or (zero and value == 0)) and value <= 10**7
    assert value == float(text.strip())  # strip() takes what float() does not (\x1c-\x1f)
