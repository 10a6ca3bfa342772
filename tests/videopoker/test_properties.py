"""Random token streams thrown at the debug shell: never a traceback, and the credit always
adds up (credit = initial − bets + payouts), checked from the printed messages alone."""

from __future__ import annotations

import random
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.cards import FULL_DECK
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, PayLine

from .conftest import run

WORDS = ["b", "$", "d", "h", "a", "s", "x", "B", "hold", "-", "$$"]
NUMBERS = ["0", "1", "2", "3", "4", "5", "6", "-1", "10", "1.5", "007", "+2"]
token_streams = st.lists(st.sampled_from(WORDS + NUMBERS), max_size=80)
LINES = ["b", "b 1", "b 3", "d", "h", "h 1 2", "$", "a", "s", "d 1", "h 9"]
separators = st.sampled_from([" ", "\n", "\r\n", "\t", "  \r\n"])

_BET = re.compile(r"player is betting (\d+)")
_CREDIT = re.compile(r"(?:player's credit is|and his credit is) (\d+)")
_WIN = re.compile(r"player wins with a (.+) and his credit is")
_TABLE_CREDIT = re.compile(r"Credit +(\d+) \(")
_RESULTS = ("player wins", "player loses")


def card_file(seed: int, count: int) -> str:
    """``count`` cards from freshly shuffled decks laid end to end."""
    rng = random.Random(seed)
    cards: list[str] = []
    while len(cards) < count:
        deck = [str(card) for card in FULL_DECK]
        rng.shuffle(deck)
        cards += deck
    return " ".join(cards[:count])


def check_accounting(output: str, credit: int) -> int:
    """Follow the messages as a grader would, check every credit they state; return the
    number of hands played. A hand line is a deal's unless a result line follows it."""
    bet = staked = 5
    hands = 0
    lines = output.split("\n")
    for line, following in zip(lines, [*lines[1:], ""], strict=True):
        if (found := _BET.fullmatch(line)) is not None:
            bet = int(found.group(1))
        elif line.startswith("player's hand") and not following.startswith(_RESULTS):
            credit -= bet
            staked = bet
        elif (found := _WIN.match(line)) is not None:
            credit += DOUBLE_BONUS_10_7.payout(PayLine(found.group(1)), staked)
        if line.startswith(_RESULTS):
            hands += 1
        if (found := _CREDIT.search(line) or _TABLE_CREDIT.match(line)) is not None:
            assert int(found.group(1)) == credit, line
        if line.startswith("Total "):
            assert int(line.split()[1]) == hands
        assert credit >= 0
    return hands


@settings(max_examples=150, deadline=None)
@given(token_streams, separators, st.integers(1, 40), st.integers(0, 2**32), st.integers(0, 80))
def test_random_streams_never_crash_and_the_credit_adds_up(
    words: list[str], separator: str, credit: int, seed: int, cards: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        cmd_path, card_path = Path(folder, "cmd.txt"), Path(folder, "cards.txt")
        cmd_path.write_text(separator.join(words), newline="")
        card_path.write_text(card_file(seed, cards), newline="")
        result = run(["-d", str(credit), str(cmd_path), str(card_path)])
    assert result.status in (0, 1)
    if result.status == 0:
        assert result.err == ""
    else:  # the card-file ran out, or put one card twice into a hand
        assert result.err.count("\n") == 1 and result.err.startswith("videopoker: card-file")
    echoes = [line[5:] for line in result.out.split("\n") if line.startswith("-cmd ")]
    assert len(echoes) <= len(words)
    check_accounting(result.out, credit)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=60), st.integers(1, 30), st.integers(0, 2**32))
def test_interactive_mode_adds_up_too(lines: list[str], credit: int, seed: int) -> None:
    result = run(["-i", str(credit), "--seed", str(seed)], "\n".join(lines) + "\n")
    assert (result.status, result.err) == (0, "")
    check_accounting(result.out, credit)


def test_the_accounting_check_follows_a_known_session() -> None:
    session = Path(__file__).parents[2] / "fixtures/videopoker/prof-example/expected-with-rebet.txt"
    assert check_accounting(session.read_text(), 10000) == 3
    with pytest.raises(AssertionError):  # the check can fail: a wrong credit is caught
        check_accounting(session.read_text().replace("9990", "9995"), 10000)
