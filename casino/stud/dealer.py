"""The Dealer: seats players, deals three-card stud hands, and removes players that misbehave.

:class:`Table` plays over any :class:`Connection` (a TCP :class:`~casino.net.held.SocketPeer`
or a test's in-memory one) and takes its time from a :class:`~casino.clock.Clock`, so the
reply limit is tested with a fake clock. :func:`run_dealer` is the TCP front: it listens on
loopback, logs players in (all at once, each within the reply limit: see :func:`gather`),
and plays; its connections are those of :mod:`casino.net` (sends never wait on a player that
does not read; connections are capped below the file descriptor limit; what a player sends
unasked waits in TCP's buffers until the dealer asks, and is then its reply). A table alone in
its process holds them while it plays (:mod:`casino.net.held`: no event-loop turn a reply).

Choices where the seed is silent (see ``docs/stud.md``, "Decisions where the seed is silent"):

- ``bet1`` lists the up card of every player dealt into the hand, ``bet2`` the two up cards
  of every player still in, both in seat order;
- the second betting round starts with the best two up cards (a pair, else the highest card);
- a player who cannot match must fold: a bet it cannot afford is illegal;
- a player whose stack is 0 after the ante is still asked, and may bet 0 when nothing is
  to match;
- when all but one player fold, that player still gets a second up card (not bet on) so
  ``status`` always shows three cards; ``status:win`` goes to every player paid from the pot,
  ``status:lose`` to the others dealt in, and both travel with the player's next message
  (one packet, one wake-up: the next request or ``done``);
- a removed player's chips in the pot stay there; the rest of its stack leaves with it;
- an id or avatar is 1 to :data:`MAX_LOGIN` printable characters (spaces allowed); two
  players may give the same ones (a Casino Day may seat the same program twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from casino.cards import Card, Deck
from casino.clock import Clock, WaitClock
from casino.errors import CasinoError
from casino.net import LOOPBACK
from casino.net.guard import Limits, WarningLog
from casino.net.held import HeldClock, SocketPeer
from casino.net.javautf import encode_frame
from casino.net.listener import listen
from casino.net.names import BadName, check_name
from casino.net.stream import ConnectionClosed, bound_port
from casino.stopping import TaskFailed, failure_of
from casino.stud import protocol as wire
from casino.stud.rules import ANTE, first_to_act, rotation, settle


class Connection(Protocol):
    """One player's line to the dealer."""

    async def send(self, text: str) -> None:
        """Send one message; :class:`ConnectionClosed` if the player is gone."""
        ...

    def post(self, text: str) -> None:
        """Queue a message that takes no reply, to go with the next :meth:`send`."""
        ...

    async def receive(self) -> str:
        """The player's next message; :class:`ConnectionClosed` if it is gone."""
        ...

    async def close(self) -> None:
        """Hang up (never raises)."""
        ...


@dataclass
class Seat:
    """A player at the table."""

    number: int
    ident: str
    avatar: str
    stack: int
    connection: Connection
    left: str | None = None
    """Why the player left the table (``None`` while it plays)."""
    left_after: int = 0
    """How many hands had been played when it left (for the ranking)."""

    @property
    def playing(self) -> bool:
        """Whether the player is still at the table."""
        return self.left is None


MAX_PLAYERS = 17
"""The most players one table deals to: three cards each from one deck of 52."""
GAME_OVER = "game over"
"""Why the players still at the table at the end leave it."""


@dataclass(frozen=True)
class TableConfig:
    """The table's rules and limits."""

    hands: int | None = None
    """Stop after this many hands (``None``: until one player is left)."""
    reply_timeout: float = 1.0
    """Seconds a player has for each reply."""


class Observer(Protocol):
    """Whoever watches the table: the live screen, the log, the history file."""

    def event(self, text: str) -> None:
        """Something worth a log line happened (a login, a removal)."""

    def hand_over(self, record: dict[str, Any], seats: list[Seat]) -> None:
        """A hand is finished; ``record`` is its history entry."""


class QuietObserver:
    """Watches nothing."""

    def event(self, text: str) -> None:
        """Ignore the event."""

    def hand_over(self, record: dict[str, Any], seats: list[Seat]) -> None:
        """Ignore the hand."""


class Removed(CasinoError):
    """A player broke the rules or went away; the message is its ``done:`` reason."""


def _cards(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [wire.card_text(card) for card in cards]


@dataclass
class _Hand:
    """The state of the hand being played."""

    number: int
    dealt: list[int]
    holes: dict[int, Card]
    ups: dict[int, list[Card]]
    live: list[int]
    actions: list[list[Any]] = field(default_factory=list)


class Table:
    """Plays hands among seated players until one is left or the hand limit is reached.

    ``shuffle`` makes each hand's deck from the table's random source (a test may stack it).
    """

    def __init__(
        self,
        seats: list[Seat],
        config: TableConfig,
        clock: Clock,
        rng: random.Random,
        observer: Observer | None = None,
        shuffle: Callable[[random.Random], Deck] = Deck.shuffled,
    ) -> None:
        self.seats = seats
        self.shuffle = shuffle
        self.config = config
        self.clock = clock
        self.rng = rng
        self.observer: Observer = observer or QuietObserver()
        self.hands_played = 0
        self.pot = 0

    # ------------------------------------------------------------ the whole game

    async def play(self) -> list[Seat]:
        """Play to the end, say ``done`` to everybody still there, and return the ranking."""
        limit = self.config.hands
        while limit is None or self.hands_played < limit:
            await self._drop_broke()
            if len(self.playing()) < 2:
                break
            await self.play_hand()
        for seat in self.playing():
            await self.remove(seat, GAME_OVER)
        return self.ranking()

    def playing(self) -> list[Seat]:
        """The seats still at the table."""
        return [seat for seat in self.seats if seat.playing]

    def ranking(self) -> list[Seat]:
        """Best first: the biggest stack among those who lasted longest."""
        return sorted(self.seats, key=lambda seat: (-seat.left_after, -seat.stack, seat.number))

    def chips(self) -> int:
        """Every chip on the table: all stacks (those who left too) plus the pot."""
        return sum(seat.stack for seat in self.seats) + self.pot

    async def _drop_broke(self) -> None:
        for seat in self.playing():
            if seat.stack < ANTE:
                await self.remove(seat, "you have no chips left to ante")

    async def remove(self, seat: Seat, reason: str) -> None:
        """Send ``done:<reason>``, hang up, and take the player off the table."""
        if not seat.playing:
            return
        seat.left = reason
        seat.left_after = self.hands_played
        if reason != GAME_OVER:
            self.observer.event(f"{seat.avatar} leaves: {reason}")
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            await self.clock.within(
                seat.connection.send(f"done:{reason}"), self.config.reply_timeout
            )
        await seat.connection.close()

    # ------------------------------------------------------------ one hand

    async def play_hand(self) -> None:
        """Ante, deal, two betting rounds, showdown, pay, tell everyone."""
        deck = self.shuffle(self.rng)
        dealt = [seat.number for seat in self.playing()]
        for number in dealt:
            self.seats[number].stack -= ANTE
            self.pot += ANTE
        hand = _Hand(self.hands_played + 1, dealt, {}, {}, list(dealt))
        for number in dealt:
            hand.holes[number] = deck.deal_one()
        for number in dealt:
            hand.ups[number] = [deck.deal_one()]
        await self._betting(hand, 1, {n: hand.ups[n] for n in dealt})
        for number in hand.live:
            hand.ups[number].append(deck.deal_one())
        if len(hand.live) > 1:
            await self._betting(hand, 2, {n: hand.ups[n] for n in hand.live})
        await self._showdown(hand)

    async def _betting(self, hand: _Hand, round_: int, shown: dict[int, list[Card]]) -> None:
        visible = tuple(tuple(cards) for cards in shown.values())
        table_text = wire.format_table(visible)
        start = first_to_act({n: cards for n, cards in shown.items() if n in hand.live})
        order = rotation(list(shown), start)
        paid = dict.fromkeys(order, 0)
        highest = 0  # the most any player has put in this round
        pending = list(order)
        while pending and len(hand.live) > 1:
            number = pending.pop(0)
            if number not in hand.live:
                continue
            seat = self.seats[number]
            to_match = highest - paid[number]
            request = wire.BetRequest(
                round_,
                seat.stack,
                self.pot,
                to_match,
                hand.holes[number],
                tuple(hand.ups[number]),
                visible,
            )
            amount = await self._ask(seat, request, wire.format_bet(request, table_text))
            if amount is None:
                hand.live.remove(number)
                hand.actions.append([round_, number, "fold"])
                continue
            seat.stack -= amount
            self.pot += amount
            paid[number] += amount
            hand.actions.append([round_, number, amount])
            if amount > to_match:  # a raise (a legal bet is at least the amount to match)
                highest = paid[number]
                after = rotation(order, number)[1:]
                pending = [other for other in after if other in hand.live]

    async def _ask(self, seat: Seat, request: wire.BetRequest, text: str) -> int | None:
        """The player's legal bet (``text``: ``request`` on the wire), or ``None`` if it
        folded or was removed."""
        try:
            reply = await self._exchange(seat, text)
            action = wire.parse_action(reply)
        except Removed as problem:
            await self.remove(seat, str(problem))
            return None
        except wire.ProtocolError as error:
            await self.remove(seat, f"unparsable reply {reply[:60]!r} to {text}: {error}")
            return None
        if isinstance(action, wire.Fold):
            return None
        if not wire.legal_bet(action.amount, request.stack, request.to_match):
            await self.remove(seat, _illegal(action.amount, request, text))
            return None
        return action.amount

    async def _exchange(self, seat: Seat, text: str) -> str:
        limit = self.config.reply_timeout
        try:
            return await self.clock.within(_send_receive(seat.connection, text), limit)
        except TimeoutError:
            raise Removed(f"no reply within {limit:g} s to {text}") from None
        except ConnectionClosed as error:
            raise Removed(f"disconnected ({error})") from None

    async def _showdown(self, hand: _Hand) -> None:
        order = [n for n in hand.dealt if n in hand.live]
        result = settle(self.pot, {n: [hand.holes[n], *hand.ups[n]] for n in order}, order)
        pot, self.pot = self.pot, 0
        for number, chips in result.payouts.items():
            self.seats[number].stack += chips
        self.hands_played += 1
        winner = result.winners[0]
        shown = (hand.holes[winner], *hand.ups[winner])
        record = {
            "hand": hand.number,
            "players": hand.dealt,
            "hole": {str(n): wire.card_text(hand.holes[n]) for n in hand.dealt},
            "up": {str(n): _cards(hand.ups[n]) for n in hand.dealt},
            "actions": hand.actions,
            "pot": pot,
            "winners": list(result.winners),
            "spade": result.spade,
            "payouts": {str(n): chips for n, chips in result.payouts.items()},
            "stacks": {str(seat.number): seat.stack for seat in self.seats},
        }
        for number in hand.dealt:
            seat = self.seats[number]
            if seat.playing:
                status = wire.Status(number in result.payouts, (shown[0], shown[1], shown[2]))
                seat.connection.post(wire.format_command(status))
        self.observer.hand_over(record, self.seats)


async def _send_receive(connection: Connection, text: str) -> str:
    await connection.send(text)
    return await connection.receive()


def _illegal(amount: int, request: wire.BetRequest, text: str) -> str:
    allowed = wire.legal_range(request.stack, request.to_match)
    if not allowed:
        why = f"you must fold: your stack {request.stack} cannot match {request.to_match}"
    else:
        why = f"allowed {allowed.start} to {allowed.stop - 1}"
    return f"illegal bet {amount} to {text}: {why}"


MAX_LOGIN = 40
"""The longest id or avatar a login reply may give (a GitHub id has at most 39 characters)."""


async def log_in(connection: Connection, clock: Clock, timeout: float) -> wire.LoginReply:
    """Send ``login`` and read the reply; :class:`Removed` with the reason if it is bad (late,
    unparsable, or an id or avatar that is not 1 to :data:`MAX_LOGIN` printable characters)."""
    try:
        reply = await clock.within(_send_receive(connection, "login"), timeout)
        login = wire.parse_login_reply(reply)
        for field_name, value in (("id", login.id), ("avatar", login.avatar)):
            try:
                check_name(value, most=MAX_LOGIN, spaces=True)
            except BadName as error:
                raise Removed(f"login reply: {field_name}: {error}") from None
        return login
    except TimeoutError:
        raise Removed(f"no reply within {timeout:g} s to login") from None
    except ConnectionClosed as error:
        raise Removed(f"disconnected ({error})") from None
    except wire.ProtocolError as error:
        raise Removed(str(error)) from None


async def turn_away(connection: Connection, reason: str, clock: Clock, timeout: float) -> None:
    """Send ``done:<reason>`` (never waiting on a peer that does not read) and hang up."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        await clock.within(connection.send(f"done:{reason}"), timeout)
    await connection.close()


async def gather(
    connections: asyncio.Queue[Connection],
    players: int,
    stack: int,
    clock: Clock,
    timeout: float,
    observer: Observer,
) -> list[Seat]:
    """Take connections from ``connections`` and log them in until ``players`` are seated.

    Every connection logs in at once, on its own, within ``timeout`` seconds (on ``clock``):
    a connection that does not answer delays nobody. Seats go in the order logins succeed;
    the connections still logging in when the table is full are told so and closed. Failed
    logins are logged (rate-limited). A login or the taking of connections that fails with an
    error (a bug, not a player's doing) is raised as :class:`~casino.stopping.TaskFailed`
    rather than lost: the dealer ends with it instead of waiting for a seat that never comes.
    """
    log = WarningLog(observer.event, clock)
    seated: asyncio.Queue[tuple[Connection, wire.LoginReply] | TaskFailed] = asyncio.Queue()
    waiting: set[Connection] = set()

    async def login(connection: Connection) -> None:
        try:
            reply = await log_in(connection, clock, timeout)
        except Removed as problem:
            log.warn("login", f"a login failed: {problem}")
            await turn_away(connection, str(problem), clock, timeout)
            waiting.discard(connection)
            return
        seated.put_nowait((connection, reply))

    async def take() -> None:
        while True:
            connection = await connections.get()
            waiting.add(connection)
            logins.add(watched(asyncio.create_task(login(connection)), "a login"))

    def watched(task: asyncio.Task[None], what: str) -> asyncio.Task[None]:
        def done(task: asyncio.Task[None]) -> None:
            failed = failure_of(task, what)
            if failed is not None:
                seated.put_nowait(failed)

        task.add_done_callback(done)
        return task

    logins: set[asyncio.Task[None]] = set()
    taker = watched(asyncio.create_task(take()), "taking connections")
    seats: list[Seat] = []
    try:
        while len(seats) < players:
            got = await seated.get()
            if isinstance(got, TaskFailed):
                raise got
            connection, reply = got
            waiting.discard(connection)
            seats.append(Seat(len(seats), reply.id, reply.avatar, stack, connection))
            observer.event(f"{reply.avatar} sits down ({len(seats)} of {players})")
    finally:
        taker.cancel()
        for task in logins:
            task.cancel()
        await asyncio.gather(taker, *logins, return_exceptions=True)
        for connection in waiting:
            await turn_away(connection, "the table is full", clock, timeout)
    return seats


@dataclass(frozen=True)
class DealerSettings:
    """Everything ``casino stud dealer`` is told."""

    players: int
    port: int = 0
    stack: int = 100
    seed: int | None = None
    table: TableConfig = field(default_factory=TableConfig)
    wait: float | None = None
    """Give up if the players have not all logged in within this many seconds."""
    host: str = LOOPBACK
    """The address to listen on (loopback unless told: a Casino Day across machines)."""


async def run_dealer(
    settings: DealerSettings,
    clock: Clock,
    observer: Observer | None = None,
    listening: Callable[[int], None] | None = None,
    alone: WaitClock | None = None,
) -> list[Seat]:
    """Listen on ``settings.host`` (loopback by default), seat ``settings.players`` players,
    play, and return the ranking.

    ``listening`` is told the port once the server accepts connections. :class:`Removed`
    (with the reason) if the players do not all come within ``settings.wait`` seconds.
    ``alone``: the table is the only thing this event loop runs while it plays (``casino stud
    dealer``, a tournament), so it waits on its players' sockets directly, on this clock (see
    :mod:`casino.net.held`: an asyncio turn a reply less).
    """
    watcher: Observer = observer or QuietObserver()
    arrivals: asyncio.Queue[Connection] = asyncio.Queue()
    timeout = settings.table.reply_timeout
    limits = Limits(send_timeout=timeout)
    log = WarningLog(watcher.event, clock)

    async def accept(conn: socket.socket) -> None:
        peer = SocketPeer(conn, limits, clock, log)
        await arrivals.put(peer)
        try:
            await peer.wait_closed()
        except asyncio.CancelledError:  # the loop is shutting down: hang up quietly
            conn.close()
            raise

    refusal = encode_frame("done:the dealer has all the connections it can take")
    server = await listen(accept, settings.port, settings.host, limits, log, refusal)
    try:
        if listening is not None:
            listening(bound_port(server))
        gathering = gather(arrivals, settings.players, settings.stack, clock, timeout, watcher)
        try:
            seats = await asyncio.wait_for(gathering, settings.wait)
        except TimeoutError:
            raise CasinoError(
                f"not all {settings.players} players came within {settings.wait:g} s"
            ) from None
        server.close()
        table_clock: Clock = clock
        if alone is not None:
            table_clock = HeldClock(alone)
            for seat in seats:
                if isinstance(seat.connection, SocketPeer):
                    seat.connection.hold(alone, timeout)
        table = Table(seats, settings.table, table_clock, random.Random(settings.seed), watcher)
        return await table.play()
    finally:
        server.close()
        while not arrivals.empty():
            await arrivals.get_nowait().close()
