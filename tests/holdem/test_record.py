"""Hand records: an exact JSON round trip, a replay to the engine's stacks, steps for a page,
and PHH that pokerkit replays to the same stacks (hidden cards as ``????``, free folds too)."""

from __future__ import annotations

import json
import random
import warnings

import pytest

from casino.errors import ParseError
from casino.holdem.engine import Hand, Kind
from casino.holdem.record import HandRecord
from casino.holdem.rules import Rules

from .oracle import random_hand


def _names(hand: Hand) -> list[str]:
    return [f"P{seat}" for seat in range(len(hand.starting))]


def _hands(
    seed: int, count: int, free_folds: bool = False, antes: tuple[int, ...] = (0, 0, 1, 3)
) -> list[Hand]:
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        rules = Rules(5, 10, ante=rng.choice(antes))
        hands.append(random_hand(rng, rng.randint(2, 9), rules, free_folds))
    return hands


def _with_empty_seat(hand: Hand) -> Hand:
    """The same cards and actions with an empty seat (0 chips) added after the button."""
    stacks = list(hand.starting)
    stacks.insert(hand.button + 1, 0)
    record = HandRecord.of(hand, _names(hand))
    replay = Hand.deal(stacks, hand.button, hand.rules, list(record.deck))
    for seat, kind, to in record.actions:
        moved = seat + 1 if seat > hand.button else seat
        assert replay.to_act == moved
        if kind == "fold":
            replay.fold()
        elif kind == "check":
            replay.check()
        elif kind == "call":
            replay.call()
        else:
            replay.bet_or_raise(to)
    return replay


@pytest.mark.parametrize("seed", range(3))
def test_round_trip_and_replay_give_the_engines_hand(seed: int) -> None:
    for hand in _hands(seed, 40, free_folds=True):
        record = HandRecord.of(hand, _names(hand))
        text = record.dumps()
        assert HandRecord.loads(text) == record
        assert HandRecord.loads(text).dumps() == text
        final = record.replay()
        assert final.stacks == hand.stacks
        assert final.board == hand.board and final.hole == hand.hole
        steps = record.steps()
        assert len(steps) == len(hand.actions) + 1
        assert [len(s.actions) for s in steps] == list(range(len(hand.actions) + 1))
        assert steps[-1].stacks == hand.stacks and steps[0].actions == []


def test_of_refuses_a_hand_in_progress_and_loads_refuses_what_is_not_a_record() -> None:
    hand = Hand.deal([100, 100], 0, (5, 10), list(range(52)))
    with pytest.raises(Exception, match="not over"):
        HandRecord.of(hand, ["a", "b"])
    hand.fold()
    good = json.loads(HandRecord.of(hand, ["a", "b"]).dumps())
    for bad in (
        "",
        "[]",
        '{"v": 2}',
        json.dumps({**good, "finishing": [100, 100]}),
        json.dumps({**good, "actions": [[1, "raise", 7]]}),
        json.dumps({**good, "actions": [[0, "fold", 0]]}),
        json.dumps({**good, "starting": [-1, 100]}),
        json.dumps({**good, "names": [1, 2]}),
    ):
        with pytest.raises(ParseError):
            HandRecord.loads(bad)


def test_seat_of_and_what_a_viewer_saw() -> None:
    hand = Hand.deal([100, 0, 100, 100], 0, (5, 10), list(range(52)))
    hand.fold()  # seat 3 (under the gun after the blinds of seats 2 and... )
    while not hand.over:
        hand.check() if hand.legal().can_check else hand.call()
    record = HandRecord.of(hand, ["Ann", "Gone", "Bo", "Cy"])
    assert record.seat_of("Ann") == 0 and record.seat_of("Gone") is None
    assert record.seat_of("Nobody") is None
    folded = next(seat for seat in (0, 2, 3) if hand.folded[seat])
    assert record.seen_by(folded) == set(hand.shown) | {folded}
    text = record.phh(record.names[folded])
    assert text.count("????") == 0  # the other two showed down, the viewer saw their own
    other = next(seat for seat in hand.shown)
    assert record.phh(record.names[other]).count("????") == 1  # the folder's cards
    assert "????" not in record.phh(None)


def test_a_show_or_muck_end_keeps_the_seats_shown_and_hides_a_mucked_hand() -> None:
    hand = Hand.deal([100, 100, 100], 0, (5, 10), list(range(52)))
    while not hand.over:
        hand.check() if hand.legal().can_check else hand.call()
    assert set(hand.shown) == {0, 1, 2}  # the rules show all three hands
    plain = HandRecord.of(hand, ["Ann", "Bo", "Cy"])
    assert "revealed" not in json.loads(plain.dumps()) and plain.shown_seats() == {0, 1, 2}
    first = hand.shown[0]
    record = HandRecord.of(hand, ["Ann", "Bo", "Cy"], revealed=(first,))  # the others mucked
    assert HandRecord.loads(record.dumps()) == record
    assert json.loads(record.dumps())["revealed"] == [first]
    assert record.shown_seats() == {first}
    mucked = next(seat for seat in (0, 1, 2) if seat != first)
    assert record.seen_by(mucked) == {first, mucked}
    assert record.phh(record.names[mucked]).count("????") == 1  # the third's mucked cards
    assert record.phh(record.names[first]).count("????") == 2
    with pytest.raises(ParseError):
        HandRecord.loads(json.dumps({**json.loads(record.dumps()), "revealed": "0"}))


pokerkit = pytest.importorskip("pokerkit")


def _pokerkit_stacks(text: str) -> list[int]:
    from pokerkit import HandHistory

    history = HandHistory.loads(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a free fold: pokerkit warns and takes it
        final = list(history)[-1]
    return list(final.stacks)


def _expected(hand: Hand) -> list[int]:
    return [hand.stacks[seat] for seat in hand.order_from(hand.button)]


@pytest.mark.parametrize("seed", range(3))
def test_phh_for_every_viewer_replays_in_pokerkit_to_the_same_stacks(seed: int) -> None:
    for number, hand in enumerate(_hands(seed, 40, free_folds=True)):
        for variant in (hand, _with_empty_seat(hand)):
            record = HandRecord.of(variant, _names(variant))
            expected = _expected(variant)
            assert _pokerkit_stacks(record.phh(None)) == expected, (seed, number)
            for name in record.names:
                text = record.phh(name)
                assert _pokerkit_stacks(text) == expected, (seed, number, name)


def test_a_free_fold_and_side_pots_replay_in_pokerkit() -> None:
    """Without antes: a stack shorter than the ante is pokerkit's known difference (the
    xfail of tests/holdem/test_phh.py; the engine's own oracle differs there too). One more
    known difference: when free folds leave a side pot with no player who may win it, the
    engine gives it to the pot below and pokerkit loses its chips (its stacks no longer add
    up); such hands are counted, and must have a free fold."""
    seen_free_fold = seen_side_pots = lost_by_pokerkit = 0
    for hand in _hands(11, 120, free_folds=True, antes=(0,)):
        free = _free_folds(hand)
        seen_free_fold += free
        seen_side_pots += len({a.pot for a in hand.awards}) > 1
        record = HandRecord.of(hand, _names(hand))
        replayed = _pokerkit_stacks(record.phh("P0"))
        if sum(replayed) != sum(hand.starting):
            assert free, record.phh(None)
            lost_by_pokerkit += 1
            continue
        assert replayed == _expected(hand)
    assert seen_free_fold and seen_side_pots  # the cases this test is about did happen
    assert lost_by_pokerkit <= 2


def _free_folds(hand: Hand) -> int:
    """How many folds in ``hand`` were made when a check was free."""
    record = HandRecord.of(hand, _names(hand))
    count = 0
    for state, action in zip(record.steps(), hand.actions, strict=False):
        count += action.kind is Kind.FOLD and state.legal().can_check
    return count
