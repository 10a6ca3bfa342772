"""casino's computer players against always-bet and random players, over seeded games (pure).

Each game seats Player_1 (a bettor that never folds, bets a random amount up to a quarter
of what it has, and exchanges by casino's rule) and one player of each kind in
:data:`KINDS`; the seats rotate from game to game, so every kind sits in every seat as
often as the others (with ``Tiebreak.FIRST`` a seat nearer Player_1 wins ties). Game ``i``
is dealt and played from ``random.Random(f"{seed}:{i}")``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from casino.cards import Deck
from casino.draw.play import Event, play
from casino.draw.rules import START_BANK, Fold, Showdown, Table, Tiebreak
from casino.draw.strategy import AlwaysBet, ComputerPlayer, RandomPlayer, Strategy, choose_discards

KINDS: dict[str, Callable[[random.Random], ComputerPlayer]] = {
    "casino": lambda rng: Strategy(),
    "always-bet": lambda rng: AlwaysBet(),
    "random": RandomPlayer,
}
"""The kinds of computer player compared, by name."""


class Bettor:
    """Player_1 in a contest: always bets, 1 to a quarter of its chips; exchanges as casino."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def bet(self, table: Table) -> int | None:
        """A random amount from 1 to a quarter of what Player_1 has left."""
        return self._rng.randint(1, max(1, table.seats[0].bank // 4))

    def discards(self, table: Table) -> list[int]:
        """casino's rule."""
        return choose_discards(table.seats[0].hand)


@dataclass
class Record:
    """How one kind of player did over a contest."""

    games: int = 0
    net: int = 0
    """Chips won less chips lost, over every game."""
    folds: int = 0
    wins: int = 0


def contest(games: int, seed: int = 0, tiebreak: Tiebreak = Tiebreak.FIRST) -> dict[str, Record]:
    """Play ``games`` games; the record of each kind of player (and of Player_1)."""
    names = list(KINDS)
    records = {name: Record() for name in [*names, "Player_1"]}
    for game in range(games):
        rng = random.Random(f"{seed}:{game}")
        shift = game % len(names)
        order = names[shift:] + names[:shift]
        seats = ["Player_1", *order]
        table = Table(len(seats), Deck.shuffled(rng))
        log: list[Event] = []
        play(table, Bettor(rng), [KINDS[name](rng) for name in order], log.append, tiebreak)
        for index, name in enumerate(seats):
            record = records[name]
            record.games += 1
            record.net += table.seats[index].bank - START_BANK
            record.folds += any(isinstance(e, Fold) and e.seat == index for e in log)
        result = log[-1]
        if isinstance(result, Showdown):
            for holding in result.winners:
                records[seats[holding.seat]].wins += 1
    return records
