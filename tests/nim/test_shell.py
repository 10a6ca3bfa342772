"""The Project C shell, command by command: exact text, blank lines and prompts."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.nim import storage
from casino.nim.players import Player, PlayerKind

from .helpers import nimsys, session

WELCOME = "Welcome to Nim\n\n$"


def replies(*lines: str) -> list[str]:
    """What each command printed: the text between consecutive prompts."""
    out = session(*lines)
    assert out.startswith(WELCOME)
    return out[len(WELCOME) :].split("\n$")


def test_empty_session_and_exit() -> None:
    assert session("exit") == WELCOME + "\n"
    assert session() == WELCOME + "\n"  # end of input acts as exit


def test_unknown_commands_and_blank_lines() -> None:
    assert replies("createplayer a,b,c", "", "   ", "Addplayer a,b,c", "exit") == [
        "'createplayer' is not a valid command.\n",
        "",
        "",
        "'Addplayer' is not a valid command.\n",
        "\n",
    ]


@pytest.mark.parametrize(
    "line",
    [
        "addplayer",
        "addplayer a",
        "addplayer a,b",
        "addplayer a,,c",
        "addplayer a, ,c",
        "addaiplayer a,b",
        "editplayer a,b",
        "startgame 10,3,a",
        "startadvancedgame 10,a",
    ],
)
def test_missing_arguments(line: str) -> None:
    assert replies(line, "exit")[0] == "Incorrect number of arguments supplied to command.\n"


def test_add_edit_display_remove() -> None:
    assert replies(
        "addplayer lskywalker,Skywalker,Luke",
        "addplayer lskywalker,Other,Name",
        "addaiplayer lskywalker,Other,Name",
        "addaiplayer artoo , D2 , R2 , extra",
        "displayplayer",
        "editplayer lskyrunner,Skywalker,Laurence",
        "editplayer lskywalker,Skywalker,Laurence",
        "displayplayer lskywalker",
        "displayplayer lskyrunner",
        "removeplayer lskyrunner",
        "removeplayer artoo",
        "displayplayer",
        "exit",
    ) == [
        "",
        "The player already exists.\n",
        "The player already exists.\n",
        "",
        "artoo,R2,D2,0 games,0 wins\nlskywalker,Luke,Skywalker,0 games,0 wins\n",
        "The player does not exist.\n",
        "",
        "lskywalker,Laurence,Skywalker,0 games,0 wins\n",
        "The player does not exist.\n",
        "The player does not exist.\n",
        "",
        "lskywalker,Laurence,Skywalker,0 games,0 wins\n",
        "\n",
    ]


def test_confirmations_accept_y_and_decline_anything_else() -> None:
    question = "Are you sure you want to remove all players? (y/n)\n"
    assert replies(
        "addplayer a,A,Aa",
        "removeplayer",
        "n",
        "removeplayer",
        "displayplayer",  # an answer, not a command: declines
        "displayplayer",
        "removeplayer",
        "Y",
        "displayplayer",
        "exit",
    ) == ["", question, question, "a,Aa,A,0 games,0 wins\n", question, "", "\n"]


def test_reset_stats_one_and_all() -> None:
    question = "Are you sure you want to reset all player statistics? (y/n)\n"
    out = replies(
        "addplayer a,A,Aa",
        "addplayer b,B,Bb",
        "startgame 1,1,a,b",
        "1",
        "startgame 1,1,b,a",
        "1",
        "resetstats nobody",
        "resetstats a",
        "displayplayer",
        "resetstats",
        "y",
        "displayplayer",
        "exit",
    )
    assert out[4:] == [
        "The player does not exist.\n",
        "",
        "a,Aa,A,0 games,0 wins\nb,Bb,B,2 games,1 wins\n",
        question,
        "a,Aa,A,0 games,0 wins\nb,Bb,B,0 games,0 wins\n",
        "\n",
    ]


def test_a_game_as_the_seed_shows_it() -> None:
    out = replies(
        "addplayer lskywalker,Skywalker,Luke",
        "addplayer hsolo,Solo,Han",
        "startgame 10,3,lskyrunner,hsolo",
        "startgame 10,3,lskywalker,hsolo",
        "3",
        "4",
        "3",
        "3",
        "0",
        "1",
        "exit",
    )
    assert out[2] == "One of the players does not exist.\n"
    assert out[3] == (
        "\nInitial stone count: 10\nMaximum stone removal: 3\n"
        "Player 1: Luke Skywalker\nPlayer 2: Han Solo\n"
        "\n10 stones left: * * * * * * * * * *\nLuke's turn - remove how many?\n"
        "\n7 stones left: * * * * * * *\nHan's turn - remove how many?\n"
        "\nInvalid move. You must remove between 1 and 3 stones.\n"
        "\n7 stones left: * * * * * * *\nHan's turn - remove how many?\n"
        "\n4 stones left: * * * *\nLuke's turn - remove how many?\n"
        "\n1 stones left: *\nHan's turn - remove how many?\n"
        "\nInvalid move. You must remove between 1 and 1 stones.\n"
        "\n1 stones left: *\nHan's turn - remove how many?\n"
        "\nGame Over\nLuke Skywalker wins!\n"
    )


@pytest.mark.parametrize(
    "move", ["abc", "2.5", "", "  ", "-1", "0", "4", "1 1", "٣", "99999999999999999999"]
)
def test_every_bad_move_gets_the_same_message(move: str) -> None:
    out = replies("addplayer a,A,Aa", "addplayer b,B,Bb", "startgame 5,3,a,b", move, "exit")
    assert out[2].split("\n")[8:12] == [
        "",
        "Invalid move. You must remove between 1 and 3 stones.",
        "",
        "5 stones left: * * * * *",
    ]


def test_game_settings_that_make_no_game() -> None:
    lines = ["addplayer a,A,Aa", "addplayer b,B,Bb"]
    stones = "The initial stone count must be a whole number from 1 to 1000.\n"
    bound = "The upper bound must be a whole number of at least 1.\n"
    assert replies(
        *lines,
        "startgame 0,3,a,b",
        "startgame x,3,a,b",
        "startgame 1001,3,a,b",
        "startgame 10,0,a,b",
        "startgame 10,2.5,a,b",
        "startgame 10,3,a,a",
        "startgame 0,0,a,zed",
        "startadvancedgame 0,a,b",
        "startadvancedgame 5,b,b",
        "exit",
    )[2:] == [
        stones,
        stones,
        stones,
        bound,
        bound,
        "A player cannot play against themselves.\n",
        "One of the players does not exist.\n",
        stones,
        "A player cannot play against themselves.\n",
        "\n",
    ]


def test_huge_upper_bound_is_only_limited_by_the_stones_left() -> None:
    out = replies("addplayer a,A,Aa", "addplayer b,B,Bb", "startgame 3,1000000,a,b", "4", "exit")
    assert "Maximum stone removal: 1000000\n" in out[2]
    assert "Invalid move. You must remove between 1 and 3 stones.\n" in out[2]


def test_ai_game_prints_no_input_and_wins() -> None:
    out = replies(
        "addplayer lskywalker,Skywalker,Luke",
        "addaiplayer artoo,D2,R2",
        "startgame 10,3,lskywalker,artoo",
        "3",
        "3",
        "1",
        "rankings",
        "exit",
    )
    assert out[2] == (
        "\nInitial stone count: 10\nMaximum stone removal: 3\n"
        "Player 1: Luke Skywalker\nPlayer 2: R2 D2\n"
        "\n10 stones left: * * * * * * * * * *\nLuke's turn - remove how many?\n"
        "\n7 stones left: * * * * * * *\nR2's turn - remove how many?\n"
        "\n5 stones left: * * * * *\nLuke's turn - remove how many?\n"
        "\n2 stones left: * *\nR2's turn - remove how many?\n"
        "\n1 stones left: *\nLuke's turn - remove how many?\n"
        "\nGame Over\nR2 D2 wins!\n"
    )
    assert out[3] == "100% | 01 games | R2 D2\n0%   | 01 games | Luke Skywalker\n"


def test_two_ai_players_play_a_whole_game_without_input() -> None:
    out = replies("addaiplayer a,A,Aa", "addaiplayer b,B,Bb", "startgame 9,3,a,b", "exit")
    assert out[2].endswith("\nGame Over\nBb B wins!\n")  # 9 = 2·4+1: the first player loses
    out = replies("startadvancedgame 12,a,b", "displayplayer", "exit")
    assert out[0].endswith("\nGame Over\nAa A wins!\n")  # the first player wins Kayles
    assert out[1] == "a,Aa,A,2 games,1 wins\nb,Bb,B,2 games,1 wins\n"


def test_the_seeds_advanced_game_invalid_moves() -> None:
    out = session(
        "addplayer lskywalker,Skywalker,Luke",
        "addplayer hsolo,Solo,Han",
        "startadvancedgame 10,lskywalker,hsolo",
        "2 2",
        "6 2",
        *["12 1", "1 3", "2 2", "3 1", "x y", "1", "", "1 2 3", "1.5 1", "0 1", "10 2"],
        "4 1",
    )
    board = "6 stones left: <1,*> <2,x> <3,x> <4,*> <5,*> <6,x> <7,x> <8,*> <9,*> <10,*>\n"
    again = "\nInvalid move.\n\n" + board + "Luke's turn - which to remove?\n"
    assert out.endswith(
        "\n" + board + "Luke's turn - which to remove?\n" + again * 11 + "\n5 stones left: "
        "<1,*> <2,x> <3,x> <4,x> <5,*> <6,x> <7,x> <8,*> <9,*> <10,*>\n"
        "Han's turn - which to remove?\n\n"
    )
    assert out.startswith(
        WELCOME + "\n$\n$\nInitial stone count: 10\n"
        "Stones display: <1,*> <2,*> <3,*> <4,*> <5,*> <6,*> <7,*> <8,*> <9,*> <10,*>\n"
        "Player 1: Luke Skywalker\nPlayer 2: Han Solo\n\n10 stones left: <1,*>"
    )


def test_the_seeds_advanced_game_against_the_ai() -> None:
    out = replies(
        "addplayer lskywalker,Skywalker,Luke",
        "addaiplayer artoo,D2,R2",
        "startadvancedgame 10,lskywalker,artoo",
        "3 2",
        "1 2",
        "5 1",
        "exit",
    )
    boards = [line for line in out[2].split("\n") if "stones left" in line]
    assert [board.split(":")[0] for board in boards] == [
        f"{n} stones left" for n in (10, 8, 6, 4, 2, 1)
    ]
    assert out[2].endswith("R2's turn - which to remove?\n\nGame Over\nR2 D2 wins!\n")


def test_end_of_input_in_a_game_abandons_it() -> None:
    out = session("addplayer a,A,Aa", "addplayer b,B,Bb", "startgame 5,3,a,b", "1")
    assert out.endswith("\n4 stones left: * * * *\nBb's turn - remove how many?\n\n")
    assert [p.played for p in storage.load(Path("players.dat")).players] == [0, 0]


def test_rankings_order_ties_rounding_and_top_ten() -> None:
    players = [Player(f"u{n:02d}", f"F{n}", f"G{n}", PlayerKind.HUMAN, 8, n % 9) for n in range(12)]
    players.append(Player("half", "H", "Half", PlayerKind.AI, 8, 1))  # 12.5% rounds up to 13%
    players.append(Player("aaa", "A", "Zero", PlayerKind.HUMAN, 0, 0))
    storage.save(Path("players.dat"), players)
    desc, asc, word, extra = replies(
        "rankings", "rankings  asc ", "rankings desc", "rankings asc,desc", "exit"
    )[:4]
    assert desc == word
    assert asc == extra
    assert desc.splitlines() == [
        "100% | 08 games | G8 F8",
        "88%  | 08 games | G7 F7",
        "75%  | 08 games | G6 F6",
        "63%  | 08 games | G5 F5",
        "50%  | 08 games | G4 F4",
        "38%  | 08 games | G3 F3",
        "25%  | 08 games | G2 F2",
        "25%  | 08 games | G11 F11",
        "13%  | 08 games | Half H",
        "13%  | 08 games | G1 F1",
    ]
    assert asc.splitlines()[:6] == [
        "0%   | 00 games | Zero A",
        "0%   | 08 games | G0 F0",
        "0%   | 08 games | G9 F9",
        "13%  | 08 games | Half H",
        "13%  | 08 games | G1 F1",
        "13%  | 08 games | G10 F10",
    ]


def test_unicode_names_are_kept_and_saved() -> None:
    out = replies("addplayer zoë,Brontë,Zoë 🎲", "displayplayer", "rankings", "exit")
    assert out[1:3] == ["zoë,Zoë 🎲,Brontë,0 games,0 wins\n", "0%   | 00 games | Zoë 🎲 Brontë\n"]
    assert replies("displayplayer zoë", "exit")[0] == "zoë,Zoë 🎲,Brontë,0 games,0 wins\n"


def test_project_b_knows_no_ai_and_keeps_nothing() -> None:
    out = session(
        "addaiplayer artoo,D2,R2",
        "startadvancedgame 5,a,b",
        "addplayer a",
        "exit",
        args=("--stage", "b"),
    )
    assert out == WELCOME + (
        "'addaiplayer' is not a valid command.\n\n$"
        "'startadvancedgame' is not a valid command.\n\n$"
        "Incorrect number of arguments supplied to command.\n\n$\n"
    )
    assert not Path("players.dat").exists()


def test_same_input_same_output_whatever_the_seed() -> None:
    text = "addaiplayer a,A,Aa\naddplayer b,B,Bb\nstartadvancedgame 11,b,a\n1 1\n3 1\n5 1\n"
    first = nimsys(text, "--seed", "1").out
    Path("players.dat").unlink()
    assert nimsys(text, "--seed", "2").out == first
