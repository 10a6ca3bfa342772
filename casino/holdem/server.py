"""``casino holdem serve``: Hold'em tables on the network, for ``casino holdem join`` or ``nc``.

The line protocol (UTF-8, one command per line, answers are plain text lines):

=========================  ===================================================================
client sends               meaning
=========================  ===================================================================
``join NAME [TABLE]``      sit at table TABLE (1..T; default: the first with a free seat); the
                           answer gives the seat and a token
``join NAME TOKEN``        take back your seat after a disconnect (the token you were given)
``pasar``/``check`` …      the terminal table's commands (``ir``/``call``, ``apostar N``,
                           ``subir N``, ``todo``, ``retirarse``, ``ayuda``, ``salir``)
=========================  ===================================================================

The server sends what the terminal table prints — who posted the blinds, actions, streets,
showdowns — to every member of the table, and a seat's hole cards only to that seat, once at
the deal. When it is your turn it sends the table (your cards with the board after the flop),
the legal actions, then the line ``Tu turno.`` (``Your turn.``). Seats
nobody has joined are played by computer players. A member who disconnects is folded (or
checks, when that is free) until they join again under the same name with their token
(nobody else can take the seat) — for ``--seat-timeout`` seconds (120): a member away longer
loses the seat, which its computer player plays again (its name back from the next hand, the
seat's chips with it) and anybody may take; a table whose members have all gone so waits for
members again as at its start. Seats are looked at before each hand and at every ``join``. A
member who takes longer than ``--timeout`` seconds is checked or folded.

A table starts when ``--wait N`` members have joined it, or ``--fill-after S`` seconds after
its first member joined (computer players fill the other seats); until then every member is
told how many seats are taken. A member who joins during a hand is seated for the next one
(told so; the seat's computer player finishes the hand under its own name), never refused
while a seat is free. Anything a client sends — garbage
bytes, overlong lines, commands out of turn — is answered, never fatal. With ``--state
FILE`` every table is saved after each hand and restored at start.

No client can stall a table (see :mod:`casino.net.guard`): what the server sends is queued,
never waited for, and a member who does not read it (over the queue, or not read within
``--timeout`` seconds) is dropped, their seat played as a disconnected one; a client that
sends lines faster than the limit is told to slow down, its extra lines are skipped, and it
is dropped if it goes on; a connection that has not joined within ``--timeout`` seconds is
closed; one that has not joined within ``join_grace`` seconds (5) counts as idle, and at most
``unjoined_per_address`` (16) idle connections from one host may be open at once (one more
is told so and closed when its grace ends): members behind one address who join in time are
never refused, however many; beyond the connections the file descriptor limit allows, new
ones are told the server is full. Every path the server writes (``--state``) is checked at
start (one line, status 2); a table that fails (its state cannot be saved) is said on stderr,
the other tables are stopped and the server ends (status 1). A name is printable text without spaces
(:mod:`casino.net.names`) and not one already at a table; the computer players' names
(``Ana (bot)``) have a space, so no name a member may send is theirs. Warnings (drops,
refusals) go to the server's log, rate-limited.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import Callable
from pathlib import Path

from casino.clock import Clock, MonotonicClock
from casino.cmdline import ArgumentParser, FileProblem, Invocation, UsageError, whole_number
from casino.errors import ParseError
from casino.files import resolve_target, write_atomic
from casino.holdem.bots import STYLES
from casino.holdem.commands import BadCommand, Verb, parse_command
from casino.holdem.options import add_rules_options, rules_of
from casino.holdem.options import seconds as _seconds
from casino.holdem.room import Member, Room, ServerSettings
from casino.holdem.shell import HELP, localize_help
from casino.holdem.table import Table
from casino.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator
from casino.net import LOOPBACK
from casino.net.guard import RateLimited, WarningLog
from casino.net.lines import LineStream, LineTooLong, serve_lines
from casino.net.listener import Listener
from casino.net.names import (
    MARKED,
    RESERVED,
    TAKEN,
    UNPRINTABLE,
    BadName,
    check_name,
    name_key,
)
from casino.net.stream import ConnectionClosed, bound_port
from casino.shell import Streams

NO_TABLE = "No such table."
NO_SEAT = "No free seat now; try again later."
JOIN_FIRST = "Send join NAME [TABLE] first."
JOIN_REFUSALS = (TAKEN, NO_TABLE, NO_SEAT, JOIN_FIRST, UNPRINTABLE, MARKED, RESERVED)
"""What the server answers a ``join`` it refuses (message ids: ``casino holdem join`` knows
them in both languages, and exits saying why instead of waiting silently)."""


class HoldemServer:
    """Several :class:`Room` tables behind one listening socket."""

    def __init__(
        self,
        settings: ServerSettings,
        clock: Clock | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.clock: Clock = clock or MonotonicClock()
        self.log = WarningLog(log or (lambda text: None), self.clock)
        """The server's warnings (drops, refusals), rate-limited."""
        master = random.Random(settings.seed)
        self.rooms = [
            Room(k + 1, settings, self.clock, master.getrandbits(64))
            for k in range(settings.tables)
        ]
        for room in self.rooms:
            room.on_save = self.save
        self.tasks: list[asyncio.Task[None]] = []
        self.unjoined: dict[str, int] = {}
        """Idle connections (not joined within their grace), by the host they come from."""
        self.restore()

    # --- saving -----------------------------------------------------------------------

    def save(self) -> None:
        """Every table to ``--state`` (atomically)."""
        if self.settings.state is None:
            return
        data = [room.table.to_dict() for room in self.rooms]
        write_atomic(self.settings.state, json.dumps(data))

    def restore(self) -> None:
        """Tables from ``--state`` if it exists (a hand in progress is not kept)."""
        if self.settings.state is None or not Path(self.settings.state).exists():
            return
        try:
            data = json.loads(Path(self.settings.state).read_text(encoding="utf-8"))
            tables = [Table.from_dict(item) for item in data]
        except (OSError, ValueError, TypeError, ParseError) as error:
            raise FileProblem(f"cannot restore {self.settings.state!r}: {error}") from None
        for room, table in zip(self.rooms, tables, strict=False):
            table.hand = None
            room.table = table

    # --- connections ------------------------------------------------------------------

    async def handle(self, stream: LineStream) -> None:
        """One client, from ``join`` to goodbye. Never raises."""
        _ = translator("holdem", self.settings.lang).gettext
        member: Member | None = None
        room: Room | None = None
        start = self.clock.now()
        deadline = start + self.settings.timeout
        grace = start + min(self.settings.join_grace, self.settings.timeout)
        host = stream.name.rpartition(":")[0] or stream.name
        waiting = False
        try:
            await stream.send(_("casino holdem: send join NAME [TABLE]."))
            while True:
                until = None if member else (deadline if waiting else grace)
                try:
                    line = (await self._next_line(stream, until)).strip()
                except LineTooLong:
                    await stream.send(_("Line too long."))
                    continue
                except RateLimited:
                    await stream.send(_("Too many lines: slow down."))
                    continue
                except TimeoutError:
                    if waiting or self.clock.now() >= deadline:
                        await stream.send(_("No join within the time limit; goodbye."))
                        return
                    if not await self._idle(stream, host):
                        return
                    waiting = True
                    continue
                if not line:
                    continue
                if member is None or room is None:
                    room, member = await self._join(stream, line)
                    if member is not None and waiting:
                        waiting = self._joined(host)
                    continue
                await self._command(room, member, line)
        except ConnectionClosed:
            pass
        finally:
            if waiting:
                self._joined(host)
            if member is not None and room is not None and member.stream is stream:
                room.leave(member)
            await stream.close()

    async def _idle(self, stream: LineStream, host: str) -> bool:
        """The connection's grace to join is over: count it as idle from ``host``, or, with
        ``unjoined_per_address`` idle from there already, tell it so (``False``: close it)."""
        if self.unjoined.get(host, 0) >= self.settings.unjoined_per_address:
            _ = translator("holdem", self.settings.lang).gettext
            self.log.warn("unjoined", f"{stream.name}: refused: too many unjoined from {host}")
            await stream.send(_("Too many connections from your address have not joined; goodbye."))
            return False
        self.unjoined[host] = self.unjoined.get(host, 0) + 1
        return True

    def _joined(self, host: str) -> bool:
        """One connection from ``host`` no longer waits to join (``False``, for ``waiting``)."""
        left = self.unjoined.get(host, 0) - 1
        if left > 0:
            self.unjoined[host] = left
        else:
            self.unjoined.pop(host, None)
        return False

    async def _next_line(self, stream: LineStream, deadline: float | None) -> str:
        """The client's next line; before it has joined, :class:`TimeoutError` at ``deadline``."""
        if deadline is None:
            return await stream.receive()
        return await self.clock.within(stream.receive(), max(0.0, deadline - self.clock.now()))

    async def _join(self, stream: LineStream, line: str) -> tuple[Room | None, Member | None]:
        _ = translator("holdem", self.settings.lang).gettext
        words = line.split()
        if words[0].lower() not in ("join", "unirse") or not 2 <= len(words) <= 4:
            await stream.send(_(JOIN_FIRST))
            return None, None
        name = words[1]
        token = next((w for w in words[2:] if not w.isdigit()), None)
        table = next((w for w in words[2:] if w.isdigit()), None)
        try:
            check_name(name)  # a computer player's name has a space: never a person's
        except BadName as error:
            await stream.send(_(error.template).format(**error.values))
            return None, None
        for room in self.rooms:
            room.free_away()
            for member in [*room.members.values(), *room.arriving.values()]:
                if name_key(member.name) == name_key(name):
                    if member.stream is not None or token != member.token:
                        await stream.send(_(TAKEN))
                        return None, None
                    member.stream = stream
                    member.away_since = None
                    await stream.send(_("Welcome back, {name}.").format(name=member.name))
                    return room, member
        rooms = self.rooms
        if table is not None:
            number = int(table) if len(table) < 4 else 0
            if not 1 <= number <= len(self.rooms):
                await stream.send(_(NO_TABLE))
                return None, None
            rooms = [self.rooms[number - 1]]
        for room in rooms:
            seat = room.free_seat()
            if seat is not None:
                return room, await self._seat(room, Member(name, seat, stream))
        await stream.send(_(NO_SEAT))
        return None, None

    async def _seat(self, room: Room, member: Member) -> Member:
        """Seat ``member`` (for the next hand if one is being played), give them their token,
        and tell a waiting table how many seats are taken."""
        _ = room.tr.gettext
        where = _("You sit at table {table}, seat {seat}.").format(
            table=room.number, seat=member.seat + 1
        )
        if room.dealing:
            room.arriving[member.seat] = member
        else:
            room.members[member.seat] = member
            room.table.seats[member.seat].name = member.name
        await room.tell(member.seat, where)
        await room.tell(
            member.seat,
            _("Your token: {token} (to take your seat back: join {name} {token}).").format(
                token=member.token, name=member.name
            ),
        )
        if room.dealing:
            await room.tell(member.seat, _("You are seated for the next hand."))
        seated = len(room.members) + len(room.arriving)
        room.first.set()
        if seated >= self.settings.start_with:
            room.joined.set()
        elif not room.joined.is_set():
            await room.everyone(
                _("Waiting for players: {seated} of {wait} seated.").format(
                    seated=seated, wait=self.settings.start_with
                )
            )
        return member

    async def _command(self, room: Room, member: Member, line: str) -> None:
        tr = room.tr
        _ = tr.gettext
        try:
            intent = parse_command(line)
        except BadCommand as error:
            reason = _(error.template).format(**error.values)
            await room.tell(member.seat, _("Not allowed: {reason}").format(reason=reason))
            return
        if intent.verb is Verb.HELP:
            await room.tell(member.seat, _(HELP))
        elif intent.verb is Verb.QUIT:
            assert member.stream is not None
            stream = member.stream
            room.leave(member)
            await stream.close()
        elif room.waiting == member.seat:
            member.inbox.put_nowait(line)
        else:
            await room.tell(member.seat, _("Not your turn."))

    async def serve(self, port: int, host: str = LOOPBACK) -> Listener:
        """Start listening and every table's loop; returns the listening server."""
        _ = translator("holdem", self.settings.lang).gettext
        server = await serve_lines(
            self.handle,
            port,
            host,
            limits=self.settings.client_limits(),
            clock=self.clock,
            log=self.log,
            refusal=_("The server is full; try again later."),
        )
        self.tasks = [asyncio.create_task(room.run()) for room in self.rooms]
        return server

    async def finished(self) -> None:
        """Wait until every table is over. A table that fails stops the others, and its
        error is raised (a state that cannot be saved: :class:`FileProblem`)."""
        pending = set(self.tasks)
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)
            failed = next((t for t in done if not t.cancelled() and t.exception()), None)
            if failed is None:
                continue
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            error = failed.exception()
            assert error is not None
            number = self.tasks.index(failed) + 1
            if isinstance(error, OSError):
                why = error.strerror or error
                raise FileProblem(
                    f"table {number} stopped: cannot save {self.settings.state}: {why}"
                )
            raise error


# --- command line -------------------------------------------------------------------------


def _parser(invocation: Invocation) -> ArgumentParser:
    parser = invocation.parser(description="Run Hold'em tables on the network (line protocol).")
    parser.add_argument(
        "--port",
        type=whole_number(0, 65535),
        default=0,
        help="the TCP port to listen on (0, the default: any free one, printed at start)",
    )
    parser.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"the address to listen on ({LOOPBACK}, the default: this machine only; "
        "0.0.0.0: every network)",
    )
    parser.add_argument(
        "--seats", type=whole_number(2, 9), default=6, help="seats at each table, 2-9 (6)"
    )
    parser.add_argument(
        "--tables", type=whole_number(1, 50), default=1, help="tables to run, 1-50 (1)"
    )
    parser.add_argument(
        "--stack",
        type=whole_number(1, 10**12),
        default=1000,
        help="chips each player sits with (1000)",
    )
    add_rules_options(parser)
    parser.add_seed_option("seed the deals and the computer players with N")
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="seconds a player has for each action (30); then they check or fold",
    )
    parser.add_argument(
        "--hands", type=whole_number(1, 10**6), metavar="N", help="hands per table, then stop"
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=DEFAULT_LANGUAGE,
        help="the tables' language: es (default) or en",
    )
    parser.add_argument(
        "--state",
        metavar="FILE",
        help="save the tables here after each hand; restore at start",
    )
    parser.add_argument(
        "--seat-timeout",
        type=_seconds,
        default=120.0,
        metavar="S",
        help="seconds a disconnected member keeps the seat (120); then it is freed",
    )
    parser.add_argument(
        "--wait",
        type=whole_number(1, 9),
        default=1,
        metavar="N",
        help="members who must join a table before it starts (1)",
    )
    parser.add_argument(
        "--fill-after",
        type=_seconds,
        metavar="S",
        help="start a waiting table S seconds after its first member joined, computer "
        "players in the empty seats (default: wait for --wait members)",
    )
    return localize_help(parser, invocation.argv)


def serve_body(invocation: Invocation) -> int:
    """``casino holdem serve …``: listen and run the tables until every one is over."""
    options = _parser(invocation).parse_args(invocation.argv)
    check_state_path(options.state)
    settings = ServerSettings(
        seats=options.seats,
        tables=options.tables,
        stack=options.stack,
        rules=rules_of(options),
        seed=options.seed,
        timeout=options.timeout,
        lang=options.lang,
        hands=options.hands,
        state=options.state,
        start_with=min(options.wait, options.seats),
        fill_after=options.fill_after,
        seat_grace=options.seat_timeout,
    )
    return asyncio.run(_serve(settings, options.host, options.port, invocation.streams))


async def _serve(settings: ServerSettings, host: str, port: int, streams: Streams) -> int:
    try:
        server = HoldemServer(settings, log=_logger(streams))
        listening = await server.serve(port, host)
    except OSError as error:
        raise FileProblem(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    streams.stdout.write(f"casino holdem: listening on {host}:{bound_port(listening)}\n")
    streams.stdout.flush()
    async with listening:
        await server.finished()
    return 0


def check_state_path(path: str | None) -> None:
    """``--state``'s file can be written: its folder exists and may be written in, and it is
    neither a folder nor a read-only file (else :class:`UsageError`: one line, status 2)."""
    if path is None:
        return
    try:
        target = resolve_target(Path(path))
    except OSError as error:
        raise UsageError(f"--state {path}: {error.strerror or error}") from None
    folder = target.parent
    if not folder.is_dir():
        raise UsageError(f"--state {path}: the folder {str(folder)!r} does not exist")
    if target.is_dir():
        raise UsageError(f"--state {path}: a folder, not a file")
    if not os.access(folder, os.W_OK | os.X_OK) or (
        target.exists() and not os.access(target, os.W_OK)
    ):
        raise UsageError(f"--state {path}: cannot be written (permission denied)")


def _logger(streams: Streams) -> Callable[[str], None]:
    def write(text: str) -> None:
        streams.stderr.write(f"casino holdem: {text}\n")
        streams.stderr.flush()

    return write


__all__ = ["STYLES", "HoldemServer", "serve_body"]
