"""Asking Player_1, as the seed's ``validator.py`` does: re-ask until the answer is valid.

Every question is its prompt followed by ``==> ``. A number out of range is answered
``9 not between 2 and 5. Try again``, something that is not a whole number
``Value entered is not an int. Try again`` (the seed's validator), and the bet-or-fold
question takes ``B``, ``b``, ``F`` or ``f`` exactly. What is valid beyond the form of an
answer is the table's to say. End of input raises :class:`EndOfInput`.
"""

from __future__ import annotations

from collections.abc import Callable

from casino.draw import messages
from casino.errors import CasinoError, ParseError
from casino.numbers import parse_int  # the project's strict whole-number parser
from casino.shell import Console

__all__ = ["EndOfInput", "ask_character", "ask_number", "ask_positions"]


class EndOfInput(CasinoError):
    """The input ended while a question was waiting for its answer."""


def _answer(console: Console, prompt: str) -> str:
    answer = console.ask(prompt + messages.PROMPT_END)
    if answer is None:
        raise EndOfInput(f"end of input at '{prompt.strip()}'")
    return answer


def ask_number(console: Console, prompt: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``."""
    while True:
        answer = _answer(console, prompt)
        try:
            value = parse_int(answer)
        except ParseError:
            console.line(messages.NOT_AN_INT)
            continue
        if low <= value <= high:
            return value
        console.line(messages.not_between(value, low, high))


def ask_character(console: Console, prompt: str, valid: str) -> str:
    """One of the characters of ``valid``, exactly as typed."""
    while True:
        answer = _answer(console, prompt)
        if len(answer) == 1 and answer in valid:
            return answer
        console.line(messages.not_valid_character(answer))


def ask_positions(console: Console, prompt: str, accept: Callable[[list[int]], bool]) -> list[int]:
    """Positions typed 1-based (separated by spaces or commas; an empty answer is none) that
    ``accept`` takes as 0-based; re-asked with :func:`messages.not_positions` otherwise."""
    while True:
        answer = _answer(console, prompt)
        chosen = parse_positions(answer)
        if chosen is not None and accept(chosen):
            return chosen
        console.line(messages.not_positions(answer))


def parse_positions(text: str) -> list[int] | None:
    """``"1 3"`` → ``[0, 2]`` (0-based, as typed); ``None`` unless every token is a number."""
    try:
        return [parse_int(token) - 1 for token in text.replace(",", " ").split()]
    except ParseError:
        return None
