"""``casino draw`` as a user meets it: options, deck-files, end of input, Ctrl-C, ``| head``."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from casino.draw.cli import DeckFileProblem, main, read_deck_file
from casino.draw.validate import parse_positions

from .helpers import cards, draw

SEED_SAMPLE_1 = Path(__file__).parents[2] / "fixtures" / "draw" / "seed-sample-1.txt"


def test_the_same_seed_deals_the_same_game() -> None:
    first = draw("5\nb\n100\nb\n100\n", "--seed", "12")
    assert first == draw("5\nb\n100\nb\n100\n", "--seed", "12")
    assert first.status == 0 and first.err == ""
    assert first.out != draw("5\nb\n100\nb\n100\n", "--seed", "13").out


def test_casino_seed_stands_for_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    seeded = draw("2\nb\n5\nf\n", "--seed", "21")
    monkeypatch.setenv("CASINO_SEED", "21")
    assert draw("2\nb\n5\nf\n") == seeded
    assert draw("2\nb\n5\nf\n", "--seed", "22") != seeded


def test_players_option_skips_the_first_question() -> None:
    run = draw("f\n", "--players", "4")
    assert (run.status, run.out) == (
        0,
        "Do you bet or fold (B or F)?==> You folded! You have 1000 left\n",
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "6"], "draw: argument --players: not a whole number from 2 to 5: '6'"),
        (["--players", "two"], "draw: argument --players: not a whole number: 'two'"),
        (["--banks", "100,0"], "draw: argument --banks: not a whole number of at least 1: '0'"),
        (["--banks", "1,2,3,4,5,6"], "draw: argument --banks: at most 5 banks: '1,2,3,4,5,6'"),
        (["--tiebreak", "best"], "draw: argument --tiebreak: invalid choice: 'best'"),
        (["extra"], "draw: unrecognized arguments: extra"),
    ],
)
def test_a_bad_command_line_is_one_line_and_status_2(args: list[str], message: str) -> None:
    run = draw("", *args)
    assert (run.status, run.out) == (2, "")
    assert run.err.startswith(message) and run.err.endswith(" (see draw --help)\n")
    assert run.err.count("\n") == 1


def test_help_goes_to_stdout_with_status_0() -> None:
    run = draw("", "--help")
    assert run.status == 0 and run.out.startswith("usage: draw ")
    assert "--tiebreak {first,kickers}" in run.out


def test_banks_set_the_starting_chips_and_the_bet_ceiling() -> None:
    run = draw("b\n300\n200\n", "--players", "2", "--banks", "250,100", "--seed", "1")
    assert run.out.startswith(
        "Do you bet or fold (B or F)?==> What's your bet Player_1? (between 1 and 250)==> "
        "300 not between 1 and 250. Try again\n"
    )
    assert "Player_1 bets 200. The pot is at 200 Player_1 has 50 left\nPlayer_2 folds\n" in run.out


def test_a_deck_file_reads_the_seeds_notation_and_comments() -> None:
    deck = read_deck_file(str(SEED_SAMPLE_1))
    assert deck[:5] == cards("7H 5C 9S 7S QS")
    assert len(deck) == len(set(deck)) == 52


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("7H 5C\nXX 2H\n", "deck-file '{}': line 2: not a card: 'XX'"),
        (
            "7H 5C\n# a comment\n7H\n",
            "deck-file '{}': line 3: ('7', 'Hearts') is already on line 1",
        ),
        (
            "[('Eleven', 'Spades')]\n",
            "deck-file '{}': line 1: not a card: \"('Eleven', 'Spades')\"",
        ),
    ],
)
def test_a_malformed_deck_file_names_the_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(content)
    with pytest.raises(DeckFileProblem) as problem:
        read_deck_file(str(path))
    assert str(problem.value) == message.format(path)
    run = draw("", "--deck-file", str(path))
    assert (run.status, run.out, run.err) == (1, "", f"draw: {message.format(path)}\n")


def test_a_deck_file_that_is_not_text_or_not_there_is_one_line(tmp_path: Path) -> None:
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    run = draw("", "--deck-file", str(binary))
    assert (run.status, run.err) == (
        1,
        f"draw: cannot read deck-file '{binary}': not a UTF-8 text file\n",
    )
    run = draw("", "--deck-file", str(tmp_path / "none"))
    assert run.status == 1 and run.err.endswith("No such file or directory\n")


def test_a_short_deck_file_stops_the_game_where_it_runs_out(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_text("2H 7S 9D JC 4C\n3D 8H QS 5S TC\n")
    run = draw("b\n10\n", "--players", "2", "--deck-file", str(path))
    assert run.status == 1
    assert run.out.endswith("Player_2 folds\n")
    assert run.err == f"draw: deck-file '{path}' ran out of cards\n"
    run = draw("", "--players", "3", "--deck-file", str(path))
    assert (run.status, run.out) == (1, "")


@pytest.mark.parametrize(
    "answers", ["", "3\n", "3\nb\n", "3\nb\n10\n", "3\nb\n10\nb\n", "3\nb\n10\nb\nx\n"]
)
def test_end_of_input_at_any_question_ends_the_game_cleanly(answers: str) -> None:
    run = draw(answers, "--seed", "1")
    assert (run.status, run.err) == (0, "")
    assert run.out.endswith("==> \nEnd of input: the game ends with no winner\n")
    assert "winner is" not in run.out


def test_choose_end_of_input_at_the_exchange_question() -> None:
    run = draw("b\n10\n", "--seed", "1", "--players", "2", "--choose")
    assert (run.status, run.err) == (0, "")
    assert run.out.endswith(
        "(up to 3 positions from 1 to 5)==> \nEnd of input: the game ends with no winner\n"
    )


class ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError


def test_a_closed_output_ends_quietly_with_status_1() -> None:
    err = io.StringIO()
    assert main(["--seed", "1"], stdin=io.StringIO("2\n"), stdout=ClosedPipe(), stderr=err) == 1
    assert err.getvalue() == ""


def run_process(
    stdin: bytes, *args: str, pipe_to_head: bool = False
) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "casino.draw", *args]
    if pipe_to_head:
        line = " ".join(command) + " | head -c 20 > /dev/null"
        return subprocess.run(
            ["bash", "-c", line], input=stdin, capture_output=True, timeout=60, check=False
        )
    return subprocess.run(command, input=stdin, capture_output=True, timeout=60, check=False)


def test_as_a_process_garbage_bytes_are_an_invalid_answer(tmp_path: Path) -> None:
    run = run_process(b"\xff\xfe\n5\n\x00\nf\n", "--seed", "2")
    assert run.returncode == 0 and run.stderr == b""
    assert (
        run.stdout.decode().splitlines()[0].endswith("==> Value entered is not an int. Try again")
    )
    assert run.stdout.endswith(b"You folded! You have 1000 left\n")


def test_as_a_process_a_reader_that_leaves_early_gets_no_traceback() -> None:
    run = run_process(b"5\nb\n100\nb\n100\n", "--seed", "2", pipe_to_head=True)
    assert run.stderr == b""


def test_positions_for_choose_are_read_here_and_judged_by_the_table() -> None:
    assert parse_positions("1 3") == [0, 2]
    assert parse_positions("3,1") == [2, 0]
    assert parse_positions("") == []
    for bad in ("x", "1.5", "9" * 30, "1 two"):
        assert parse_positions(bad) is None
