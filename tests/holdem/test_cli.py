"""``casino holdem`` as a user meets it: arguments, files, end of input, reproducibility."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casino.holdem.cli import main
from casino.programs import load_main, run_captured


def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    done = run_captured(main, args, stdin)
    return done.status, done.out, done.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "10"], "--players"),
        (["--players", "x" * 5000], "--players"),
        (["--blinds", "10/5"], "--blinds: blinds are SMALL/BIG"),
        (["--stack", "100,200"], "--stack gives 2 stacks for 4 players"),
        (["--humans", "5", "--players", "3"], "--humans 5 is more than --players 3"),
        (["--styles", "wild"], "unknown style 'wild'"),
        (["--lang", "fr"], "--lang: invalid choice"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(args: list[str], message: str) -> None:
    status, out, err = run(args)
    assert status == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_deck_file_is_one_line_and_status_1() -> None:
    assert run(["--deck-file", "/nonexistent/deck"]) == (
        1,
        "",
        "holdem: cannot read deck file '/nonexistent/deck': No such file or directory\n",
    )


def test_a_bad_card_in_the_deck_file_is_named(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("AS KS\nAS XX\n", encoding="utf-8")
    status, _, err = run(["--deck-file", str(deck)])
    assert status == 1
    assert err == f"holdem: deck file {str(deck)!r}: line 2: not a card: 'XX'\n"


def test_the_same_seed_and_input_give_the_same_session() -> None:
    args = ["--players", "5", "--seed", "42", "--stack", "200"]
    typed = "ir\npasar\n" * 30
    assert run(args, typed) == run(args, typed)
    assert (
        run(args, typed)[1] != run(["--players", "5", "--seed", "43", "--stack", "200"], typed)[1]
    )


def test_end_of_input_ends_the_game_with_the_chip_count() -> None:
    status, out, err = run(["--players", "3", "--seed", "1", "--lang", "en"])
    assert status == 0 and err == ""
    assert out.endswith("Game over. Chips:\n  You: 1000\n  Ana (bot): 1000\n  Bruno (bot): 1000\n")


def test_casino_holdem_is_a_registered_program() -> None:
    assert load_main("holdem") is main


def test_help_goes_to_stdout() -> None:
    status, out, _ = run(["--help"])
    assert status == 0 and "--deck-file" in out


def test_garbage_typed_is_echoed_harmlessly() -> None:
    status, out, _ = run(["--players", "2", "--seed", "1", "--lang", "en"], "\udcff\x00junk\n")
    assert status == 0
    assert "Not allowed: unknown command: ??junk\n" in out


def test_hot_seat_clears_the_screen_and_the_scrollback_before_each_players_cards() -> None:
    status, out, _ = run(
        ["--players", "2", "--humans", "2", "--lang", "en", "--seed", "3", "--hands", "1"],
        "\ncall\n\ncheck\n" + "\ncheck\n" * 6,
    )
    assert status == 0
    screens = out.split("\x1b[H\x1b[2J\x1b[3J")
    assert len(screens) >= 4 and "Your cards:" not in screens[0]
    shown = [set(re.findall(r"Your cards: ([^\n]*)", screen)) for screen in screens[1:]]
    assert all(len(cards) == 1 for cards in shown), shown  # one player's cards per screen
    assert len(set().union(*shown)) == 2  # and both players had theirs
    assert "\x1b[2J\x1b[H" not in out  # the old clear, which kept the scrollback


def test_an_ante_is_announced_and_taken_from_every_player_before_the_blinds() -> None:
    args = ["--players", "3", "--lang", "en", "--seed", "5", "--hands", "1"]
    status, out, _ = run([*args, "--ante", "7", "--stack", "100"], "fold\n")
    assert status == 0
    assert "blinds 5/10.\nEvery player antes 7.\n" in out
    assert "Pot: 36\n" in out and "  Ana (bot): 88 chips, bet 5\n" in out  # 3 antes of 7, 5 + 10
    plain = run([*args, "--stack", "100"], "fold\n")[1]
    assert "antes" not in plain


@pytest.mark.parametrize("bad", ["-1", "x", "1e9999"])
def test_a_bad_ante_is_one_line_and_status_2(bad: str) -> None:
    status, out, err = run(["--ante", bad])
    assert (status, out) == (2, "") and "--ante" in err and err.count("\n") == 1
