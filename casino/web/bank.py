"""The store as the tables and the dominoes matches use it: from the event loop, each call
in a worker thread (a database call, or scrypt, never holds up the other members' tables).

Every chip a web game plays with comes out of the store and goes back to it: a game is
opened with each player's stake moved from their account into the game's holds, and settled
with the final amounts in one transaction (:class:`casino.web.store.Store`). The computer
players' chips are the house's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import ParamSpec, TypeVar

from casino.web.store import HistoryEntry, Member, Store

P = ParamSpec("P")
T = TypeVar("T")


class Bank:
    """:class:`Store`'s calls, awaited in a worker thread."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def house(self) -> int:
        """The house's account id (the computer players' chips)."""
        return self.store.house

    async def call(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args)`` in a worker thread."""
        return await asyncio.to_thread(function, *args, **kwargs)

    async def balance(self, member: int) -> int:
        """What the member's wallet holds now (0 for an unknown member)."""
        found = await self.call(self.store.member, member)
        return 0 if found is None else found.balance

    async def balances(self, members: Sequence[int]) -> dict[int, int]:
        """What each member's wallet holds now, in one call (an unknown member: absent)."""
        return await self.call(self.store.balances, list(members))

    async def member(self, member: int) -> Member | None:
        """The member, as the store has them."""
        return await self.call(self.store.member, member)

    async def open(self, kind: str, table: str, stakes: Mapping[int, int]) -> int:
        """Open a game with these stakes (account → amount); its id."""
        return await self.call(self.store.open_game, kind, table, dict(stakes))

    async def settle(
        self, game: int, payouts: Mapping[int, int], record: str | None = None
    ) -> None:
        """Pay the game out (account → amount) and close it, keeping the hand's ``record``
        (if any), in one transaction."""
        await self.call(self.store.settle, game, dict(payouts), record)

    async def hand_record(self, game: int, account: int) -> str | None:
        """The record of hand ``game`` if ``account`` played in it, else ``None``."""
        return await self.call(self.store.hand_record, game, account)

    async def history(self, member: int) -> list[HistoryEntry]:
        """The member's finished games, newest first."""
        return await self.call(self.store.history, member)
