"""A table of ``casino holdem serve`` (:mod:`casino.holdem.server`): its settings, its
members and the room that deals to them — seats taken, held for a member away and freed,
the hands played, and each member asked for their action on their connection."""

from __future__ import annotations

import asyncio
import gettext
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from casino.clock import Clock
from casino.holdem.bots import Player, player_of
from casino.holdem.commands import BadCommand, parse_command, perform
from casino.holdem.engine import Action, Hand, Refused
from casino.holdem.rules import Rules
from casino.holdem.shell import BOT_NAMES, STYLE_CYCLE
from casino.holdem.table import Seat, Table, shuffled_deck
from casino.holdem.view import (
    action_text,
    blind_posts,
    blinds_text,
    legal_text,
    showdown_text,
    street_text,
    table_text,
)
from casino.i18n import DEFAULT_LANGUAGE, translator
from casino.net.guard import Limits
from casino.net.lines import LineStream
from casino.net.stream import ConnectionClosed


@dataclass
class ServerSettings:
    """What ``casino holdem serve`` was told."""

    seats: int = 6
    tables: int = 1
    stack: int = 1000
    rules: Rules = field(default_factory=Rules)
    """Blinds and ante (``--blinds``, ``--ante``)."""
    seed: int | None = None
    timeout: float = 30.0
    lang: str = DEFAULT_LANGUAGE
    hands: int | None = None
    pause: float = 1.0
    state: str | None = None
    start_with: int = 1
    """Humans a table waits for before its first hand (``--wait``)."""
    fill_after: float | None = None
    """Seconds after its first member joined that a table starts anyway (``--fill-after``)."""
    unjoined_per_address: int = 16
    """Idle connections (open for over :attr:`join_grace` without having joined) from one
    address (its host) that may be open at once; one more is told so and closed (a client
    cannot hold the server's descriptors with connections that never join)."""
    join_grace: float = 5.0
    """Seconds a new connection has to join before it counts as idle (a ``casino holdem
    join`` client joins at once; a person at ``nc`` types for a few seconds)."""
    seat_grace: float = 120.0
    """Seconds a disconnected member keeps the seat (``--seat-timeout``); then it is freed."""
    limits: Limits | None = None
    """What one client may cost (default: :class:`Limits` with ``timeout`` to read output).
    The default rate (50 lines a second after a burst of 100) is far above what a member
    playing at ``pause`` 1 s can send; a test table with no pause and fast bots may raise it."""

    def client_limits(self) -> Limits:
        """:attr:`limits`, or the defaults with :attr:`timeout` as the send deadline."""
        return self.limits or Limits(send_timeout=self.timeout)


@dataclass
class Member:
    """A human at a table: their seat, connection (``None`` while away) and input."""

    name: str
    seat: int
    stream: LineStream | None
    token: str = field(default_factory=lambda: "t" + secrets.token_hex(6))
    """What the member joins with to take their seat back."""
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    away_since: float | None = None
    """When the member's connection went (``None`` while connected)."""


class Room:
    """One table on the server: the engine, its members and its computer players."""

    def __init__(self, number: int, settings: ServerSettings, clock: Clock, seed: int) -> None:
        self.number = number
        self.settings = settings
        self.clock = clock
        self.rng = random.Random(seed)
        self.tr: gettext.NullTranslations = translator("holdem", settings.lang)
        names = [BOT_NAMES[k % len(BOT_NAMES)] for k in range(settings.seats)]
        self.table = Table([Seat(name, settings.stack) for name in names], settings.rules)
        self.bots: list[Player] = [
            player_of(STYLE_CYCLE[k % len(STYLE_CYCLE)]) for k in range(settings.seats)
        ]
        self.members: dict[int, Member] = {}
        self.arriving: dict[int, Member] = {}
        """Members who joined during a hand: they play from the next one."""
        self.waiting: int | None = None
        self.dealt: list[dict[int, list[int]]] = []
        """Each hand's hole cards by seat (for checking who was shown what)."""
        self.done = asyncio.Event()
        self.joined = asyncio.Event()
        """Set once the table may start (``start_with`` members, or the fill time)."""
        self.first = asyncio.Event()
        """Set when the first member joins (the fill time runs from then)."""
        self.on_save: Callable[[], None] | None = None
        self.freed: set[int] = set()
        """Seats freed from members long away: their computer player's name back at the
        next hand."""

    @property
    def names(self) -> list[str]:
        """Each seat's name."""
        return [seat.name for seat in self.table.seats]

    def free_seat(self) -> int | None:
        """A seat with chips that no human holds, or ``None``."""
        for index, seat in enumerate(self.table.seats):
            if index not in self.members and index not in self.arriving and seat.playing:
                return index
        return None

    @property
    def dealing(self) -> bool:
        """Whether a hand is being played."""
        return self.table.hand is not None and not self.table.hand.over

    def free_away(self) -> None:
        """Free the seat of every member away for over ``seat_grace`` seconds (the seat's
        computer player plays it again; during a hand, from now under the member's name)."""
        now = self.clock.now()
        for seats in (self.members, self.arriving):
            for seat, member in list(seats.items()):
                away = member.away_since
                if away is not None and now - away > self.settings.seat_grace:
                    del seats[seat]
                    self.freed.add(seat)
        if not self.dealing:
            self.seat_arrivals()

    def seat_arrivals(self) -> None:
        """Before a hand: freed seats get their computer player's name back, and the members
        who joined during the last one take their seats."""
        for seat in self.freed:
            self.table.seats[seat].name = BOT_NAMES[seat % len(BOT_NAMES)]
        self.freed.clear()
        for seat, member in self.arriving.items():
            self.members[seat] = member
            self.table.seats[seat].name = member.name
        self.arriving.clear()

    async def wait_for_start(self) -> None:
        """Until ``start_with`` members have joined, or ``fill_after`` seconds after the
        first did."""
        fill_after = self.settings.fill_after
        if fill_after is None:
            await self.joined.wait()
            return
        await self.first.wait()
        joined = asyncio.ensure_future(self.joined.wait())
        timer = asyncio.ensure_future(self.clock.sleep(fill_after))
        try:
            await asyncio.wait([joined, timer], return_when=asyncio.FIRST_COMPLETED)
        finally:
            joined.cancel()
            timer.cancel()
        self.joined.set()

    async def tell(self, seat: int, text: str) -> None:
        """Send ``text`` to the member in ``seat`` (nobody there, or gone: dropped)."""
        member = self.members.get(seat) or self.arriving.get(seat)
        if member is None or member.stream is None:
            return
        try:
            await member.stream.send(text)
        except ConnectionClosed:
            self.leave(member)

    async def everyone(self, text: str) -> None:
        """Send ``text`` to every member (those seated for the next hand too)."""
        for seat in [*self.members, *self.arriving]:
            await self.tell(seat, text)

    def leave(self, member: Member) -> None:
        """``member`` is gone: fold them at their turn until they join again (or their seat
        is freed, ``seat_grace`` seconds from now)."""
        member.stream = None
        member.away_since = self.clock.now()
        member.inbox.put_nowait(None)

    # --- play -------------------------------------------------------------------------

    async def run(self) -> None:
        """Play hands once somebody has joined, until the hand limit, one player left, or no
        human with chips."""
        _ = self.tr.gettext
        await self.wait_for_start()
        while True:
            self.free_away()
            if not self.members and not self.arriving and self._hands_left():
                self.first.clear()  # every member's seat was freed: wait for members again
                self.joined.clear()
                await self.wait_for_start()
                continue
            if not self._more_hands():
                break
            await self.play_hand()
            await self.clock.sleep(self.settings.pause)
        await self.everyone(_("Game over. Chips:"))
        for seat in self.table.seats:
            await self.everyone(f"  {seat.name}: {seat.chips}")
        self.done.set()

    def _more_hands(self) -> bool:
        """Whether to deal again: two players with chips, a human among them, hands left."""
        humans_in = any(self.table.seats[seat].playing for seat in self.members)
        return humans_in and self._hands_left()

    def _hands_left(self) -> bool:
        """Whether the table may deal again: two players with chips, and hands left."""
        limit = self.settings.hands
        return not self.table.finished and (limit is None or self.table.number < limit)

    async def play_hand(self) -> None:
        """One hand, start to settle."""
        _ = self.tr.gettext
        hand = self.table.start_hand(shuffled_deck(self.rng))
        self.dealt.append({seat: list(cards) for seat, cards in enumerate(hand.hole) if cards})
        await self.everyone(
            _("--- Hand {number} · button: {name} ---").format(
                number=self.table.number, name=self.names[hand.button]
            )
        )
        for line in blinds_text(blind_posts(hand), self.names, self.tr):
            await self.everyone(line)
        for seat in self.members:
            if hand.hole[seat]:
                await self.tell(seat, table_text(self.table, seat, self.names, self.tr)[0])
        while not hand.over:
            board = len(hand.board)
            actor = hand.to_act
            assert actor is not None
            seat = actor
            if seat in self.members:
                action = await self.ask(self.members[seat])
            else:
                action = self.bots[seat](hand, self.rng)
            await self.everyone(action_text(action, self.names[seat], self.tr))
            for size in (3, 4, 5):
                if board < size <= len(hand.board):
                    await self.everyone(street_text(hand.board, size, self.tr))
        for line in showdown_text(hand, self.names, self.tr):
            await self.everyone(line)
        self.table.settle()
        self.save()

    async def ask(self, member: Member) -> Action:
        """The member's action, or a check/fold when they are away or out of time."""
        _ = self.tr.gettext
        hand = self.table.hand
        assert hand is not None
        while not member.inbox.empty():
            member.inbox.get_nowait()  # lines from before this turn were answered already
        if member.stream is None:
            return self._default(hand)
        lines = table_text(self.table, member.seat, self.names, self.tr)
        if not hand.board:  # their cards were sent at the deal: not again before the flop
            lines = lines[1:]
        for line in lines:
            await self.tell(member.seat, line)
        deadline = self.clock.now() + self.settings.timeout
        self.waiting = member.seat
        try:
            while True:
                await self.tell(member.seat, legal_text(hand.legal(), self.tr))
                await self.tell(member.seat, _("Your turn."))
                try:
                    remaining = max(0.0, deadline - self.clock.now())
                    text = await self.clock.within(member.inbox.get(), remaining)
                except TimeoutError:
                    await self.tell(member.seat, _("Time is up."))
                    return self._default(hand)
                if text is None:
                    return self._default(hand)
                try:
                    return perform(hand, parse_command(text))
                except (BadCommand, Refused) as error:
                    values = {key: str(value) for key, value in error.values.items()}
                    reason = _(error.template).format(**values)
                    await self.tell(member.seat, _("Not allowed: {reason}").format(reason=reason))
        finally:
            self.waiting = None

    @staticmethod
    def _default(hand: Hand) -> Action:
        return hand.check() if hand.legal().can_check else hand.fold()

    def save(self) -> None:
        """Write every table's state if the server keeps one (``--state``)."""
        if self.on_save is not None:
            self.on_save()
