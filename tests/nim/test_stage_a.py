"""Project A (``--stage a``): the seed's example session, reconstructed as a terminal shows it."""

from __future__ import annotations

from .helpers import nimsys, session


def stars(count: int) -> str:
    return " ".join("*" * count)


def turn(left: int, name: str) -> str:
    return f"\n{left} stones left: {stars(left)}\n{name}'s turn - remove how many?\n"


SEED_INPUT = ["Luke", "Han", "3", "12", "3", "1", "1", "2", "3", "1", "1", "Y"]
SEED_INPUT += ["5", "15", "1", "2", "3", "4", "5", "N"]


def test_the_seeds_example_piped() -> None:
    first = [(12, "Luke"), (9, "Han"), (8, "Luke"), (7, "Han"), (5, "Luke"), (2, "Han")]
    second = [(15, "Luke"), (14, "Han"), (12, "Luke"), (9, "Han"), (5, "Luke")]
    expected = (
        "Welcome to Nim\n"
        "\nPlease enter Player 1's name:\n"
        "\nPlease enter Player 2's name:\n"
        "\nPlease enter upper bound of stone removal:\n"
        "\nPlease enter initial number of stones:\n"
        + "".join(turn(left, name) for left, name in first)
        + turn(1, "Luke")
        + "\nGame Over\nHan wins!\n"
        "\nDo you want to play again (Y/N):"
        "\nPlease enter upper bound of stone removal:\n"
        "\nPlease enter initial number of stones:\n"
        + "".join(turn(left, name) for left, name in second)
        + "\nGame Over\nHan wins!\n"
        "\nDo you want to play again (Y/N):\n"
    )
    assert session(*SEED_INPUT, args=("--stage", "a")) == expected


def test_only_a_capital_y_plays_again() -> None:
    for answer in ("y", "yes", "n", ""):
        out = session("A", "B", "1", "1", "1", answer, "1", "1", args=("--stage", "a"))
        assert out.endswith("B wins!\n\nDo you want to play again (Y/N):\n")


def test_questions_are_asked_again_after_an_unusable_answer() -> None:
    out = session(
        "",
        "  Luke  ",
        "Han",
        "0",
        "x",
        "2",
        "-3",
        "1001",
        "3",
        "4",
        "1",
        "1",
        "1",
        args=("--stage", "a"),
    )
    assert out.startswith(
        "Welcome to Nim\n"
        + "\nPlease enter Player 1's name:\n" * 2
        + "\nPlease enter Player 2's name:\n"
        + "\nPlease enter upper bound of stone removal:\n" * 3
        + "\nPlease enter initial number of stones:\n" * 3
        + turn(3, "Luke")
        + "\nInvalid move. You must remove between 1 and 2 stones.\n"
        + turn(3, "Luke")
    )
    assert out.endswith(
        turn(1, "Luke") + "\nGame Over\nHan wins!\n\nDo you want to play again (Y/N):\n"
    )


def test_end_of_input_anywhere_ends_with_a_newline() -> None:
    for cut in range(len(SEED_INPUT)):
        run = nimsys("".join(line + "\n" for line in SEED_INPUT[:cut]), "--stage", "a")
        assert (run.status, run.err) == (0, "")
        assert run.out.endswith("\n")
        assert run.out.count("Welcome") == 1
