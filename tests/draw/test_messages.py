"""The seed's text, byte for byte, one line per message."""

from __future__ import annotations

import os
import subprocess
import sys

from casino.cards import Category, rank_hand
from casino.draw import messages
from casino.draw.play import NothingLeft
from casino.draw.rules import RANK_NAMES, Bet, Exchange, Fold, Holding, Showdown

from .helpers import cards

SEED_HAND = (
    "[('9', 'Spades'), ('7', 'Spades'), ('Queen', 'Spades'), ('7', 'Diamonds'), ('10', 'Hearts')]"
)


def holding(seat: int, hand: str) -> Holding:
    dealt = tuple(cards(hand))
    return Holding(seat, f"Player_{seat + 1}", dealt, rank_hand(dealt))


def test_the_prompts_are_the_seeds() -> None:
    assert messages.PLAYERS_PROMPT + messages.PROMPT_END == (
        "Enter a number between 2 and 5, inclusive, for # players ==> "
    )
    assert messages.BET_OR_FOLD_PROMPT + messages.PROMPT_END == "Do you bet or fold (B or F)?==> "
    assert messages.bet_prompt("Player_1", 1000) + messages.PROMPT_END == (
        "What's your bet Player_1? (between 1 and 1000)==> "
    )


def test_the_validator_messages_are_the_seeds() -> None:
    assert messages.not_between(9, 2, 5) == "9 not between 2 and 5. Try again"
    assert messages.not_valid_character("e") == (
        "e not one of the valid characters {'B', 'f', 'b', 'F'}. Try again"
    )


def test_bets_folds_and_exchanges_read_as_in_the_seed() -> None:
    hand = tuple(cards("7H 5C 9S 7S QS"))
    assert messages.event_lines(Bet(0, "Player_1", hand, 100, 100, 900)) == [
        "Player_1 cards: [('7', 'Hearts'), ('5', 'Clubs'), ('9', 'Spades'), ('7', 'Spades'), "
        "('Queen', 'Spades')]",
        "Player_1 bets 100. The pot is at 100 Player_1 has 900 left",
    ]
    assert messages.event_lines(Fold(1, "Player_2", 1000)) == ["Player_2 folds"]
    assert messages.event_lines(Fold(0, "Player_1", 800)) == ["You folded! You have 800 left"]
    new = tuple(cards("9S 7S QS 7D TH"))
    assert messages.event_lines(Exchange(0, "Player_1", 2, new)) == [
        "Player Player_1 will exchange 2 cards....",
        f"Player Player_1 hand is now {SEED_HAND}",
    ]
    assert messages.event_lines(Exchange(2, "Player_3", 1, new))[0] == (
        "Player Player_3 will exchange 1 card...."
    )
    assert messages.event_lines(Exchange(4, "Player_5", 0, new))[0] == (
        "Player Player_5 has opted not to exchange any cards (standing pat)"
    )
    assert messages.event_lines(NothingLeft("Player_1")) == ["Player_1 has nothing left to bet"]


def test_the_showdown_reads_as_in_the_seed() -> None:
    first = holding(0, "9S 7S QS 7D TH")
    nothing = holding(3, "TS KC JC 7C 8S")
    lines = messages.event_lines(Showdown((first, nothing), (first,), (1200,)))
    assert lines == [
        "Active players - display the HAND and RANK for each player",
        f"Player Player_1 is holding {SEED_HAND} which is a pair",
        "Player Player_4 is holding [('10', 'Spades'), ('King', 'Clubs'), ('Jack', 'Clubs'), "
        "('7', 'Clubs'), ('8', 'Spades')] which is a Nothing",
        "",
        f"The winner is Player_1 which drew a pair with the hand [{SEED_HAND}]",
    ]


def test_a_split_pot_names_every_winner_hand_and_share() -> None:
    one, three = holding(0, "5H 6C 7D 8S 9H"), holding(2, "5D 6S 7C 8H 9C")
    lines = messages.event_lines(Showdown((one, three), (one, three), (302, 301)))
    assert lines[-2] == (
        "The winners are Player_1 and Player_3 which drew a straight with the hands "
        f"[{messages.hand_text(one.hand)}, {messages.hand_text(three.hand)}]"
    )
    assert lines[-1] == "The pot of 603 is split: Player_1 takes 302, Player_3 takes 301"


def test_every_category_has_a_rank_name_of_the_seeds_form() -> None:
    assert set(RANK_NAMES) == set(Category)
    assert RANK_NAMES[Category.ONE_PAIR] == "a pair"
    assert RANK_NAMES[Category.HIGH_CARD] == "a Nothing"
    assert all(name.startswith("a ") for name in RANK_NAMES.values())


def test_the_valid_characters_do_not_depend_on_the_hash_seed() -> None:
    outputs = set()
    for hash_seed in ("0", "1", "random"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run(
            [sys.executable, "-m", "casino.draw", "--players", "2"],
            input="x\nf\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        outputs.add(run.stdout)
    assert outputs == {
        "Do you bet or fold (B or F)?==> x not one of the valid characters "
        "{'B', 'f', 'b', 'F'}. Try again\nDo you bet or fold (B or F)?==> "
        "You folded! You have 1000 left\n"
    }
