"""Video poker's debug mode (Double Bonus 10/7, ``-d credit cmd-file card-file``) sessions.

A session is one run with two generated files: the cmd-file (the units: a hand ``b [N]``,
``d``, ``h [positions]``, or a lone ``$``, or a command at the wrong moment) and the
card-file (:attr:`Session.data`: each hand's cards in the order they are dealt, different
within the hand; one hand in eight rigged to four of a kind, all held). The credit is 10,000,
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


@dataclass(frozen=True)
class VideoPokerGrammar:
    """Debug-mode sessions of the Double Bonus 10/7 assignment."""

    name = "videopoker"
    program = "videopoker"
    about = "Double Bonus video poker, debug mode: generated cmd-file and card-file pairs"

    def generate(self, rng: random.Random, size: int) -> Session:
        """Up to ``size`` units, and each hand's cards in the order they are dealt: one hand
        in eight is rigged, four of a kind dealt and all five held (the pay table's rarest
        rows come up)."""
        units: list[Unit] = []
        cards: list[str] = []
        for _ in range(rng.randint(1, size)):
            unit = _unit(rng)
            if "d" in unit:
                rigged = rng.random() < 0.125
                if rigged:
                    unit = (*unit[:-1], "h 1 2 3 4 5")
                held = len(unit[-1].split()) - 1
                cards += _hand(rng, rigged, 10 - held)
            units.append(unit)
        return Session((tuple(units),), tuple(cards))

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


def _hand(rng: random.Random, rigged: bool, count: int) -> list[str]:
    """``count`` different cards for one hand (the deal, then the draw); rigged, the deal
    opens with four of a kind; else three times in ten a card shares the rank or suit of the
    one before (pairs, trips, flush draws)."""
    cards: list[str] = []
    if rigged:
        rank = rng.choice(RANKS)
        cards = rng.sample([rank + suit for suit in SUITS], 4)
    while len(cards) < count:
        choices = [card for card in DECK if card not in cards]
        if cards and rng.random() < 0.3:
            last = cards[-1]
            alike = [c for c in choices if c[0] == last[0] or c[1] == last[1]]
            choices = alike or choices
        cards.append(rng.choice(choices))
    return cards
