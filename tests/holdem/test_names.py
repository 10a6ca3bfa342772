"""Hand names as the seed writes them, and every Gana/Pierde example pair of the seed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casino.cards import parse_cards
from casino.cards.evaluator import evaluate
from casino.holdem.engine import Action, Kind
from casino.holdem.names import hand_name
from casino.holdem.view import action_text
from casino.i18n import translator

EXAMPLES = Path(__file__).parents[2] / "fixtures" / "holdem" / "seed-examples.txt"
ES = translator("holdem", "es")
EN = translator("holdem", "en")


def strength(text: str) -> int:
    return evaluate([card.index for card in parse_cards(text.replace("-", " "))])


@pytest.mark.parametrize(
    ("cards", "spanish", "english"),
    [
        ("10♠ J♠ Q♠ K♠ A♠", "Escalera real de color", "Royal flush"),
        ("5♦ 6♦ 7♦ 8♦ 9♦", "Escalera de color", "Straight flush"),
        ("8♥ 8♦ 8♣ 8♠ 6♥", "Póker", "Four of a kind"),
        ("9♥ 9♦ 9♠ 8♥ 8♠", "Full de nueves y ochos", "Full house, nines over eights"),
        ("5♠ 3♠ A♠ 6♠ 8♠", "Color", "Flush"),
        ("A♥ 2♦ 3♣ 4♠ 5♥", "Escalera al 5", "Straight, five high"),
        ("10♦ J♠ Q♥ K♣ A♠", "Escalera al As", "Straight, ace high"),
        ("5♥ 5♦ 5♠ 9♥ 6♠", "Trío de cincos", "Three of a kind, fives"),
        ("9♥ 9♠ 6♦ 6♠ J♥", "Doble pareja de seises y nueves", "Two pair, nines and sixes"),
        ("10♥ 10♣ J♦ 5♠ Q♦", "Pareja de dieces", "Pair of tens"),
        ("K♥ K♣ J♦ 5♠ Q♦", "Pareja de reyes", "Pair of kings"),
        ("5♦ 3♥ 7♣ J♥ A♠", "Carta más alta: As", "High card: ace"),
        ("5♦ 3♥ 7♣ J♥ Q♠", "Carta más alta: Dama", "High card: queen"),
        ("5♦ 3♥ 7♣ 2♥ 9♠", "Carta más alta: 9", "High card: 9"),
        ("7♥ 7♣ J♦ 5♠ Q♦", "Pareja de sietes", "Pair of sevens"),
        ("A♥ A♣ J♦ 5♠ Q♦", "Pareja de ases", "Pair of aces"),
        ("8♣ 9♠ 10♥ J♦ Q♠", "Escalera a la Dama", "Straight, queen high"),
        ("7♣ 8♠ 9♥ 10♦ J♠", "Escalera a la Jota", "Straight, jack high"),
        ("9♣ 10♠ J♥ Q♦ K♠", "Escalera al Rey", "Straight, king high"),
        ("5♣ 6♠ 7♥ 8♦ 9♠", "Escalera al 9", "Straight, nine high"),
    ],
)
def test_names_in_both_languages(cards: str, spanish: str, english: str) -> None:
    assert hand_name(strength(cards), ES) == spanish
    assert hand_name(strength(cards), EN) == english


def _pairs() -> list[tuple[str, str]]:
    lines = [line for line in EXAMPLES.read_text(encoding="utf-8").splitlines()]
    verdicts = []
    for line in lines:
        match = re.match(r"Ej: (\S+) .*\b(Gana|Pierde)\b", line)
        if match:
            verdicts.append((match.group(1), match.group(2)))
    pairs = []
    evens, odds = verdicts[::2], verdicts[1::2]
    for (first, first_says), (second, second_says) in zip(evens, odds, strict=True):
        assert {first_says, second_says} == {"Gana", "Pierde"}
        pairs.append((first, second) if first_says == "Gana" else (second, first))
    return pairs


def test_the_seed_gives_sixteen_pairs() -> None:
    assert len(_pairs()) == 16


@pytest.mark.parametrize(("winner", "loser"), _pairs())
def test_every_seed_pair_is_ordered_as_the_seed_says(winner: str, loser: str) -> None:
    assert strength(winner) > strength(loser)


def test_the_named_straights_of_the_seed() -> None:
    named = {}
    for line in EXAMPLES.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"Ej: (\S+) (Escalera al \w+)", line)
        if match:
            named[match.group(1)] = match.group(2)
    assert len(named) == 2
    for cards, name in named.items():
        assert hand_name(strength(cards), ES) == name


@pytest.mark.parametrize(
    ("kind", "paid", "to", "all_in", "theirs", "yours"),
    [
        (Kind.FOLD, 0, 0, False, "Ana: se retira", "Te retiras"),
        (Kind.CHECK, 0, 0, False, "Ana: pasa", "Pasas"),
        (Kind.CALL, 10, 10, False, "Ana: va 10", "Vas 10"),
        (Kind.BET, 20, 20, True, "Ana: apuesta 20 (todo)", "Apuestas 20 (todo)"),
        (Kind.RAISE, 50, 60, False, "Ana: sube a 60", "Subes a 60"),
    ],
)
def test_actions_are_said_to_you_and_of_the_others_without_a_gender(
    kind: Kind, paid: int, to: int, all_in: bool, theirs: str, yours: str
) -> None:
    action = Action(0, kind, paid, to, all_in)
    assert action_text(action, "Ana", ES) == theirs
    assert action_text(action, "Tú", ES, you=True) == yours
    english = action_text(action, "You", EN, you=True)
    assert english.startswith("You ") and ":" not in english
    assert ES.gettext("folded") == "se retiró"  # a verb: agrees with Ana and Bruno alike
