"""Video poker's debug mode (Double Bonus 10/7, ``-d credit cmd-file card-file``) sessions.

A session is one run with two generated files: the cmd-file (the units: a hand ``b [N]``,
``d``, ``h [positions]``, or a lone ``$``, or a command at the wrong moment) and the
card-file (:attr:`Session.data`: cards in the order they are dealt, any ten in a row
different, so no hand ever holds a card twice; enough for every hand). The credit is 10,000,
so it never runs out. What the model keeps out, as the assignment does not fix it:

- ``a`` (advice: where two holds are worth the same, the assignment's list and a program may
  choose either) and ``s`` (the statistics table's layout is casino's reading);
- a ``d`` with no ``b`` since the last hand (whether it re-bets or is refused is open);
- an unknown word, arguments a command does not take, a hold position that is not a distinct
  1–5 (casino's own ``h: illegal position``);
- a cmd-file that ends between a deal and its hold, and a card-file that runs out.

What stays in is fixed by the assignment and the course's example: ``b`` 1–5 (``b 0``,
``b 6``, ``b 10``: ``b: illegal amount``), ``b`` after a deal and ``h``/``d`` at the wrong
moment (``<word>: illegal command``), ``$`` at any moment, every hand's result line.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from casino.explore.plan import Rendered, RunInput, Session, Unit, smaller_numbers

CREDIT = "10000"
RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)
COMMAND = re.compile(r"b|b [0-9]{1,2}|d|h( [1-5])*|\$")
CARDS_PER_HAND = 10


@dataclass(frozen=True)
class VideoPokerGrammar:
    """Debug-mode sessions of the Double Bonus 10/7 assignment."""

    name = "videopoker"
    program = "videopoker"
    about = "Double Bonus video poker, debug mode: generated cmd-file and card-file pairs"

    def generate(self, rng: random.Random, size: int) -> Session:
        """Up to ``size`` units, and cards for every hand."""
        units = [_unit(rng) for _ in range(rng.randint(1, size))]
        hands = sum(unit.count("d") for unit in units)
        return Session((tuple(units),), _cards(rng, CARDS_PER_HAND * (hands + 1)))

    def render(self, session: Session) -> Rendered:
        """The two files, and the arguments naming them."""
        commands = " ".join(line for run in session.runs for unit in run for line in unit)
        args = ("-d", CREDIT, "cmd-file.txt", "card-file.txt")
        files = (
            ("cmd-file.txt", commands + "\n"),
            ("card-file.txt", " ".join(session.data) + "\n"),
        )
        return Rendered((RunInput(args, ()),), files)

    def unpinned(self, session: Session) -> str | None:
        """Why the session leaves what the assignment fixes (``None``: it does not)."""
        state, cards = "idle", 0
        for run in session.runs:
            for unit in run:
                for line in unit:
                    if not COMMAND.fullmatch(line):
                        return f"not a command explore types: {line!r}"
                    word, *numbers = line.split()
                    if word == "h" and len(set(numbers)) != len(numbers):
                        return f"{line!r}: a position twice"
                    if word == "b" and state != "dealt":
                        state = "bet" if not numbers or 1 <= int(numbers[0]) <= 5 else state
                    elif word == "d" and state == "idle":
                        return "a deal with no bet since the last hand"
                    elif word == "d" and state == "bet":
                        state, cards = "dealt", cards + 5
                    elif word == "h" and state == "dealt":
                        state, cards = "idle", cards + 5 - len(numbers)
        if state == "dealt":
            return "the cmd-file ends between a deal and its hold"
        if cards > len(session.data):
            return "the card-file runs out"
        return None

    def simpler(self, session: Session) -> Iterator[Session]:
        """Fewer cards at the end, then smaller numbers."""
        for keep in (len(session.data) // 2, len(session.data) - 5):
            if keep >= 0:
                yield Session(session.runs, session.data[:keep])
        yield from smaller_numbers(session)


def _unit(rng: random.Random) -> Unit:
    pick = rng.random()
    if pick < 0.1:
        return ("$",)
    if pick < 0.2:
        return (
            (rng.choice(("b 0", "b 6", "b 10", "h", "h 1 2")),)
            if pick < 0.15
            else ("b", "d", "d", _hold(rng))
        )
    bet = rng.choice(("b", "b", "b 1", "b 2", "b 3", "b 4", "b 5"))
    extra: tuple[str, ...] = (rng.choice(("b", "$", "b 3")),) if rng.random() < 0.15 else ()
    return (bet, "d", *extra, _hold(rng))


def _hold(rng: random.Random) -> str:
    positions = sorted(rng.sample(range(1, 6), rng.choice((0, 1, 2, 2, 3, 3, 4, 5))))
    return " ".join(["h", *map(str, positions)])


def _cards(rng: random.Random, count: int) -> tuple[str, ...]:
    """``count`` cards, any ``CARDS_PER_HAND`` in a row different; sometimes rigged so that a
    hand starts with a pair, three of a kind or four to a flush (rare wins come up)."""
    cards: list[str] = []
    while len(cards) < count:
        recent = set(cards[-(CARDS_PER_HAND - 1) :])
        choices = [card for card in DECK if card not in recent]
        if cards and rng.random() < 0.3:  # same rank or suit as the card before, if free
            last = cards[-1]
            alike = [c for c in choices if c[0] == last[0] or c[1] == last[1]]
            choices = alike or choices
        cards.append(rng.choice(choices))
    return tuple(cards)
