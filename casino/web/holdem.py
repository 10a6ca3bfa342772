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
players' from the house) and the final stacks settled back in one transaction, with the
hand's record (:class:`casino.holdem.record.HandRecord`: the member's page replays it). A
member whose wallet is empty sits out. A member who sits down during a hand is seated for
the next one (told so); until then the seat's computer player plays it, under its own name.

**Watchers.** A member may watch a table (:meth:`SeatedTable.watch`): their page is sent
every view with no hole cards but those shown at a showdown, stakes nothing and is asked
nothing; every view counts the watchers. A watcher sits down the lobby's way.

**Waiting for people.** A table that has no member deals nothing. It starts dealing when
``wait`` members have sat down, when a seated member presses start, or ``fill_after``
seconds after its first member sat down (``None``: never by time); then the seats no member
holds are played by computer players. When its last member leaves it waits again.
"""

from __future__ import annotations

from typing import Any

from casino.errors import IllegalAction, ParseError
from casino.holdem.commands import Intent, Verb, perform
from casino.holdem.engine import Action, Hand, Refused
from casino.holdem.record import HandRecord
from casino.holdem.showmuck import Showdown
from casino.holdem.table import shuffled_deck
from casino.holdem.view import (
    blind_posts,
)
from casino.i18n import translator
from casino.web.guard import LOG
from casino.web.holdemlog import STARTS
from casino.web.holdemseats import DEALT_KEPT, LEAVE_GRACE, Member, Send
from casino.web.holdemview import ShownTable
from casino.web.store import StoreError

__all__ = ["WebTable"]
WATCHING = "You are watching: take a free seat to play."
VERBS = {
    "check": Verb.CHECK,
    "call": Verb.CALL,
    "bet": Verb.BET,
    "raise": Verb.RAISE,
    "allin": Verb.ALL_IN,
    "fold": Verb.FOLD,
}


class WebTable(ShownTable):
    """One table: the engine's :class:`Table`, its members, computer players in empty seats."""

    chosen_only = False
    """Whether a member sits here only by asking for this table (never placed here when the
    lobby's "Play" looks for a free seat)."""

    @property
    def buy_in(self) -> int | None:
        """What sitting down costs from the wallet (``None``: a cash table, the wallet sits
        down)."""
        return None

    @property
    def blinds_now(self) -> tuple[int, int]:
        """The blinds of the next hand."""
        return self.settings.rules.blinds

    @property
    def chips_at_start(self) -> int:
        """The most a player sits down with (a member: their wallet, up to this)."""
        return self.settings.stack

    @property
    def closed(self) -> bool:
        """Whether nobody may sit down now (whatever seats are free)."""
        return False

    def refuses(self, wallet: int) -> str | None:
        """Why a member whose wallet holds ``wallet`` dollars may not sit down here (a ``web``
        message id), or ``None``. A cash table refuses nobody: an empty wallet sits out."""
        return None

    async def connect(self, member: Member, send: Send) -> None:
        """The member's page is open: send them the table."""
        member.send = send
        member.away = None
        member.leaving = False  # back (a reload's page said it was leaving): still here
        if self.go.is_set():
            await self.show(member)
        else:  # everybody waiting sees one more seated
            await self.show_all()

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
        elif isinstance(message, dict) and message.get("type") == "choice":
            showdown = self.showdown
            if showdown is None or self.waiting != member.seat or showdown.over:
                await self.refuse(member, "Not your turn.", message)
            else:
                member.inbox.put_nowait(message)
        elif not isinstance(message, dict) or message.get("type") != "act":
            await self.refuse(member, "not a play", message)
        elif self.waiting != member.seat:
            await self.refuse(member, "Not your turn.", message)
        else:
            member.inbox.put_nowait(message)

    # --- watchers ---------------------------------------------------------------------

    async def open_watch(self, watcher: Member, send: Send) -> None:
        """A watching page is open (:meth:`watch`): it is sent the table, everybody the count."""
        watcher.send = send
        await self.show_all()

    async def close_watch(self, watcher: Member) -> None:
        """A watching page closed or dropped: everybody is shown the count one less."""
        if self.unwatch(watcher):
            await self.show_all()

    async def hear(self, watcher: Member, message: Any) -> None:
        """A message from a watching page: a play is refused (a watcher takes a seat through
        the lobby's way, ``/holdem?table=N``); its page leaving says nothing."""
        if isinstance(message, dict) and message.get("type") == "leave":
            return
        self.refused += 1
        LOG.warning("table %d: refused from watcher %r: %.200r", self.number, watcher.name, message)
        reason = translator("web", watcher.lang).gettext(WATCHING)
        await self.tell(watcher, {"type": "refused", "reason": reason})

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
                await self.deal_next()
        except Exception:  # a bug must not pass silently: the table stops, the log says why
            LOG.exception("table %d stopped", self.number)
            raise

    async def deal_next(self) -> None:
        """Between hands: free the seats of who left, then deal a hand if anybody is left."""
        freed = self.sweep() + self.release()
        if not freed and self.everyone:  # freed now: is anybody left?
            await self.play_staked()
            if self.release():  # who left during the hand: their wallet is whole
                await self.show_all()
            await self.clock.sleep(self.settings.pause)

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
        players = [  # who plays each seat, as staked: a member, else its computer player
            seat.name if owner is not None else self.bot_names[k]
            for k, (owner, seat) in enumerate(zip(self.owners, self.table.seats, strict=True))
        ]
        self.game = game
        try:
            record = await self.play_hand(players)
        finally:
            self.game = None
        payouts: dict[int, int] = {}
        for owner, seat in zip(self.owners, self.table.seats, strict=True):
            account = self.bank.house if owner is None else owner
            if account in stakes:  # else it sat out, with no chips
                payouts[account] = payouts.get(account, 0) + seat.chips
        try:
            await self.bank.settle(game, payouts, record.dumps())
        except StoreError as error:  # voided meanwhile (another server's start): logged
            LOG.warning("table %d: hand %d not settled: %s", self.number, game, error)
        await self.show_all()

    async def play_hand(self, players: list[str] | None = None) -> HandRecord:
        """One hand, from the deal to the settle; its record (kept with its money), its seats
        named ``players`` (default: as the log names them)."""
        before = sum(seat.chips for seat in self.table.seats)
        self.showdown = None
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
        revealed: tuple[int, ...] | None = None
        if self.settings.show_muck:
            showdown = await self.reveal(hand)
            self.say("REVEALED", hand, tuple(names), tuple(showdown.reveals))
            revealed = tuple(showdown.shown)
        else:
            self.say("SHOWDOWN", hand, tuple(names))
        self.table.settle()
        self.hands_done += 1
        for seat, member in self.members.items():  # the time bank: refilled per hand dealt in
            if hand.starting[seat] and self.owners[seat] == member.account:
                member.bank = min(self.settings.time_bank, member.bank + self.settings.bank_refill)
        if self.on_hand is not None:
            self.on_hand(self, before, sum(seat.chips for seat in self.table.seats))
        await self.show_all()
        return HandRecord.of(hand, names if players is None else players, revealed)

    def start_clock(self, hand: Hand) -> None:
        """If a member is to act, their turn's clock starts now, before every member is shown
        the table (so that everybody sees the seconds left to whoever must act)."""
        self.waiting = self.deadline = None
        self.banked = 0.0
        if not hand.over and hand.to_act in self.members:
            self.waiting = hand.to_act
            self.deadline = self.clock.now() + self.settings.timeout
            member = self.members[hand.to_act]
            self.banked = 0.0 if member.leaving else member.bank

    async def ask(self, member: Member, hand: Hand) -> Action:
        """The member's action from their page. Away (a page closed or a connection lost),
        their turn waits for them to the end of its clock (then a check, or a fold); left
        (:meth:`depart`), they fold once :data:`LEAVE_GRACE` seconds have passed without a
        page of theirs coming back. Once the clock has run out their time bank is spent (what
        they take of it is gone); only when it is empty too do they get the default. A move
        sent as soon as their turn was shown (before this is called) counts; what is left
        unplayed when the turn ends is dropped."""
        if self.waiting != member.seat or self.deadline is None:
            self.start_clock(hand)
        assert self.deadline is not None
        main = self.deadline
        deadline = main + self.banked  # the time bank follows the clock
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
                    continue  # out of time (the loop says so), or a wait cut by a leave
                if message is None:  # they left: look again
                    continue
                action = await self._try(member, hand, message)
                if action is not None:
                    return action
        finally:  # what came in during this turn and was not played is not for the next
            if self.banked:
                spent = min(self.banked, max(0.0, self.clock.now() - main))
                member.bank = max(0.0, member.bank - spent)
            self.waiting = self.deadline = None
            self.banked = 0.0
            while not member.inbox.empty():
                member.inbox.get_nowait()

    async def reveal(self, hand: Hand) -> Showdown:
        """The end of ``hand``: each seat with a choice shows or mucks, in the rules' order
        (:class:`~casino.holdem.showmuck.Showdown`). A member chooses within their clock (no
        time bank) and gets the default when it runs out or their page is closed; computer
        players take the default (never show an uncontested win, muck when allowed)."""
        showdown = self.showdown = Showdown(hand)
        while (seat := showdown.to_choose) is not None:
            member = self.members.get(seat)
            if member is None or member.send is None or self.owners[seat] != member.account:
                showdown.default()
                continue
            await self.choose(member, showdown)
        return showdown

    async def choose(self, member: Member, showdown: Showdown) -> None:
        """The member's show or muck (``{"type": "choice", "show": true}``), or the default."""
        while not member.inbox.empty():
            member.inbox.get_nowait()
        self.waiting = member.seat
        deadline = self.deadline = self.clock.now() + self.settings.timeout
        await self.show_all()
        try:
            while True:
                now = self.clock.now()
                if (
                    now >= deadline
                    or member.send is None
                    or self.members.get(member.seat) is not member
                ):
                    showdown.default()
                    return
                try:
                    message = await self.clock.within(member.inbox.get(), deadline - now)
                except TimeoutError:
                    showdown.default()
                    return
                if message is None:  # their page closed or they left: look again
                    continue
                show = message.get("show")
                if show is True:
                    showdown.show()
                    return
                if show is False and showdown.can_muck():
                    showdown.muck()
                    return
                template = "cannot muck: your hand must be shown" if show is False else "not a play"
                await self.refuse(member, template, message)
        finally:
            self.waiting = self.deadline = None
            await self.show_all()

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


def _chips(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**12


def _default(hand: Hand) -> Action:
    return hand.check() if hand.legal().can_check else hand.fold()
