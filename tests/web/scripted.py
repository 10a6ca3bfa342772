"""A Hold'em web table played in-process with a FakeClock, a stacked deck, scripted computer
players and members whose moves the test gives (for the show-or-muck and time-bank tests)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from casino.cards import parse_cards
from casino.clock import FakeClock
from casino.holdem.engine import Action, Hand
from casino.web import holdem
from casino.web.bank import Bank
from casino.web.holdem import WebTable
from casino.web.holdemseats import Member, TableSettings

from .forms import temporary_store

Move = Callable[[dict[str, Any]], dict[str, Any] | None]
"""What a member does given their view at their turn (``None``: nothing yet)."""


def stacked(text: str) -> list[int]:
    """A deck whose top is ``text`` (dealing order), then every other card."""
    top = [card.index for card in parse_cards(text)]
    return top + [card for card in range(52) if card not in top]


def folds(hand: Hand, _: random.Random) -> Action:
    """A computer player that folds whenever it may check or not."""
    return hand.check() if hand.legal().can_check else hand.fold()


def calls(hand: Hand, _: random.Random) -> Action:
    """A computer player that checks or calls, always."""
    return hand.check() if hand.legal().can_check else hand.call()


@contextmanager
def table_of(
    monkeypatch: pytest.MonkeyPatch, settings: TableSettings, deck: str
) -> Iterator[tuple[WebTable, FakeClock]]:
    """A table over a temporary store whose every hand is dealt from ``deck``."""
    monkeypatch.setattr(holdem, "shuffled_deck", lambda _rng: stacked(deck))
    clock = FakeClock()
    with temporary_store() as store:
        yield WebTable(1, settings, clock, 1, Bank(store)), clock


def seat(table: WebTable, account: int, name: str) -> tuple[Member, list[dict[str, Any]]]:
    """Seat a member (between hands), their page open; the views sent to it."""
    member = table.sit(account, name, "en")
    assert member is not None
    table.owners[member.seat] = account
    views: list[dict[str, Any]] = []

    async def send(view: dict[str, Any]) -> None:
        views.append(view)

    member.send = send
    return member, views


def play(table: WebTable, moves: dict[int, Move], hands: int = 1) -> None:
    """``hands`` hands: at each member's turn (their action or their show-or-muck)
    ``moves[seat]`` is asked with the member's view until it answers."""

    async def run() -> None:
        for _ in range(hands):
            await one()

    async def one() -> None:
        task = asyncio.ensure_future(table.play_hand())
        asked: set[tuple[int, int, int]] = set()
        while not task.done():
            await asyncio.sleep(0)
            waiting = table.waiting
            hand = table.table.hand
            if waiting is None or hand is None or waiting not in table.members:
                continue
            member = table.members[waiting]
            turn = (
                waiting,
                len(hand.actions),
                -1 if table.showdown is None else len(table.showdown.reveals),
            )
            if turn in asked or not member.inbox.empty():
                continue
            message = moves[waiting](table.view(member))
            if message is not None:
                asked.add(turn)
                await table.receive(member, message)
        await task

    asyncio.run(asyncio.wait_for(run(), 60))
