"""The advanced game seen from outside (``casino.nim.duel``): reading a Nimsys console's screens
(only what the assignment fixes: boards, ``Invalid move.``, the winner's line, ``$``; never a
turn prompt's words), and the rules casino plays the rival's side with."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.duel import Screen, Side, Unreadable
from casino.nim.duel import AdvancedGame, OriginalGame, value
from casino.nim.kayles import KaylesGame
from casino.nim.strategy import kayles_move

GAME = AdvancedGame()

START = (
    "\nInitial stone count: 4\nStones display: <1,*> <2,*> <3,*> <4,*>\n"
    "Player 1: Casino Rival\nPlayer 2: Deep Robot\n"
    "\n4 stones left: <1,*> <2,*> <3,*> <4,*>\nCasino's turn - which to remove?\n"
)
"""What casino's own Nimsys prints after ``startadvancedgame 4,rival,ai``."""
AFTER_1_1 = (
    "\n3 stones left: <1,x> <2,*> <3,*> <4,*>\nDeep's turn - which to remove?\n"
    "\n2 stones left: <1,x> <2,*> <3,x> <4,*>\nCasino's turn - which to remove?\n"
)
"""…after the rival's ``1 1``: the AI took stone 3."""
END = (
    "\n1 stones left: <1,x> <2,x> <3,x> <4,*>\nDeep's turn - which to remove?\n"
    "\nGame Over\nDeep Robot wins!\n\n$"
)
"""…after the rival's ``2 1``: the AI takes the last stone."""


def test_the_lines_typed_add_both_players_start_each_game_and_exit() -> None:
    assert list(GAME.opening()) == ["addplayer rival,Rival,Casino", "addaiplayer ai,Robot,Deep"]
    assert GAME.start(7, ai_first=True) == "startadvancedgame 7,ai,rival"
    assert GAME.start(7, ai_first=False) == "startadvancedgame 7,rival,ai"
    assert list(GAME.closing()) == ["exit"]


def test_a_game_read_screen_by_screen() -> None:
    all_there = (True,) * 4
    assert GAME.read("Welcome to Nim\n\n$") == Screen((), prompt=True)
    assert GAME.read(START) == Screen((all_there,))
    boards = ((False, True, True, True), (False, True, False, True))
    assert GAME.read(AFTER_1_1) == Screen(boards)
    last = ((False, False, False, True),)
    assert GAME.read(END) == Screen(last, prompt=True, winner=Side.AI)


@pytest.mark.parametrize("text", [START, AFTER_1_1, END])
def test_a_board_is_read_once_its_line_has_ended(text: str) -> None:
    whole = GAME.read(text)
    for end in range(len(text)):
        part = GAME.read(text[:end])
        ended = text[:end].count("\n")
        complete = [line for line in text.split("\n")[:ended] if "stones left" in line]
        assert len(part.boards) == len(complete), text[:end]
        assert part.boards == whole.boards[: len(part.boards)]
        assert part.prompt == (end > 0 and text[:end].rstrip().endswith("\n$"))


@pytest.mark.parametrize(
    "turn",
    [
        "Casino's turn - which to remove?",
        "Casino's turn - remove how many?",  # a real student's
        "Enter your move, Casino:",
        "",
        "Luke's turn - which to remove?",  # (a player casino did not add: no matter)
    ],
)
def test_the_words_of_a_turn_prompt_are_not_read(turn: str) -> None:
    board = "\n4 stones left: <1,*> <2,*> <3,*> <4,*>\n"
    assert GAME.read(board + turn + "\n") == Screen(((True,) * 4,))
    assert GAME.read(board + turn) == Screen(((True,) * 4,))


def test_spaces_carriage_returns_and_case_do_not_matter() -> None:
    loose = "\r\n4 STONES LEFT:<1,*>  <2,*> <3,*> <4,*>  \r\ncasino's turn - which to remove? \r\n"
    assert GAME.read(loose) == Screen(((True,) * 4,))
    assert GAME.read("invalid move.\n" + loose) == Screen(((True,) * 4,), refused=True)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("\nGame Over\nLuke Skywalker wins!\n\n$", "the winner is a player casino did not add"),
        ("\nGame Over\n\n$", "'Game Over' with no '… wins!' line after it"),
        ("\n3 stones left: <1,*> <3,*>\nCasino's turn - which to remove?\n", "cannot read"),
        ("\n3 stones left: <1,*> <2,*>\nCasino's turn - which to remove?\n", "count is not"),
    ],
)
def test_what_cannot_be_the_game_is_unreadable(text: str, problem: str) -> None:
    with pytest.raises(Unreadable, match=problem):
        GAME.read(text)


def test_the_rules_are_kayles_and_casinos_strategy_wins_from_every_winning_position() -> None:
    for size in range(1, 10):
        for stones in itertools.product((False, True), repeat=size):
            if not any(stones):
                assert GAME.moves(stones) == []
                continue
            moves = GAME.moves(stones)
            assert {GAME.format(m) for m in moves} == {
                str(m) for m in KaylesGame(stones).legal_moves()
            }
            winning = any(not GAME.winning(GAME.after(stones, m)) for m in moves)
            assert GAME.winning(stones) == winning == (value(stones) != 0)
            if winning:
                assert not GAME.winning(GAME.after(stones, kayles_move(stones)))
            ends = any(not any(GAME.after(stones, m)) for m in moves)
            assert GAME.winner(stones, Side.RIVAL) == (Side.RIVAL if ends else None)


ORIGINAL = OriginalGame(bound=3)


def test_the_original_game_is_read_alike_and_taking_the_last_stone_loses() -> None:
    assert ORIGINAL.start(7, ai_first=False) == "startgame 7,3,rival,ai"
    screen = (
        "\nInitial stone count: 7\nMaximum stone removal: 3\n"
        "Player 1: Casino Rival\nPlayer 2: Deep Robot\n"
        "\n7 stones left: * * * * * * *\nCasino's turn - remove how many?\n"
        "\nInvalid move. You must remove between 1 and 3 stones.\n"
        "\n7 stones left: * * * * * * *\nCasino's turn - remove how many?\n"
    )
    assert ORIGINAL.read(screen) == Screen((7, 7), refused=True)
    with pytest.raises(Unreadable, match="count is not its stones"):
        ORIGINAL.read("\n7 stones left: * *\nCasino's turn - remove how many?\n")
    assert [ORIGINAL.winning(n) for n in range(10)] == [n == 0 or n % 4 != 1 for n in range(10)]
    assert list(ORIGINAL.moves(2)) == [1, 2] and ORIGINAL.after(7, 3) == 4
    assert [ORIGINAL.winner(n, Side.AI) for n in (1, 3, 4)] == [Side.RIVAL, Side.RIVAL, None]
    with pytest.raises(ValueError, match="at least 1"):
        OriginalGame(bound=0)


PIECES = [
    "\n",
    "$",
    "Game Over",
    "Deep Robot wins!",
    "Casino Rival wins!",
    "Nobody wins!",
    "Casino's turn - which to remove?",
    "Deep's turn - which to remove?",
    "Deep's turn - remove how many?",
    "Luke's turn - which to remove?",
    "Invalid move.",
    "3 stones left: <1,*> <2,*> <3,*>",
    "2 stones left: <1,x> <2,*> <3,*>",
    "3 stones left: * * *",
    "9" * 5000 + " stones left: <1,*>",
    "1 stones left: <" + "1" * 5000 + ",*>",
    " " * 3000,
    "'s " * 1000,
    "\r",
]


@given(st.lists(st.sampled_from(PIECES), max_size=12), st.sampled_from([GAME, ORIGINAL]))
@settings(max_examples=300)
def test_whatever_a_program_prints_is_a_screen_or_unreadable(
    pieces: list[str], game: AdvancedGame | OriginalGame
) -> None:
    text = "\n".join(pieces)
    try:
        screen = game.read(text)
    except Unreadable as problem:
        assert "\n" not in str(problem) and len(str(problem)) < 200
        return
    assert isinstance(screen, Screen)


def test_a_player_is_known_by_any_of_its_names() -> None:
    for winner in ("Deep Robot", "ROBOT  DEEP", "deep", "ai"):
        screen = GAME.read(f"\nGame Over\n{winner} wins!\n\n$")
        assert screen is not None and screen.winner is Side.AI
