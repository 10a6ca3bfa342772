"""Hold'em tables for browsers: seats, computer players, and each member's view as JSON.

The page sends intentions (``{"type": "act", "verb": "raise", "to": 60}``); the table hands
them to :func:`casino.holdem.commands.perform`, so every rule is the engine's. A message that
is not the seat's turn, names an unknown verb or a wrong amount is refused, told to the
member and logged. A member whose tab is closed is checked or folded at their turns and takes
the same seat back when they come again logged in as themselves (any session: the seat is
their account's), until they have been away ``seat_timeout`` seconds (the injected clock):
then the seat is freed and a computer player sits there again. Each member's view carries
only the hole cards of the seat they play in this hand (everybody's shown cards after a
showdown); a member seated for the next hand sees none.

**Money.** Every hand is a game of the store (:class:`casino.web.bank.Bank`): before the
deal each member's seat takes their wallet's balance, at most the table's ``stack``, and a
computer player's seat keeps its chips (its ``stack`` again when it has none: a new computer
player sits down); those stacks are staked (the members' from their wallets, the computer
players' from the house) and the final stacks settled back in one transaction. A member whose
wallet is empty sits out. A member who sits down during a hand is seated for the next one
(told so); until then the seat's computer player plays it, under its own name.

**Waiting for people.** A table that has no member deals nothing. It starts dealing when
``wait`` members have sat down, when a seated member presses start, or ``fill_after``
seconds after its first member sat down (``None``: never by time); then the seats no member
holds are played by computer players. When its last member leaves it waits again.
"""

from __future__ import annotations

import asyncio
import gettext
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from casino.cards.card import Card
from casino.cards.evaluator import evaluate5
from casino.clock import Clock
from casino.errors import IllegalAction, ParseError
from casino.holdem.bots import Player, player_of
from casino.holdem.commands import Intent, Verb, perform
from casino.holdem.engine import Action, Hand, Legal, Refused
from casino.holdem.names import hand_name
from casino.holdem.rules import Rules
from casino.holdem.shell import BOT_NAMES, STYLE_CYCLE
from casino.holdem.table import Seat, Table, shuffled_deck
from casino.holdem.view import (
    action_text,
    blind_posts,
    blinds_text,
    showdown_text,
    street_text,
)
from casino.i18n import translator
from casino.web.bank import Bank
from casino.web.guard import LOG
from casino.web.store import StoreError
from casino.web.words import fill, number, page_words

__all__ = ["LEAVE_GRACE", "LOG", "LOG_LINES", "Member", "Send", "TableSettings", "WebTable"]
VERBS = {
    "check": Verb.CHECK,
    "call": Verb.CALL,
    "bet": Verb.BET,
    "raise": Verb.RAISE,
    "allin": Verb.ALL_IN,
    "fold": Verb.FOLD,
}
LOG_LINES = 40
LEAVE_GRACE = 5.0
"""Seconds a member who left is still waited for at their turn: a reload says it is leaving
too, and comes back within them (a reload never folds)."""
DEALT_KEPT = 100
"""Hands whose hole cards a table remembers (for the tests; bounded: a table plays for
months)."""
STARTS = "{name} starts the table."
"""The one line of the table's log from the ``web`` catalog (the others are ``holdem``'s)."""

Send = Callable[[dict[str, Any]], Awaitable[None]]


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
    wait: int = 1
    """Members seated before a table starts dealing (or a member presses start)."""
    fill_after: float | None = None
    """Seconds after its first member sits down that a table starts anyway (``None``: never)."""


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
    inbox: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)

    @property
    def tr(self) -> gettext.NullTranslations:
        """The member's catalog."""
        return translator("holdem", self.lang)


@dataclass
class LogLine:
    """A line of the table's log: a message id and its fields, and the line as said in each
    language it was shown in (said once per language, not once per view: a view carries
    the last :data:`LOG_LINES` lines, and every action sends every member a view)."""

    template: str
    values: tuple[Any, ...]
    said: dict[str, str] = field(default_factory=dict)

    def text(self, tr: gettext.NullTranslations, lang: str) -> str:
        """The line in ``lang`` (``tr``: that language's ``holdem`` catalog)."""
        text = self.said.get(lang)
        if text is None:
            text = self.said[lang] = _line(tr, self.template, self.values, lang)
        return text


@dataclass(frozen=True)
class Said:
    """What every member's view of one state of a table says alike, in one language."""

    log: list[str]
    last: dict[int, str]
    """Each seat's last action in this hand."""
    winners: list[dict[str, Any]]


class WebTable:
    """One table: the engine's :class:`Table`, its members, computer players in empty seats."""

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
        self.owners: list[int | None] = [None] * settings.seats
        """Whose chips each seat plays in this hand (a member's account; ``None``: the house)."""
        self.go = asyncio.Event()
        """Set once the table may deal (enough members, a start, or the fill time)."""
        self.waiting: int | None = None
        self.deadline: float | None = None
        """When (the clock) the waiting member's time runs out."""
        self.log: list[LogLine] = []
        self.joined = asyncio.Event()
        """Set while a member is seated (the table deals), clear while none is (it waits)."""
        self.hands_done = 0
        self.seq = 0
        """Lines said so far: a view's ``seq`` tells which events it includes."""
        self.refused = 0
        self.dealt: dict[int, dict[int, list[int]]] = {}
        """The hole cards of the last :data:`DEALT_KEPT` hands (hand number → seat → cards)."""
        self.said_state: tuple[int, int, int, bool] | None = None
        self.said_in: dict[str, Said] = {}
        """The views' common parts for ``said_state``, in each language (see :meth:`said`)."""
        self.on_hand: Callable[[WebTable, int, int], None] | None = None
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
        if self.dealing:
            self.arriving[seat] = member
        else:
            self.members[seat] = member
            self.table.seats[seat].name = name
        if len(self.everyone) >= self.settings.wait:
            self.go.set()
        self.joined.set()
        return member

    def seat_arrivals(self) -> None:
        """Before a hand: the members who arrived during the last one take their seats."""
        for seat, member in self.arriving.items():
            self.members[seat] = member
            self.table.seats[seat].name = member.name
        self.arriving.clear()

    def start(self, member: Member) -> bool:
        """A seated member presses start: the table deals without waiting for more."""
        if self.go.is_set() or member.seat not in self.members:
            return False
        LOG.info("table %d: started by %r", self.number, member.name)
        self.go.set()
        return True

    async def connect(self, member: Member, send: Send) -> None:
        """The member's page is open: send them the table."""
        member.send = send
        member.away = None
        member.leaving = False  # back (a reload's page said it was leaving): still here
        if self.go.is_set():
            await self.show(member)
        else:  # everybody waiting sees one more seated
            await self.show_all()

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

    # --- messages ---------------------------------------------------------------------

    async def receive(self, member: Member, message: Any) -> None:
        """A message from the member's page: queued if it is their turn, else refused."""
        if isinstance(message, dict) and message.get("type") == "start":
            if self.start(member):
                self.say(STARTS, member.name)
                await self.show_all()
        elif isinstance(message, dict) and message.get("type") == "leave":
            LOG.info("table %d: %r leaves", self.number, member.name)
            self.depart(member)
            if not self.dealing:
                self.release()
        elif isinstance(message, dict) and message.get("type") == "sitout":
            member.sitting_out = bool(message.get("out"))
            await self.show(member)
        elif not isinstance(message, dict) or message.get("type") != "act":
            await self.refuse(member, "not a play", message)
        elif self.waiting != member.seat:
            await self.refuse(member, "Not your turn.", message)
        else:
            member.inbox.put_nowait(message)

    async def refuse(self, member: Member, template: str, message: Any, **values: Any) -> None:
        """Tell the member why, in their language, and log it."""
        self.refused += 1
        LOG.warning(
            "table %d: refused from %r: %s: %.200r", self.number, member.name, template, message
        )
        reason = fill(member.tr.gettext(template), member.lang, **values)
        await self.tell(member, {"type": "refused", "reason": reason})

    async def tell(self, member: Member, data: dict[str, Any]) -> None:
        """Send to the member's page (a closed page: dropped)."""
        send = member.send
        if send is None:
            return
        try:
            await send(data)
        except (ConnectionError, RuntimeError):
            self.leave(member, send)

    async def show_all(self, but: Member | None = None) -> None:
        """Every member's view (``but``: one who is asked to act next, and shown the table
        with their options at once). One after the other: a send only queues the view
        (:class:`casino.web.guard.Outbox`), it never waits for the member."""
        for member in self.everyone:
            if member is not but:
                await self.show(member)

    async def show(self, member: Member) -> None:
        """The member's view of the table."""
        await self.tell(member, self.view(member))

    def say(self, template: str, *values: Any) -> None:
        """Add a line to the table's log: a message id and its fields, translated per view."""
        self.log = [*self.log[-LOG_LINES + 1 :], LogLine(template, values)]
        self.seq += 1

    def view(self, member: Member) -> dict[str, Any]:
        """What ``member`` may see: their own hole cards, the board, stacks, their options."""
        tr = member.tr
        hand = self.table.hand
        said = self.said(tr, member.lang)
        seats = []
        shown = set(hand.shown) if hand is not None and hand.over else set()
        for index, seat in enumerate(self.table.seats):
            entry: dict[str, Any] = {"name": seat.name, "chips": self._chips(index), "seat": index}
            if hand is not None and hand.starting[index]:
                cards = hand.hole[index]
                visible = self.owners[index] == member.account or index in shown
                entry.update(
                    chips=hand.stacks[index],
                    bet=hand.bets[index],
                    folded=hand.folded[index],
                    button=index == hand.button,
                    turn=index == hand.to_act and not hand.over,
                    cards=[_card(c) for c in cards] if visible else [None] * len(cards),
                )
                if index in said.last:
                    entry["last"] = said.last[index]
            entry["human"] = index in self.members
            entry["mine"] = index == member.seat
            seats.append(entry)
        data: dict[str, Any] = {
            "type": "state",
            "table": self.number,
            "you": member.seat,
            "hand": self.table.number,
            "seq": self.seq,
            "seats": seats,
            "board": [] if hand is None else [_card(c) for c in hand.board],
            "pot": 0 if hand is None or hand.over else hand.pot_total(),  # paid: none left
            "log": said.log,
            "legal": None,
            "lang": member.lang,
            "words": page_words("holdem", member.lang),
            "actor": None if hand is None or hand.over else hand.to_act,
            "clock": None,
            "winners": said.winners,
            "notice": self.notice(member),
            "can_start": not self.go.is_set() and member.seat in self.members,
            "sitting_out": member.sitting_out,
        }
        if self.waiting is not None and self.deadline is not None:
            left = max(0.0, self.deadline - self.clock.now())
            data["clock"] = {"seat": self.waiting, "seconds": left, "total": self.settings.timeout}
        if hand is not None and not hand.over and self.waiting == member.seat:
            legal = hand.legal()
            data["legal"] = {
                "call": legal.call,
                "min_to": legal.min_to,
                "max_to": legal.max_to,
                "raising": legal.raising,
                "deadline": self.settings.timeout,
                "presets": _presets(hand, legal),
            }
        return data

    def _chips(self, index: int) -> int:
        """The chips seat ``index`` shows out of a hand: a member's, what their wallet lets
        them sit with (never a computer player's stack they were seated over)."""
        member = self.members.get(index) or self.arriving.get(index)
        if member is None or self.owners[index] == member.account:
            return self.table.seats[index].chips
        if member.sitting_out or member.wallet is None:  # (not read yet: none shown)
            return 0
        return min(member.wallet, self.settings.stack)

    def said(self, tr: gettext.NullTranslations, lang: str) -> Said:
        """The parts of a view in ``lang`` that are the same for every member: worked out
        once for each state of the table (its ``seq``, the hand and its actions) and
        language, not once per member's view."""
        hand = self.table.hand
        state = (
            self.seq,
            self.table.number,
            -1 if hand is None else len(hand.actions),
            hand is not None and hand.over,
        )
        if state != self.said_state:
            self.said_state, self.said_in = state, {}
        said = self.said_in.get(lang)
        if said is None:
            last = {a.seat: a for a in hand.actions} if hand is not None else {}
            said = self.said_in[lang] = Said(
                [line.text(tr, lang) for line in self.log],
                {seat: self._last_said(action, tr, lang) for seat, action in last.items()},
                [] if hand is None or not hand.over else _winners(hand, tr),
            )
        return said

    @staticmethod
    def _last_said(action: Any, tr: gettext.NullTranslations, lang: str) -> str:
        """A seat's last action as its seat shows it (without the log's ``- ``)."""
        return action_text(action, "", tr, amount=_amount(lang))[2:]

    def notice(self, member: Member) -> str | None:
        """What the member is waiting for, in their language (``None``: nothing)."""
        web = translator("web", member.lang)
        if member.seat in self.arriving:
            return web.gettext("You are seated for the next hand.")
        if not self.go.is_set():
            return fill(
                web.gettext("Waiting for players: {seated} of {wait} seated."),
                member.lang,
                seated=len(self.everyone),
                wait=self.settings.wait,
            )
        if member.sitting_out:
            return web.gettext("You sit out from the next hand.")
        if self.table.seats[member.seat].chips == 0 and not self.dealing:
            return web.gettext("Your wallet is empty: you sit out.")
        return None

    # --- play -------------------------------------------------------------------------

    async def run(self) -> None:
        """Deal hands while a member is seated; wait while none is."""
        try:
            while True:
                await self.joined.wait()
                if not self.go.is_set():
                    await self.show_all()
                    await self.wait_for_start()
                    await self.show_all()
                self.seat_arrivals()
                freed = self.sweep() + self.release()
                if not freed and self.everyone:  # freed now: is anybody left?
                    await self.play_staked()
                    if self.release():  # who left during the hand: their wallet is whole
                        await self.show_all()
                    await self.clock.sleep(self.settings.pause)
        except Exception:  # a bug must not pass silently: the table stops, the log says why
            LOG.exception("table %d stopped", self.number)
            raise

    async def play_staked(self) -> None:
        """One hand as a game of the store: the stacks staked, the final stacks settled."""
        stakes = await self.refill()
        if self.table.finished:  # the members' wallets are empty: nobody to play
            await self.show_all()
            return
        try:
            game = await self.bank.open("holdem", self.name, stakes)
        except StoreError as error:  # a wallet spent elsewhere meanwhile: next time
            LOG.warning("table %d: hand not dealt: %s", self.number, error)
            return
        await self.play_hand()
        payouts: dict[int, int] = {}
        for owner, seat in zip(self.owners, self.table.seats, strict=True):
            account = self.bank.house if owner is None else owner
            if account in stakes:  # else it sat out, with no chips
                payouts[account] = payouts.get(account, 0) + seat.chips
        try:
            await self.bank.settle(game, payouts)
        except StoreError as error:  # voided meanwhile (another server's start): logged
            LOG.warning("table %d: hand %d not settled: %s", self.number, game, error)
        await self.show_all()

    async def play_hand(self) -> None:
        """One hand, from the deal to the settle."""
        before = sum(seat.chips for seat in self.table.seats)
        hand = self.table.start_hand(shuffled_deck(self.rng))
        number = self.table.number
        self.dealt[number] = {seat: list(cards) for seat, cards in enumerate(hand.hole) if cards}
        self.dealt.pop(number - DEALT_KEPT, None)
        names = [seat.name for seat in self.table.seats]
        self.say("--- Hand {number} · button: {name} ---", self.table.number, names[hand.button])
        self.say("BLINDS", blind_posts(hand), tuple(names))
        self.start_clock(hand)
        await self.show_all()
        while not hand.over:
            board = len(hand.board)
            seat = hand.to_act
            assert seat is not None
            if seat in self.members:
                action = await self.ask(self.members[seat], hand)
            else:
                await self.clock.sleep(self.settings.bot_delay)
                action = self.bots[seat](hand, self.rng)
            self.say("ACTION", action, names[seat])
            for size in (3, 4, 5):
                if board < size <= len(hand.board):
                    self.say("STREET", tuple(hand.board), size)
            self.start_clock(hand)
            await self.show_all()
        self.say("SHOWDOWN", hand, tuple(names))
        self.table.settle()
        self.hands_done += 1
        if self.on_hand is not None:
            self.on_hand(self, before, sum(seat.chips for seat in self.table.seats))
        await self.show_all()

    def start_clock(self, hand: Hand) -> None:
        """If a member is to act, their turn's clock starts now, before every member is shown
        the table (so that everybody sees the seconds left to whoever must act)."""
        self.waiting = self.deadline = None
        if not hand.over and hand.to_act in self.members:
            self.waiting = hand.to_act
            self.deadline = self.clock.now() + self.settings.timeout

    async def ask(self, member: Member, hand: Hand) -> Action:
        """The member's action from their page. Away (a page closed or a connection lost),
        their turn waits for them to the end of its clock (then a check, or a fold); left
        (:meth:`depart`), they fold once :data:`LEAVE_GRACE` seconds have passed without a
        page of theirs coming back."""
        while not member.inbox.empty():
            member.inbox.get_nowait()
        if self.waiting != member.seat or self.deadline is None:
            self.start_clock(hand)
        deadline = self.deadline
        assert deadline is not None
        try:
            while True:
                now = self.clock.now()
                if now >= deadline or self.members.get(member.seat) is not member:
                    return _default(hand)  # out of time, or their seat freed meanwhile
                wait = deadline - now
                gone = member.leaving and member.send is None
                if gone:
                    since = now - (member.away if member.away is not None else now)
                    if since >= LEAVE_GRACE:
                        return hand.fold()
                    wait = min(wait, LEAVE_GRACE - since)
                try:
                    message = await self.clock.within(member.inbox.get(), wait)
                except TimeoutError:
                    if self.clock.now() >= deadline:
                        return _default(hand)
                    continue
                if message is None:  # they left: look again
                    continue
                action = await self._try(member, hand, message)
                if action is not None:
                    return action
        finally:
            self.waiting = self.deadline = None

    async def _try(self, member: Member, hand: Hand, message: dict[str, Any]) -> Action | None:
        verb = VERBS.get(str(message.get("verb")))
        amount = message.get("to")
        if verb is None or (amount is not None and not _chips(amount)):
            await self.refuse(member, "not a play", message)
            return None
        if verb in (Verb.BET, Verb.RAISE) and amount is None:
            await self.refuse(member, "not a play", message)
            return None
        try:
            return perform(hand, Intent(verb, amount or 0))
        except (Refused, ParseError, IllegalAction) as error:
            template = getattr(error, "template", "not a play")
            values = getattr(error, "values", {})
            await self.refuse(member, template, message, **values)
            return None


def _presets(hand: Hand, legal: Legal) -> dict[str, int]:
    """The raise slider's presets (``half``: ½ pot, ``full``: pot, ``max``: all-in) as totals
    to raise to, each one the engine says is legal now (a pot raise: the call, then the pot
    after it)."""
    if not legal.can_bet_or_raise:
        return {}
    top = max(hand.bets)
    after_call = hand.pot_total() + legal.call
    wanted = {"half": top + after_call // 2, "full": top + after_call, "max": legal.max_to}
    presets = {}
    for key, to in wanted.items():
        to = min(max(to, legal.min_to), legal.max_to)
        if hand.can_bet_or_raise(to):
            presets[key] = to
    return presets


def _winners(hand: Hand, tr: gettext.NullTranslations) -> list[dict[str, Any]]:
    """Who won what at the end of ``hand``: each winner of a pot, the chips, and at a
    showdown the winning five cards and the hand's name in ``tr``'s language."""
    winners = []
    shown = set(hand.shown)
    for award in hand.awards:
        for seat, share in zip(award.winners, award.shares, strict=True):
            entry: dict[str, Any] = {"seat": seat, "amount": share, "pot": award.pot}
            if seat in shown:  # a showdown (a pot only the winner could win has no strength)
                entry["hand"] = hand_name(hand.strength(seat), tr)
                entry["five"] = [_card(c) for c in _best_five(hand.hole[seat] + hand.board)]
            winners.append(entry)
    return winners


def _best_five(cards: list[int]) -> tuple[int, ...]:
    """The five of ``cards`` (seven) that make their best hand."""
    return max(combinations(cards, 5), key=evaluate5)


def _chips(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**12


def _default(hand: Hand) -> Action:
    return hand.check() if hand.legal().can_check else hand.fold()


def _card(index: int) -> str:
    card = Card.from_index(index)
    return f"{card.rank.value}{card.suit.value}"


def _amount(lang: str) -> Callable[[int], str]:
    """Chips written for ``lang`` (:func:`casino.web.words.number`)."""
    return lambda chips: number(chips, lang)


def _line(tr: gettext.NullTranslations, template: str, values: tuple[Any, ...], lang: str) -> str:
    """A line of the log in ``lang``, its chips written for it (a hand's number is its name,
    written as it is)."""
    if template == "ACTION":
        return action_text(values[0], values[1], tr, amount=_amount(lang))
    if template == "BLINDS":
        return "\n".join(blinds_text(values[0], values[1], tr, amount=_amount(lang)))
    if template == "STREET":
        return street_text(values[0], values[1], tr)
    if template == "SHOWDOWN":
        return "\n".join(showdown_text(values[0], values[1], tr, amount=_amount(lang)))
    if template == STARTS:
        tr = translator("web", lang)
    return tr.gettext(template).format(*values, number=values[0], name=values[-1])
