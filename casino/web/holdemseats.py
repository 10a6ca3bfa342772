"""A Hold'em table for browsers (:mod:`casino.web.holdem`), its state and its seats: who
sits where, who arrives for the next hand, who is away or has left and when a seat is freed,
what each seat stakes from the store before a hand, and when a waiting table may deal."""

from __future__ import annotations

import asyncio
import gettext
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from casino.clock import Clock
from casino.holdem.bots import Player, player_of
from casino.holdem.rules import Rules
from casino.holdem.shell import BOT_NAMES, STYLE_CYCLE
from casino.holdem.showmuck import Showdown
from casino.holdem.table import Seat, Table
from casino.i18n import translator
from casino.net.names import COMPUTER_MARK, computer_name, skeleton
from casino.web.bank import Bank
from casino.web.guard import LOG
from casino.web.holdemlog import LogLine, Said

LEAVE_GRACE = 5.0
"""Seconds a member who left is still waited for at their turn: a reload says it is leaving
too, and comes back within them (a reload never folds)."""
DEALT_KEPT = 100
"""Hands whose hole cards a table remembers (for the tests; bounded: a table plays for
months)."""

Send = Callable[[dict[str, Any]], Awaitable[None]]
BOT_POOL = (
    *BOT_NAMES,
    *(computer_name(n) for n in ("Irene", "Julio", "Karen", "Lucas", "Marta", "Nico", "Olga")),
    *(computer_name(n) for n in ("Pablo", "Rosa", "Sergio", "Tania", "Victor", "Wendy")),
)
"""The names a computer player may take (the first ones the terminal's tables use too): when
one is a member's at the table, it takes another (:meth:`SeatedTable.rename_bots`)."""


def _person(name: str) -> str:
    """The person a seat's name reads as (:func:`~casino.net.names.skeleton`, the mark
    dropped: ``Diego (bot)``, ``dieg0`` and ``Diego`` alike)."""
    return skeleton(name).removesuffix(COMPUTER_MARK)


@dataclass
class TableSettings:
    """How the web tables play."""

    seats: int = 4
    stack: int = 1000
    rules: Rules = field(default_factory=Rules)
    """Blinds and ante (``--blinds``, ``--ante``)."""
    timeout: float = 30.0
    pause: float = 2.0
    """Seconds between hands."""
    bot_delay: float = 0.4
    """Seconds a computer player 'thinks' (so members can follow)."""
    samples: int = 300
    move_seconds: float = 15.0
    """The dominoes move clock."""
    seat_timeout: float = 120.0
    """Seconds a member may be away (no page open) before their seat is freed."""
    watchers: int = 100
    """Pages that may watch one table at once (each is sent every view of it)."""
    wait: int = 1
    """Members seated before a table starts dealing (or a member presses start)."""
    fill_after: float | None = None
    """Seconds after its first member sits down that a table starts anyway (``None``: never)."""
    show_muck: bool = False
    """Whether members choose to show or muck at the end of a hand (``--show-muck``; off:
    every hand at a showdown is shown, as at the terminal's tables)."""
    time_bank: float = 0.0
    """Extra seconds each member has per session, spent only once their action clock has run
    out (``--time-bank``, 30 at ``casino web``; 0: none)."""
    bank_refill: float = 1.0
    sitgos: int = 0
    """Sit-and-go tables (``--sit-and-go``), after the Hold'em tables (:mod:`casino.web.sitgo`)."""
    buy_in: int = 100
    """A sit-and-go's buy-in in dollars (``--buy-in``)."""
    """Seconds given back to a member's time bank for each hand they are dealt in (up to
    ``time_bank``)."""


@dataclass
class Member:
    """A browser member at a table: seat, language, and their open page (``None``: away)."""

    account: int
    """The member's account in the store (their seat is theirs, whichever session)."""
    name: str
    seat: int
    lang: str
    send: Send | None = None
    away: float | None = None
    """Since when (the clock) the member has had no page open."""
    leaving: bool = False
    """The member left the table (the lobby link, the tab closed): folded at their turns, the
    seat and the wallet theirs again at the end of the hand."""
    sitting_out: bool = False
    """The member sits out from the next hand (dealt nothing, their wallet untouched)."""
    wallet: int | None = None
    """Their wallet as last read (the chips their seat shows until they are dealt in)."""
    bank: float = 0.0
    """The seconds left in the member's time bank (this session at this table)."""
    inbox: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    watching: bool = False
    """A watcher (:meth:`SeatedTable.watch`): seatless (``seat`` -1), shown no hole cards
    but the ones shown at a showdown, never asked to act, staking nothing."""

    @property
    def tr(self) -> gettext.NullTranslations:
        """The member's catalog."""
        return translator("holdem", self.lang)


class SeatedTable:
    """A table's state: the engine's :class:`Table`, its members and the computer players in
    empty seats; seating them (:class:`casino.web.holdemview.ShownTable` shows it,
    :class:`casino.web.holdem.WebTable` plays)."""

    def __init__(
        self,
        number: int,
        settings: TableSettings,
        clock: Clock,
        seed: int,
        bank: Bank,
        prefix: str = "",
    ) -> None:
        self.number = number
        self.bank = bank
        self.name = f"{prefix}table {number}"
        """The table's name in the store (``prefix``: the server's, see ``--instance``)."""
        self.settings = settings
        self.clock = clock
        self.rng = random.Random(seed)
        self.bot_names = [BOT_NAMES[k % len(BOT_NAMES)] for k in range(settings.seats)]
        self.table = Table([Seat(name, settings.stack) for name in self.bot_names], settings.rules)
        self.bots: list[Player] = [
            player_of(STYLE_CYCLE[k % 3], settings.samples) for k in range(settings.seats)
        ]
        self.members: dict[int, Member] = {}
        """The members who play their seat (seat → member)."""
        self.arriving: dict[int, Member] = {}
        """Members seated during a hand: they play from the next one."""
        self.watchers: list[Member] = []
        """The pages watching the table (one per page; seatless, see :meth:`watch`)."""
        self.owners: list[int | None] = [None] * settings.seats
        """Whose chips each seat plays in this hand (a member's account; ``None``: the house)."""
        self.go = asyncio.Event()
        """Set once the table may deal (enough members, a start, or the fill time)."""
        self.waiting: int | None = None
        self.deadline: float | None = None
        """When (the clock) the waiting member's time runs out (their time bank then starts)."""
        self.banked = 0.0
        """The seconds of time bank the waiting member has for this turn (0: none)."""
        self.showdown: Showdown | None = None
        """The show-or-muck choices of the hand just ended (``show_muck`` only)."""
        self.log: list[LogLine] = []
        self.joined = asyncio.Event()
        """Set while a member is seated (the table deals), clear while none is (it waits)."""
        self.hands_done = 0
        self.seq = 0
        """Lines said so far: a view's ``seq`` tells which events it includes."""
        self.refused = 0
        self.dealt: dict[int, dict[int, list[int]]] = {}
        """The hole cards of the last :data:`DEALT_KEPT` hands (hand number → seat → cards)."""
        self.said_state: tuple[int, int, int, bool, int] | None = None
        self.said_in: dict[str, Said] = {}
        """The views' common parts for ``said_state``, in each language (see :meth:`said`)."""
        self.game: int | None = None
        """The store's game of the hand under way (``None`` between hands)."""
        self.on_hand: Callable[[SeatedTable, int, int], None] | None = None
        """Called after each hand with the chips before and after (for the load test)."""

    # --- members ----------------------------------------------------------------------

    @property
    def everyone(self) -> list[Member]:
        """The members seated here: playing, and arriving for the next hand."""
        return [*self.members.values(), *self.arriving.values()]

    def seat_of(self, account: int) -> Member | None:
        """The member whose account is ``account``, if seated here."""
        return next((m for m in self.everyone if m.account == account), None)

    def free_seat(self) -> int | None:
        """A seat no member holds, or ``None``."""
        held = {m.seat for m in self.everyone}
        return next((k for k in range(len(self.table.seats)) if k not in held), None)

    @property
    def dealing(self) -> bool:
        """Whether a hand is being played."""
        return self.table.hand is not None and not self.table.hand.over

    def sit(self, account: int, name: str, lang: str) -> Member | None:
        """Seat a member: at once between hands, else for the next hand (``arriving``)."""
        seat = self.free_seat()
        if seat is None:
            return None
        member = Member(account, name, seat, lang, away=self.clock.now())
        member.bank = self.settings.time_bank
        if self.dealing:
            self.arriving[seat] = member
        else:
            self.members[seat] = member
            self.table.seats[seat].name = name
            self.rename_bots()
        if len(self.everyone) >= self.settings.wait:
            self.go.set()
        self.joined.set()
        return member

    def watch(self, account: int, name: str, lang: str) -> Member:
        """A page that watches the table: shown every view (no hole cards but the shown
        ones), asked nothing, staking nothing; counted in every view's ``watchers``."""
        watcher = Member(account, name, -1, lang, watching=True)
        self.watchers.append(watcher)
        LOG.info("table %d: %r watches (%d)", self.number, name, len(self.watchers))
        return watcher

    def unwatch(self, watcher: Member) -> bool:
        """The watching page closed (or its connection dropped); whether it was watching."""
        if not any(w is watcher for w in self.watchers):
            return False
        self.watchers = [w for w in self.watchers if w is not watcher]
        watcher.send = None
        LOG.info("table %d: %r stops watching (%d)", self.number, watcher.name, len(self.watchers))
        return True

    def seat_arrivals(self) -> None:
        """Before a hand: the members who arrived during the last one take their seats."""
        for seat, member in self.arriving.items():
            self.members[seat] = member
            self.table.seats[seat].name = member.name
        self.arriving.clear()
        self.rename_bots()

    def rename_bots(self) -> None:
        """Between hands: a computer player named like a member of the table (``Diego (bot)``
        beside Diego) takes the first name of :data:`BOT_POOL` that no member here has and no
        other seat uses (none left: it keeps its name)."""
        people = {_person(m.name) for m in self.everyone}
        for seat, name in enumerate(self.bot_names):
            if _person(name) not in people:
                continue
            used = {_person(n) for n in self.bot_names} | people
            spare = next((n for n in BOT_POOL if _person(n) not in used), None)
            if spare is None:
                continue
            self.bot_names[seat] = spare
            if seat not in self.members:
                self.table.seats[seat].name = spare

    @staticmethod
    def can_play(member: Member) -> bool:
        """Whether the member can be dealt in: not sitting out, chips in their wallet as last
        read (not read yet: not known to)."""
        return not member.sitting_out and bool(member.wallet)

    def start(self, member: Member) -> bool:
        """A seated member who can play presses start: the table deals without waiting for
        more (a member sitting out or with an empty wallet may not: nobody would play)."""
        if self.go.is_set() or member.seat not in self.members or not self.can_play(member):
            return False
        LOG.info("table %d: started by %r", self.number, member.name)
        self.go.set()
        return True

    def leave(self, member: Member, send: Send | None = None) -> None:
        """The member's page closed (or lost its connection): their seat, cards and turn wait
        for them (a reload never folds; their turn's clock runs on) until they come back, or
        for ``seat_timeout`` seconds."""
        if send is not None and member.send is not send:
            return
        member.send = None
        if member.away is None:
            member.away = self.clock.now()
        member.inbox.put_nowait(None)  # wakes their turn, which looks again (never folds)

    def depart(self, member: Member, grace: bool = True) -> None:
        """The member says they leave the table (the lobby link, the tab closed): folded at
        their turns from :data:`LEAVE_GRACE` seconds on (at once without ``grace``: a client
        dropped for flooding), unless a page of theirs comes back (a reload), and their seat
        and wallet given back at the end of the hand."""
        member.leaving = True
        if member.away is None:
            member.away = self.clock.now()
        if not grace:
            member.away = min(member.away, self.clock.now() - LEAVE_GRACE)
        member.inbox.put_nowait(None)

    def release(self) -> list[Member]:
        """Between hands: free the seats of the members who left (their wallet is whole: the
        hand is settled); those members."""
        gone = [m for m in self.everyone if m.leaving and m.send is None]
        for member in gone:
            self._free(member)
            LOG.info("table %d: seat %d freed (%r left)", self.number, member.seat, member.name)
        if not self.everyone:
            self.joined.clear()
            self.go.clear()
        return gone

    def _free(self, member: Member) -> None:
        member.inbox.put_nowait(None)  # at their turn: the seat's computer player plays it
        self.arriving.pop(member.seat, None)
        if self.members.get(member.seat) is member:
            del self.members[member.seat]
            self.table.seats[member.seat].name = self.bot_names[member.seat]

    def sweep(self) -> list[Member]:
        """Free the seats of members away for over ``seat_timeout`` seconds; those members.

        A seat freed during a hand is played by its computer player until the hand ends.
        """
        now = self.clock.now()
        gone = [
            m
            for m in self.everyone
            if m.away is not None and now - m.away > self.settings.seat_timeout
        ]
        for member in gone:
            self._free(member)
            LOG.info("table %d: seat %d freed (%r away)", self.number, member.seat, member.name)
        if not self.everyone:
            self.joined.clear()
            self.go.clear()
        return gone

    async def refill(self) -> dict[int, int]:
        """Between hands: each member's seat takes their wallet (at most ``stack``), each
        computer player's seat without chips gets ``stack``; the stakes (account → chips)."""
        stakes: dict[int, int] = {self.bank.house: 0}
        wallets = await self.bank.balances([m.account for m in self.members.values()])
        for index, seat in enumerate(self.table.seats):
            member = self.members.get(index)
            self.owners[index] = None if member is None else member.account
            if member is not None:
                member.wallet = wallets.get(member.account, 0)
                wallet = 0 if member.sitting_out else member.wallet
                seat.chips = min(wallet, self.settings.stack)
                if seat.chips:
                    stakes[member.account] = seat.chips
            else:
                seat.chips = seat.chips or self.settings.stack
                stakes[self.bank.house] += seat.chips
        return stakes

    async def wait_for_start(self) -> None:
        """Until enough members have sat down, one presses start, or the fill time passes."""
        if self.settings.fill_after is None:
            await self.go.wait()
            return
        waiting = asyncio.ensure_future(self.go.wait())
        timer = asyncio.ensure_future(self.clock.sleep(self.settings.fill_after))
        try:
            await asyncio.wait([waiting, timer], return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
            timer.cancel()
        self.go.set()
