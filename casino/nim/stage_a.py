"""Project A: two named players, an upper bound and a stone count, then play again or not.

The session as a terminal shows it (the seed's PDF text lost blank lines and cut the star lines
short; there is one ``*`` per stone)::

    Welcome to Nim

    Please enter Player 1's name:
    Luke

    Please enter Player 2's name:
    Han

    Please enter upper bound of stone removal:
    3

    Please enter initial number of stones:
    12

    12 stones left: * * * * * * * * * * * *
    Luke's turn - remove how many?
    3
    …
    Game Over
    Han wins!

    Do you want to play again (Y/N):Y

    Please enter upper bound of stone removal:

Player 1 moves first in every game. Only ``Y`` plays again; after any other answer (and at the
end of input, anywhere) a newline ends the output and the program.

Choices where the seed is silent (it assumes valid input): a name is the whole line, stripped;
an empty name, or a bound or stone count that is not a whole number in range (bound at least 1,
1 to 1000 stones), asks the same question again. Moves are checked as in Project B and C (``Invalid
move. You must remove between 1 and N stones.``), since Project A's game must stay consistent.
"""

from __future__ import annotations

from casino.errors import ParseError
from casino.nim.nim_game import NimGame
from casino.nim.play import MAX_STONES, Game, Human, NimRules, Seat, play
from casino.numbers import parse_count
from casino.shell import Console

PLAY_AGAIN = "\nDo you want to play again (Y/N):"


def _ask_name(console: Console, number: int) -> str | None:
    while True:
        answer = console.ask(f"\nPlease enter Player {number}'s name:\n")
        if answer is None or answer.strip():
            return None if answer is None else answer.strip()


def _ask_number(console: Console, question: str, most: int | None) -> int | None:
    while True:
        answer = console.ask(f"\n{question}\n")
        if answer is None:
            return None
        try:
            return parse_count(answer, most)
        except ParseError:
            continue


def _one_game(console: Console, seats: tuple[Seat, Seat]) -> bool:
    """Ask for the rules, play one game; False when the input ended."""
    bound = _ask_number(console, "Please enter upper bound of stone removal:", None)
    if bound is None:
        return False
    stones = _ask_number(console, "Please enter initial number of stones:", MAX_STONES)
    if stones is None:
        return False
    return play(console, Game(NimRules(), NimGame(stones, bound), seats)) is not None


def run_project_a(console: Console) -> None:
    """The whole Project A session."""
    console.line("Welcome to Nim")
    names = []
    for number in (1, 2):
        name = _ask_name(console, number)
        if name is None:
            console.line()
            return
        names.append(name)
    human = Human(console)
    seats = (Seat(names[0], names[0], human), Seat(names[1], names[1], human))
    while _one_game(console, seats) and (console.ask(PLAY_AGAIN) or "").strip() == "Y":
        pass
    console.line()
