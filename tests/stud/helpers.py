"""Tables of in-process players for the dealer tests."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator, Sequence

from casino.cards import Deck
from casino.clock import FakeClock
from casino.stud.dealer import Seat, Table, TableConfig
from casino.stud.local import LocalConnection, Responder


def scripted(replies: Sequence[str | None]) -> Responder:
    """Answer each ``bet1``/``bet2`` with the next reply (``None``: no reply); ``login``
    with ``me:me``; nothing else."""
    queue: Iterator[str | None] = iter(replies)

    def respond(text: str) -> str | None:
        if text == "login":
            return "me:me"
        if text.startswith(("bet1:", "bet2:")):
            return next(queue, "fold")
        return None

    return respond


def table(
    responders: Sequence[Responder],
    *,
    stack: int | Sequence[int] = 100,
    hands: int | None = 1,
    deck: str | None = None,
    clock: FakeClock | None = None,
    seed: int = 0,
) -> tuple[Table, list[LocalConnection]]:
    """A table with one seat per responder; ``deck``: every hand deals from these cards
    (holes in seat order, then first up cards, then second up cards)."""
    stacks = [stack] * len(responders) if isinstance(stack, int) else list(stack)
    connections = [LocalConnection(responder) for responder in responders]
    seats = [
        Seat(number, f"p{number}", f"P{number}", stacks[number], connection)
        for number, connection in enumerate(connections)
    ]
    shuffle: Callable[[random.Random], Deck] = Deck.shuffled
    if deck is not None:
        text = deck
        shuffle = lambda rng: Deck.stacked(text)  # noqa: E731
    played = Table(
        seats, TableConfig(hands=hands), clock or FakeClock(), random.Random(seed), shuffle=shuffle
    )
    return played, connections


def play(played: Table) -> list[Seat]:
    """Play the table to the end."""
    return asyncio.run(played.play())
