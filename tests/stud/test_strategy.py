"""Our strategy's odds against brute-force enumeration over real cards, and its choices."""

from __future__ import annotations

import itertools
import random

import pytest

from casino.cards import FULL_DECK, Card, Notation
from casino.cards.three import three_card_value
from casino.stud import protocol as wire
from casino.stud.bots import AlwaysCall, Decider, PairOrFold, RandomLegal
from casino.stud.strategy import Strategy, hand_odds


def request(text: str) -> wire.BetRequest:
    parsed = wire.parse_command(text)
    assert isinstance(parsed, wire.BetRequest)
    return parsed


def _score(mine: list[Card], theirs: list[Card]) -> float:
    a, b = three_card_value(mine), three_card_value(theirs)
    return 1.0 if a > b else 0.5 if a == b else 0.0


def brute_bet2(req: wire.BetRequest) -> float:
    """Heads-up after the second up card: every hole card the opponent may have."""
    (theirs,) = [cards for cards in req.table if cards != req.up]
    unseen = [c for c in FULL_DECK if c not in {*req.cards, *theirs}]
    return sum(_score(list(req.cards), [hole, *theirs]) for hole in unseen) / len(unseen)


def brute_bet1(req: wire.BetRequest) -> float:
    """Heads-up before the second up card: our next card, their hole and next card."""
    (theirs,) = [cards for cards in req.table if cards != req.up]
    unseen = [c for c in FULL_DECK if c not in {*req.cards, *theirs}]
    total = count = 0.0
    for ours in unseen:
        rest = [c for c in unseen if c != ours]
        for hole, third in itertools.combinations(rest, 2):
            total += _score([*req.cards, ours], [hole, *theirs, third])
            count += 1
    return total / count


@pytest.mark.parametrize(
    "text",
    [
        "bet2:90:6:0:QH:QD:4C:up:QD:4C:3S:8D",
        "bet2:90:6:0:2H:7D:9C:up:7D:9C:9S:8D",
        "bet2:90:6:0:AH:KD:QC:up:KD:QC:AS:KS",
    ],
)
def test_bet2_win_chance_is_exact(text: str) -> None:
    req = request(text)
    assert hand_odds(req).win == pytest.approx(brute_bet2(req), abs=1e-12)


@pytest.mark.parametrize(
    "text",
    ["bet1:90:6:0:QH:QD:up:QD:3S", "bet1:90:6:0:2H:7D:up:7D:AS", "bet1:90:6:0:5C:JD:up:JD:5S"],
)
def test_bet1_win_chance_matches_enumeration(text: str) -> None:
    req = request(text)
    # exact for the opponent's two unknown cards; our next card's removal from their deck is
    # the only approximation
    assert hand_odds(req).win == pytest.approx(brute_bet1(req), abs=0.01)


def test_spade_chances() -> None:
    # KS in the hole, AS showing: nobody can hold a higher spade in the hole
    assert hand_odds(request("bet1:90:6:0:KS:2D:up:2D:AS:7H")).spade == 1.0
    # 2S in the hole against one opponent: 12 higher spades among 49 unseen cards
    assert hand_odds(request("bet1:90:6:0:2S:3D:up:3D:4H")).spade == pytest.approx(1 - 12 / 49)
    assert hand_odds(request("bet1:90:6:0:2H:3D:up:3D:4H")).no_spade == pytest.approx(1 - 13 / 49)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("bet2:90:6:0:QH:QD:QC:up:QD:QC:3S:8D", "raise"),
        ("bet2:90:14:10:3C:6D:9H:up:AS:AH:6D:9H", "fold"),
        ("bet1:90:4:0:AS:7D:up:7D:3H:5C", "raise"),
        ("bet1:3:20:8:4C:9D:up:9D:JH:QS", "fold"),
        ("bet1:0:3:0:6H:2D:up:2D:KC:8S", "bet:0"),
    ],
)
def test_decisions(text: str, want: str) -> None:
    req = request(text)
    action = Strategy().decide(req)
    if want == "raise":
        assert isinstance(action, wire.Bet) and action.amount > req.to_match
    else:
        assert wire.format_reply(action) == want


def test_every_strategy_is_always_legal() -> None:
    rng = random.Random(7)
    deciders: list[Decider] = [
        Strategy(),
        AlwaysCall(),
        PairOrFold(),
        RandomLegal(random.Random(1)),
    ]
    for _ in range(400):
        cards = rng.sample(FULL_DECK, 12)
        stack, to_match = rng.choice([0, 1, 5, 12, 200]), rng.choice([0, 1, 8, 15])
        text = ":".join(
            [
                "bet2",
                str(stack),
                "30",
                str(to_match),
                *(c.format(Notation.STUD) for c in cards[:3]),
                "up",
                *(c.format(Notation.STUD) for c in [*cards[1:3], *cards[3:11]]),
            ]
        )
        req = request(text)
        for decider in deciders:
            action = decider.decide(req)
            assert isinstance(action, wire.Fold) or wire.legal_bet(action.amount, stack, to_match)
