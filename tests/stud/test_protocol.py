"""The wire protocol: the seed's examples, every message round trip, errors naming fields."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.cards import FULL_DECK, Card
from casino.stud import protocol as wire


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(token) for token in text.split())


def test_seed_bet1_example() -> None:
    request = wire.parse_command("bet1:208:24:12:KS:10D:up:AS:8H:10D:QD:2C")
    assert request == wire.BetRequest(
        1,
        208,
        24,
        12,
        Card.parse("KS"),
        cards("10D"),
        tuple((c,) for c in cards("AS 8H 10D QD 2C")),
    )


def test_seed_bet2_example_is_rejected_naming_the_field() -> None:
    text = "bet2:183:66:0:KS:10D:10S:up:AS:AQ:8H:6D:10D:4S:QD:JC:2C:4H"
    with pytest.raises(wire.ProtocolError) as caught:
        wire.parse_command(text)
    assert str(caught.value) == "bet2: field 10 (player 1's second up card): not a card: 'AQ'"


def test_corrected_bet2_example() -> None:
    request = wire.parse_command("bet2:183:66:0:KS:10D:10S:up:AS:AH:8H:6D:10D:10S:QD:JC:2C:4H")
    assert isinstance(request, wire.BetRequest)
    assert request.cards == cards("KS 10D 10S")
    assert request.table[2] == cards("10D 10S")
    assert len(request.table) == 5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bet1:208:24:x:KS:10D:up:AS", "bet1: field 4 (to match): not a whole number: 'x'"),
        ("bet1:-1:24:0:KS:10D:up:AS", "bet1: field 2 (stack): must not be negative: '-1'"),
        ("bet1: 5:24:0:KS:10D:up:AS", "bet1: field 2 (stack): not a whole number: ' 5'"),
        (
            "bet1:5:24:0:KS:TD:up:AS",
            "bet1: field 6 (up card): not a card: 'TD' (cards are written like 10S, AH)",
        ),
        ("bet1:5:24:0:KS:10D:down:AS", "bet1: field 7 ('up'): expected 'up', got 'down'"),
        (
            "bet1:5:24:0:KS:10D:up",
            "bet1: field 8 (player 1's up card): missing: the table's up cards",
        ),
        ("bet1:5:24:0:KS", "bet1: field 6 (up card): missing"),
        (
            "bet2:5:24:0:KS:10D:9D:up:AS",
            "bet2: field 10 (player 1's second up card): missing: up cards come in pairs, got 1",
        ),
        (
            "status:draw:AS:KS:QS",
            "status: field 2 (win or lose): expected 'win' or 'lose', got 'draw'",
        ),
        ("status:win:AS:KS", "status: field 5 (third card): expected 5 fields, got 4"),
        ("deal:AS", "field 1 (command): unknown command 'deal'"),
        ("", "field 1 (command): unknown command ''"),
        ("bet1:1" + "0" * 5000 + ":1:0:KS:10D:up:AS", "bet1: field 2 (stack): more than 18 digits"),
    ],
)
def test_malformed_commands_name_the_field(text: str, message: str) -> None:
    with pytest.raises(wire.ProtocolError) as caught:
        wire.parse_command(text)
    assert str(caught.value).startswith(message)


def test_status_done_login() -> None:
    assert wire.parse_command("login") == wire.Login()
    assert wire.parse_command("status:lose:AS:AD:2C") == wire.Status(False, cards("AS AD 2C"))  # type: ignore[arg-type]
    assert wire.parse_command("done:Out of money: sorry") == wire.Done("Out of money: sorry")


@pytest.mark.parametrize(
    ("text", "action"), [("bet:0", wire.Bet(0)), ("bet:20", wire.Bet(20)), ("fold", wire.Fold())]
)
def test_replies(text: str, action: wire.Action) -> None:
    assert wire.parse_action(text) == action
    assert wire.format_reply(action) == text


@pytest.mark.parametrize(
    "text",
    [
        "bet:-1",
        "bet:+-1",
        "bet: 5",
        "bet:5:6",
        "Bet:5",
        "bet:",
        "FOLD",
        "bet:٣",
        "bet:" + "9" * 5000,
    ],
)
def test_bad_replies_are_protocol_errors(text: str) -> None:
    with pytest.raises(wire.ProtocolError):
        wire.parse_action(text)


def test_login_reply() -> None:
    assert wire.parse_login_reply("StephenCurry:Steph") == wire.LoginReply("StephenCurry", "Steph")
    assert wire.parse_login_reply("me:a:b") == wire.LoginReply("me", "a:b")
    for bad in ("nocolon", ":avatar", "id:", "id:\x00"):
        with pytest.raises(wire.ProtocolError):
            wire.parse_login_reply(bad)


@pytest.mark.parametrize(
    ("stack", "to_match", "allowed"),
    [
        (208, 12, range(12, 23)),
        (3, 8, range(8, 4)),
        (0, 0, range(0, 1)),
        (7, 7, range(7, 8)),
        (12, 5, range(5, 13)),
    ],
)
def test_legal_range(stack: int, to_match: int, allowed: range) -> None:
    assert list(wire.legal_range(stack, to_match)) == list(allowed)
    assert [n for n in range(-2, 40) if wire.legal_bet(n, stack, to_match)] == list(allowed)


card_lists = st.lists(st.sampled_from(FULL_DECK), min_size=2, max_size=18)


@given(
    st.integers(1, 2),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.integers(0, 100),
    st.sampled_from(FULL_DECK),
    card_lists,
)
def test_every_bet_request_round_trips(
    round_: int, stack: int, pot: int, to_match: int, hole: Card, listed: list[Card]
) -> None:
    table = tuple(tuple(listed[i : i + round_]) for i in range(0, len(listed) - round_ + 1, round_))
    request = wire.BetRequest(round_, stack, pot, to_match, hole, table[0], table)
    assert wire.parse_command(wire.format_command(request)) == request


@given(st.text(max_size=80))
def test_any_text_parses_or_is_a_protocol_error(text: str) -> None:
    with contextlib.suppress(wire.ProtocolError):
        wire.parse_command(text)
    with contextlib.suppress(wire.ProtocolError):
        wire.parse_action(text)


@given(
    st.integers(1, 2),
    st.lists(
        st.sampled_from(["bet1", "bet2", "up", "0", "7", "+7", "007", " 7", "-0", "AS", "10S"])
        | st.sampled_from(["as", "1S", "", "1234567890123456789", "٣", "QD", "2C"]),
        max_size=14,
    ),
)
def test_the_fast_reading_of_a_bet_agrees_with_the_checked_one(
    round_: int, parts: list[str]
) -> None:
    text = ":".join([f"bet{round_}", *parts])
    fast = wire._well_formed_bet(text, round_)
    try:
        checked: wire.BetRequest | str = wire._checked_bet(text, round_)
    except wire.ProtocolError as error:
        checked = str(error)
    # the fast path reads only what the checked one accepts, and reads it the same
    assert fast is None or fast == checked
    if fast is None and isinstance(checked, wire.BetRequest):
        assert any(not part.isdigit() for part in text.split(":")[1:4])  # e.g. "+7"


@pytest.mark.parametrize(
    "text",
    [
        "bet1:208:24:12:KS:10D:up:AS:8H:10D:QD:2C",
        "bet2:183:66:0:KS:10D:10S:up:AS:AH:8H:6D:10D:10S:QD:JC:2C:4H",
    ],
)
def test_a_request_is_written_as_the_seed_writes_it(text: str) -> None:
    request = wire.parse_command(text)
    assert isinstance(request, wire.BetRequest)
    assert wire.format_command(request) == text
    table = text.split(":up:")[1]
    assert wire.format_table(request.table) == table  # once a round, at the dealer
    assert wire.format_bet(request, table) == text


@given(
    st.lists(
        st.sampled_from(["bet", "fold", "0", "7", "+7", "007", " 7", "-0", "", "٣", "x"])
        | st.just("1234567890123456789"),
        max_size=3,
    ),
)
def test_the_fast_reading_of_a_reply_agrees_with_the_checked_one(parts: list[str]) -> None:
    text = ":".join(parts)
    results: list[wire.Action | str] = []
    for read in (wire.parse_action, wire._checked_action):
        try:
            results.append(read(text))
        except wire.ProtocolError as error:
            results.append(str(error))
    assert results[0] == results[1] or text == "fold"
