"""Our strategy's odds against brute-force enumeration over real cards, and its choices."""

from __future__ import annotations

import bisect
import itertools
import math
import random

import pytest

from casino.cards import FULL_DECK, Card, Notation
from casino.cards.three import three_card_strength, three_card_value
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


def test_spade_chances_count_every_higher_unseen_spade() -> None:
    # every spade in the hole, against 1 to 3 opponents, with other spades shown or not:
    # exactly the plain formula (higher unseen spades counted one by one, none drawn)
    rng = random.Random(31)
    spades = [card for card in FULL_DECK if card.format(Notation.STUD).endswith("S")]
    for hole in spades:
        for _ in range(6):
            shown = rng.sample([card for card in FULL_DECK if card != hole], rng.randint(2, 4))
            up, *others = (card.format(Notation.STUD) for card in shown)
            text = f"bet1:90:6:0:{hole.format(Notation.STUD)}:{up}:up:{up}:{':'.join(others)}"
            req = request(text)
            seen = {hole, *shown}
            higher = sum(card.rank.number > hole.rank.number for card in spades if card not in seen)
            opponents = len(req.table) - 1
            unseen = 52 - len(seen)
            plain = math.comb(unseen - higher, opponents) / math.comb(unseen, opponents)
            assert hand_odds(req).spade == plain, text


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


def _reference_win(req: wire.BetRequest, seen_before: tuple[Card, ...] = ()) -> float:
    """The win chance as first written: every ordered way of every opponent, a bisection
    per outcome, the plain formula (the fast one must give the very same float)."""
    rank = [card.rank.number for card in FULL_DECK]
    seen = {c.index for cards in (req.cards, seen_before, *req.table) for c in cards}
    counts = [0, 0] + [4] * 13
    for index in seen:
        counts[rank[index]] -= 1
    total = 52 - len(seen)
    opponents = list(req.table)
    opponents.remove(req.up)
    if not opponents:
        return 1.0
    mine = [rank[card.index] for card in req.cards]
    ranks = range(2, 15)
    if len(mine) == 3:
        outcomes = [(1.0, three_card_strength(mine[0], mine[1], mine[2]))]
    else:
        outcomes = [
            (counts[r] / total, three_card_strength(mine[0], mine[1], r))
            for r in ranks
            if counts[r]
        ]

    def distribution(shown: list[int], strong: bool) -> tuple[list[int], list[int], int]:
        if len(shown) == 2:
            ways = [
                (three_card_strength(shown[0], shown[1], r), counts[r])
                for r in ranks
                if not strong or len({r, *shown}) < 3
            ]
        else:
            ways = [
                (three_card_strength(shown[0], f, g), counts[f] * (counts[g] - (f == g)))
                for f in ranks
                for g in ranks
                if not strong or f == shown[0]
            ]
        ways.sort(key=lambda way: way[0])
        running = list(itertools.accumulate(way[1] for way in ways))
        return [way[0] for way in ways], running, running[-1] if running else 0

    def beats(value: int, dist: tuple[list[int], list[int], int]) -> float:
        values, running, ways = dist
        if not ways:
            return 1.0
        low, high = bisect.bisect_left(values, value), bisect.bisect_right(values, value)
        less = running[low - 1] if low else 0
        upto = running[high - 1] if high else 0
        return (less + upto) / (2 * ways)

    shown = [[rank[c.index] for c in cards] for cards in opponents]
    plain = [distribution(s, False) for s in shown]
    strong = [distribution(s, True) for s in shown]
    facing = req.to_match > 0
    chance = 0.0
    for weight, value in outcomes:
        each = [beats(value, dist) for dist in plain]
        product = weight * math.prod(each)
        if facing:
            product *= min(
                (beats(value, dist) / beat if beat else 0.0)
                for dist, beat in zip(strong, each, strict=True)
            )
        chance += product
    return chance


def test_the_win_chance_is_the_very_float_of_the_plain_formula() -> None:
    rng = random.Random(31)
    for _ in range(300):
        round_, players = rng.choice((1, 2)), rng.randint(2, 8)
        cards = rng.sample(FULL_DECK, 1 + round_ * players + 3)
        hole, ups, rest = cards[0], cards[1 : 1 + round_ * players], cards[1 + round_ * players :]
        table = tuple(tuple(ups[i : i + round_]) for i in range(0, len(ups), round_))
        mine = table[rng.randrange(players)]
        req = wire.BetRequest(round_, 50, 9, rng.choice((0, 2)), hole, mine, table)
        seen_before = tuple(rest) if round_ == 2 else ()
        assert hand_odds(req, seen_before).win == _reference_win(req, seen_before)
