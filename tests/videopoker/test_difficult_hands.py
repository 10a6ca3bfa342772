"""The seed's 81 difficult hands: the advice keeps the seed's cards, by the seed's rule.

Each row is the seed's hand, the cards its answer keeps, and its answer's wording ("Keep …").
Two rows of the seed contradict the seed's own list, and there the list wins (the course's
cmd-file for these hands holds the same cards as the list does):

- hand 34, 8♠ 9♣ J♦ Q♦ 4♦: the seed says "3 to a flush with 2 high cards", but J♦ Q♦ is
  "QJ suited", line 16, above line 17 (and hand 30, Q♦ J♦ 7♦, keeps QJ suited);
- hand 49, 6♠ 7♣ 8♦ T♥ J♥: the seed says "JT suited" (line 23), but 7 8 T J is "4 to an
  inside straight with 1 high card", line 21 (the seed only weighed 6 7 8 T).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.cards import parse_cards
from casino.videopoker.strategy import Rule, advise

FIXTURES = Path(__file__).parents[2] / "fixtures" / "videopoker" / "difficult-hands"

# (number, hand, cards kept, the seed's "Keep ..." wording)
DIFFICULT_HANDS = [
    (1, "K♣ Q♣ J♣ T♣ 9♣", "K♣ Q♣ J♣ T♣ 9♣", "the straight flush"),
    (2, "A♦ K♦ Q♠ J♦ T♦", "A♦ K♦ J♦ T♦", "4 to a royal flush"),
    (3, "A♠ K♠ J♠ T♠ 9♠", "A♠ K♠ J♠ T♠", "4 to a royal flush"),
    (4, "A♥ A♦ A♠ 2♣ 2♠", "A♥ A♦ A♠", "the three aces"),
    (5, "4♣ 4♠ 4♥ 5♦ 5♣", "4♣ 4♠ 4♥ 5♦ 5♣", "the Full House"),
    (6, "5♠ 6♠ 7♠ 8♠ J♠", "5♠ 6♠ 7♠ 8♠ J♠", "the flush"),
    (7, "3♦ 4♥ 5♥ 6♥ 7♥", "3♦ 4♥ 5♥ 6♥ 7♥", "the straight"),
    (8, "A♣ K♦ Q♦ J♦ T♠", "A♣ K♦ Q♦ J♦ T♠", "the straight"),
    (9, "K♣ Q♣ J♣ 9♣ 4♦", "K♣ Q♣ J♣ 9♣", "4 to a straight flush"),
    (10, "A♥ A♠ K♦ K♠ Q♠", "A♥ A♠ K♦ K♠", "the two pair"),
    (11, "J♣ J♦ 4♦ 7♦ 9♦", "J♣ J♦", "High pair"),
    (12, "Q♠ Q♥ J♥ A♥ 2♣", "Q♠ Q♥", "High pair"),
    (13, "8♣ J♣ Q♣ K♣ 9♥", "8♣ J♣ Q♣ K♣", "the 4 to a flush"),
    (14, "2♠ 5♠ 7♠ 9♠ 7♥", "2♠ 5♠ 7♠ 9♠", "4 to a flush"),
    (15, "T♦ J♦ Q♣ K♦ 5♠", "T♦ J♦ K♦", "3 to a royal flush"),
    (16, "T♥ Q♥ A♥ T♦ 8♣", "T♥ Q♥ A♥", "3 to a royal flush"),
    (17, "7♣ 7♦ 8♥ 9♠ T♦", "7♦ 8♥ 9♠ T♦", "4 to an outside straight"),
    (18, "7♦ 8♦ 9♦ T♠ 4♥", "7♦ 8♦ 9♦ T♠", "4 to an outside straight"),
    (19, "7♣ 7♦ 8♦ 9♦ 3♠", "7♣ 7♦", "the low pair"),
    (20, "K♠ Q♦ J♣ 9♥ 9♣", "9♥ 9♣", "the low pair"),
    (21, "A♣ K♦ Q♥ J♥ 8♥", "A♣ K♦ Q♥ J♥", "AKQJ unsuited"),
    (22, "A♣ K♦ Q♥ J♥ 9♠", "A♣ K♦ Q♥ J♥", "AKQJ unsuited"),
    (23, "A♣ K♦ Q♥ J♥ 2♣", "A♣ K♦ Q♥ J♥", "AKQJ unsuited"),
    (24, "2♥ Q♠ J♠ 9♦ 8♠", "Q♠ J♠ 8♠", "3 to a straight flush (type 1)"),
    (25, "8♥ T♥ J♥ 3♠ 5♦", "8♥ T♥ J♥", "3 to a straight flush (type 1)"),
    (26, "K♠ Q♦ J♦ 9♥ 7♣", "K♠ Q♦ J♦ 9♥", "4 to an inside straight with 3 high cards"),
    (27, "A♥ K♣ Q♣ T♦ 6♣", "A♥ K♣ Q♣ T♦", "4 to an inside straight with 3 high cards"),
    (28, "K♥ Q♠ J♠ 9♦ 3♣", "K♥ Q♠ J♠ 9♦", "4 to an inside straight with 3 high cards"),
    (29, "K♣ Q♥ J♠ 9♥ 8♥", "K♣ Q♥ J♠ 9♥", "4 to an inside straight with 3 high cards"),
    (30, "Q♦ J♦ 7♦ 5♥ 4♠", "Q♦ J♦", "QJ suited"),
    (31, "8♠ 9♥ J♦ Q♦ 2♣", "J♦ Q♦", "QJ suited"),
    (32, "Q♠ J♠ 2♥ 3♥ 4♥", "Q♠ J♠", "QJ suited"),
    (33, "K♥ J♥ 3♥ 5♠ 6♣", "K♥ J♥ 3♥", "3 to a flush with 2 high cards"),
    (34, "8♠ 9♣ J♦ Q♦ 4♦", "J♦ Q♦", "3 to a flush with 2 high cards"),
    (35, "2♣ 3♦ 5♥ J♣ A♣", "2♣ J♣ A♣", "3 to a flush with 2 high cards"),
    (36, "K♥ J♥ T♠ 9♦ 6♣", "K♥ J♥", "2 suited high cards"),
    (37, "A♣ J♣ 2♠ 3♠ 5♠", "A♣ J♣", "2 suited high cards"),
    (38, "8♦ 9♦ J♥ Q♦ 4♣", "8♦ 9♦ J♥ Q♦", "4 to an inside straight with 2 high cards"),
    (39, "8♠ 9♦ J♦ Q♥ 3♦", "8♠ 9♦ J♦ Q♥", "4 to an inside straight with 2 high cards"),
    (40, "8♣ 9♣ T♦ Q♣ 2♥", "8♣ 9♣ Q♣", "3 to a straight flush (type 2)"),
    (41, "7♣ 8♥ T♦ J♦ 4♠", "7♣ 8♥ T♦ J♦", "4 to an inside straight with 1 high card"),
    (42, "7♦ 8♣ 9♠ J♦ 2♦", "7♦ 8♣ 9♠ J♦", "4 to an inside straight with 1 high card"),
    (43, "A♦ 2♣ 4♣ 5♣ 7♠", "2♣ 4♣ 5♣", "3 to a straight flush (type 2)"),
    (44, "Q♥ J♠ T♠ 2♦ 4♣", "J♠ T♠", "JT suited"),
    (45, "J♥ T♥ 6♥ 7♠ 2♦", "J♥ T♥", "JT suited"),
    (46, "J♦ T♦ 2♣ 4♣ 6♣", "J♦ T♦", "JT suited"),
    (47, "J♠ T♠ K♣ 3♦ 7♥", "J♠ T♠", "JT suited"),
    (48, "J♣ T♣ A♥ 4♦ 6♠", "J♣ T♣", "JT suited"),
    (49, "6♠ 7♣ 8♦ T♥ J♥", "7♣ 8♦ T♥ J♥", "JT suited"),
    (50, "J♦ T♦ 2♣ 5♣ 7♣", "J♦ T♦", "JT suited"),
    (51, "Q♣ J♥ 9♥ 4♥ 2♠", "Q♣ J♥", "QJ unsuited"),
    (52, "Q♣ J♦ T♣ 3♠ 5♥", "Q♣ J♦", "QJ unsuited"),
    (53, "Q♠ J♦ 5♥ 6♥ 9♥", "Q♠ J♦", "QJ unsuited"),
    (54, "A♦ Q♣ J♠ 4♥ 7♠", "Q♣ J♠", "QJ unsuited"),
    (55, "Q♣ J♥ 2♦ 5♦ 7♦", "Q♣ J♥", "QJ unsuited"),
    (56, "7♣ T♣ Q♣ 3♥ 2♦", "7♣ T♣ Q♣", "3 to a flush with 1 high card"),
    (57, "K♠ Q♥ 8♥ 5♥ 2♣", "Q♥ 8♥ 5♥", "3 to a flush with 1 high card"),
    (58, "A♦ 5♦ 9♦ 8♠ 6♥", "A♦ 5♦ 9♦", "3 to a flush with 1 high card"),
    (59, "7♣ T♣ K♣ 3♥ 2♦", "7♣ T♣ K♣", "3 to a flush with 1 high card"),
    (60, "6♣ 7♠ 9♣ T♥ K♣", "6♣ 9♣ K♣", "3 to a flush with 1 high card"),
    (61, "Q♥ T♥ 2♣ 4♣ 6♣", "Q♥ T♥", "QT suited"),
    (62, "K♥ Q♠ T♠ 4♣ 5♦", "Q♠ T♠", "QT suited"),
    (63, "A♣ Q♦ T♦ 6♠ 9♥", "Q♦ T♦", "QT suited"),
    (64, "Q♦ T♦ 8♥ 7♣ 6♠", "Q♦ T♦", "QT suited"),
    (65, "Q♠ T♠ 3♥ 7♥ 8♥", "Q♠ T♠", "QT suited"),
    (66, "5♣ 6♣ 9♣ K♦ Q♥", "5♣ 6♣ 9♣", "3 to a straight flush (type 3)"),
    (67, "3♥ 5♥ 7♥ J♠ 8♦", "3♥ 5♥ 7♥", "3 to a straight flush (type 3)"),
    (68, "2♣ 3♣ 6♣ T♦ K♦", "2♣ 3♣ 6♣", "3 to a straight flush (type 3)"),
    (69, "2♦ 3♦ 5♥ 6♦ 9♠", "2♦ 3♦ 6♦", "3 to a straight flush (type 3)"),
    (70, "A♦ K♣ J♠ 7♥ 4♣", "K♣ J♠", "KQ, KJ unsuited"),
    (71, "K♣ Q♥ T♣ 4♦ 6♠", "K♣ Q♥", "KQ, KJ unsuited"),
    (72, "K♥ J♠ 3♦ 8♦ 9♦", "K♥ J♠", "KQ, KJ unsuited"),
    (73, "A♣ K♥ T♥ 4♠ 5♦", "A♣", "Ace"),
    (74, "A♣ J♥ 5♠ 8♦ 9♣", "A♣", "Ace"),
    (75, "A♦ 5♥ 6♠ 7♥ 9♦", "A♦", "Ace"),
    (76, "A♠ 2♣ 5♣ 9♣ 6♥", "A♠", "Ace"),
    (77, "K♦ 6♣ 7♠ 9♥ T♦", "K♦ T♦", "KT suited"),
    (78, "K♣ T♣ 3♥ 5♥ 8♥", "K♣ T♣", "KT suited"),
    (79, "J♥ 2♠ 3♣ 4♦ 6♥", "J♥", "Jack/Queen/King"),
    (80, "Q♣ 2♥ 5♥ 7♥ 9♠", "Q♣", "Jack/Queen/King"),
    (81, "2♦ 3♠ 5♣ 6♣ T♣", "2♦ 3♠ 5♣ 6♣", "4 to an inside straight with no high cards"),
]

LIST_WINS = {34: Rule.QJ_SUITED, 49: Rule.INSIDE_4_HIGH_1}
"""Where the seed's answer contradicts the seed's list (see the module docstring)."""

_WORDING = {
    "the straight flush": Rule.MADE_TOP,
    "the three aces": Rule.THREE_ACES,
    "the Full House": Rule.MADE_HAND,
    "the flush": Rule.MADE_HAND,
    "the straight": Rule.MADE_HAND,
    "the two pair": Rule.TWO_PAIR,
    "the 4 to a flush": Rule.FLUSH_4,
    "the low pair": Rule.LOW_PAIR,
    "Jack/Queen/King": Rule.JACK_QUEEN_KING,
}


def seed_rule(number: int, wording: str) -> Rule:
    """The rule the seed's answer names (the list's own rule for hands 34 and 49)."""
    return LIST_WINS.get(number) or _WORDING.get(wording) or Rule(wording)


@pytest.mark.parametrize(("number", "hand", "kept", "wording"), DIFFICULT_HANDS)
def test_difficult_hand_keeps_the_seed_answer(
    number: int, hand: str, kept: str, wording: str
) -> None:
    cards = parse_cards(hand)
    advice = advise(cards)
    assert advice.cards(cards) == tuple(parse_cards(kept))
    assert advice.rule is seed_rule(number, wording)


def test_the_table_has_all_81_hands() -> None:
    assert [row[0] for row in DIFFICULT_HANDS] == list(range(1, 82))


def course_holds() -> list[tuple[str, list[int]]]:
    """Each hand of the course's difficult-hands files with the positions its cmd-file holds."""
    rows = []
    for part in (1, 2):
        card_lines = (FIXTURES / f"card-file{part}.txt").read_text().splitlines()
        cmd_lines = (FIXTURES / f"cmd-file{part}.txt").read_text().splitlines()
        for cards, command in zip(card_lines, cmd_lines, strict=False):
            if cards.split():
                hand = " ".join(cards.split()[:5])
                rows.append((hand, [int(p) for p in command.split("h", 1)[1].split()]))
    return rows


def test_course_cmd_files_hold_what_the_strategy_advises() -> None:
    rows = course_holds()
    assert len(rows) == 81
    for (hand, holds), (_, seed_hand, _, _) in zip(rows, DIFFICULT_HANDS, strict=True):
        assert parse_cards(hand) == parse_cards(seed_hand)
        assert [p + 1 for p in advise(parse_cards(hand)).held] == holds, hand
