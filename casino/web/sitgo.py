"""A sit-and-go tournament table for browsers: the Hold'em table of :mod:`casino.web.holdem`
played as one tournament, its rules :mod:`casino.holdem.tournament`'s.

**Money.** The whole tournament is ONE game of the store: when it starts, each member's
buy-in is moved from their wallet (and the computer players' buy-ins from the house) into
the game's holds, in one transaction; the chips the seats play with are tournament chips
(``chips`` each), never wallet money, so no hand touches the store. When one player has every
chip, the prize pool (every buy-in) is paid to the places (:func:`casino.holdem.tournament.
prizes`; the computer players' prizes to the house) in one transaction. A member whose wallet
is smaller than the buy-in cannot sit down (:meth:`SitGoTable.enter`).

**A stopped server.** ``kill -9`` in the middle of a tournament leaves its game open; on start
the server voids it like any open game (:meth:`casino.web.store.Store.void_open_games`): every
buy-in goes back to its wallet (the bots' to the house), the tournament is not resumed, and the
books balance.

**Seats.** Nobody sits down once the tournament has started; a member who leaves or loses their
page keeps their seat (their turns checked or folded, as at any table), their place and their
prize. When the tournament is over the members are stood up and the table waits for the next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casino.holdem.tournament import DEFAULT_SCHEDULE, Schedule, Standings, shares_for
from casino.i18n import translator
from casino.web.guard import LOG
from casino.web.holdem import WebTable
from casino.web.holdemlog import LEVEL, OUT, WINS
from casino.web.holdemseats import Member
from casino.web.store import StoreError
from casino.web.words import fill

SMALL_WALLET = "your wallet is smaller than the buy-in"
"""What a member whose wallet cannot pay the buy-in is told (a ``web`` message id)."""
OUT_PLACE = "You are out of the sit-and-go in place {place}."
"""What a player out of the tournament is told while it goes on."""


@dataclass(frozen=True)
class SitGoSettings:
    """A sit-and-go's buy-in (dollars), the chips each player starts with, the blinds."""

    buy_in: int = 100
    chips: int = 1500
    schedule: Schedule = DEFAULT_SCHEDULE


class SitGoTable(WebTable):
    """One sit-and-go table: members sit down (a wallet at least the buy-in), the seats nobody
    took are computer players', and it is played to one winner (see the module)."""

    sitgo = SitGoSettings()
    """The tournament's settings (:meth:`plays`)."""
    chosen_only = True
    standings: Standings | None = None
    """The tournament under way (``None``: waiting for players)."""
    played = 0
    """Hands played in the tournament under way."""
    tournament: int | None = None
    """The store's game of the tournament under way."""
    results: tuple[tuple[str, int, int], ...] = ()
    """The last tournament's ``(name, place, prize)``, the winner first."""

    def plays(self, sitgo: SitGoSettings) -> SitGoTable:
        """Make this table play tournaments of ``sitgo`` (before it runs), named
        ``sit-and-go N`` in the store; the table. :class:`ParseError` for a seat count the
        payouts do not know."""
        shares_for(self.settings.seats)
        self.sitgo = sitgo
        self.name = f"{self.name.removesuffix(f'table {self.number}')}sit-and-go {self.number}"
        return self

    @property
    def started(self) -> bool:
        """Whether a tournament is being played."""
        return self.standings is not None

    @property
    def buy_in(self) -> int:
        """The tournament's buy-in."""
        return self.sitgo.buy_in

    @property
    def blinds_now(self) -> tuple[int, int]:
        """The blinds of the tournament's next hand (its schedule's level)."""
        return self.sitgo.schedule.rules(self.played).blinds

    @property
    def chips_at_start(self) -> int:
        """The tournament chips each player starts with."""
        return self.sitgo.chips

    @property
    def closed(self) -> bool:
        """Nobody sits down once the tournament has started."""
        return self.started

    def refuses(self, wallet: int) -> str | None:
        """A wallet smaller than the buy-in may not sit down."""
        return SMALL_WALLET if wallet < self.sitgo.buy_in else None

    def sit(self, account: int, name: str, lang: str) -> Member | None:
        """Seat a member while the tournament waits for players (``None``: started or full)."""
        if self.started:
            return None
        return super().sit(account, name, lang)

    async def enter(self, account: int, name: str, lang: str) -> Member | None:
        """Seat a member whose wallet pays the buy-in (:class:`StoreError` if it cannot;
        ``None``: no free seat, or the tournament has started)."""
        refused = self.refuses(await self.bank.balance(account))
        if refused is not None:
            raise StoreError(refused)
        return self.sit(account, name, lang)

    async def receive(self, member: Member, message: Any) -> None:
        """As at any table, but nobody sits out of a tournament."""
        if isinstance(message, dict) and message.get("type") == "sitout":
            await self.refuse(member, "not a play", message)
            return
        await super().receive(member, message)

    async def deal_next(self) -> None:
        """Between tournaments: free the seats of who left, then play one if anybody is
        left."""
        self.sweep()
        self.release()
        if self.everyone:
            await self.play_tournament()
            await self.clock.sleep(self.settings.pause)

    async def play_tournament(self) -> None:
        """One tournament, from the buy-ins to the prizes."""
        buy_in = self.sitgo.buy_in
        stakes: dict[int, int] = {}
        for index, seat in enumerate(self.table.seats):
            member = self.members.get(index)
            account = self.bank.house if member is None else member.account
            self.owners[index] = None if member is None else member.account
            stakes[account] = stakes.get(account, 0) + buy_in
            seat.chips = self.sitgo.chips
        try:
            game = await self.bank.open("sitgo", self.name, stakes)
        except StoreError as error:  # a wallet spent elsewhere meanwhile: that member stands
            LOG.warning("sit-and-go %d not started: %s", self.number, error)
            wallets = await self.bank.balances([m.account for m in self.members.values()])
            for member in list(self.members.values()):
                if wallets.get(member.account, 0) < buy_in:
                    reason = translator("web", member.lang).gettext(SMALL_WALLET)
                    await self.tell(member, {"type": "refused", "reason": reason})
                    self._free(member)
            self.go.clear()
            if not self.everyone:
                self.joined.clear()
            return
        self.tournament, self.played, self.standings = game, 0, Standings(len(self.table.seats))
        players = [seat.name for seat in self.table.seats]
        LOG.info("sit-and-go %d: game %d, %r", self.number, game, players)
        try:
            await self._play(self.standings, players)
            await self._pay(game, self.standings, players)
            self.standings = None
            await self.show_all()  # the places and prizes, to everybody still seated
        finally:
            self.tournament = self.standings = None
            self.played = 0  # the lobby lists the next tournament at its first level
            for member in self.everyone:  # stood up: the next tournament is a new one
                self._free(member)
            self.joined.clear()
            self.go.clear()
        await self.show_all()

    async def _play(self, standings: Standings, players: list[str]) -> None:
        level = -1
        while not standings.over:
            if self.sitgo.schedule.level(self.played) != level:
                level = self.sitgo.schedule.level(self.played)
                rules = self.table.rules = self.sitgo.schedule.rules(self.played)
                self.say(LEVEL, level + 1, rules.small_blind, rules.big_blind, rules.ante)
            before = [seat.chips for seat in self.table.seats]
            await self.play_hand(players)
            self.played += 1
            out = standings.after_hand(before, [s.chips for s in self.table.seats])
            for seat in reversed(out):  # the last place first
                self.say(OUT, standings.places[seat], players[seat])
            if not standings.over:
                await self.clock.sleep(self.settings.pause)

    async def _pay(self, game: int, standings: Standings, players: list[str]) -> None:
        pool = self.sitgo.buy_in * len(self.table.seats)
        prizes = standings.payouts(pool)
        payouts: dict[int, int] = {}
        for index, owner in enumerate(self.owners):
            account = self.bank.house if owner is None else owner
            payouts[account] = payouts.get(account, 0) + prizes.get(index, 0)
        winner = standings.by_place()[0]
        self.say(WINS, prizes[winner], players[winner])
        self.results = tuple(
            (players[s], standings.places[s], prizes.get(s, 0)) for s in standings.by_place()
        )
        try:
            await self.bank.settle(game, payouts)
        except StoreError as error:  # voided meanwhile (another server's start): logged
            LOG.warning("sit-and-go %d: game %d not paid: %s", self.number, game, error)

    def notice(self, member: Member) -> str | None:
        """As at any table, but a player out of the tournament is told their place (not
        that their wallet is empty)."""
        standings = self.standings
        if standings is not None and member.seat in standings.places:
            place = standings.places[member.seat]
            return fill(translator("web", member.lang).gettext(OUT_PLACE), member.lang, place=place)
        return super().notice(member)

    def view(self, member: Member) -> dict[str, Any]:
        """The Hold'em view, with the tournament's level, blinds, buy-in and places."""
        data = super().view(member)
        schedule = self.sitgo.schedule
        level = schedule.level(self.played)
        standings = self.standings
        data["tournament"] = {
            "buy_in": self.sitgo.buy_in,
            "started": standings is not None,
            "level": level + 1,
            "blinds": list(schedule.levels[level].blinds),
            "ante": schedule.levels[level].ante,
            "next_level_in": (
                None
                if level == len(schedule.levels) - 1
                else (level + 1) * schedule.hands_per_level - self.played
            ),
            "places": {} if standings is None else dict(standings.places),
            "results": [list(result) for result in self.results],
        }
        return data
