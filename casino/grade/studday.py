"""Casino Day for a class: every player of :func:`casino.grade.studbook.prepare` at one table,
and the standings in a gradebook.

Each player gets a listener of its own (a loopback port, and for a sandboxed player the Unix
socket its relay reaches: :mod:`casino.stud.launch`), so a connection is known by where it
arrived, never by what it claims at ``login``; a second connection of the same player is told
``done:`` and closed. Every player is started at once and has ``wait`` seconds to connect
and log in; one that does not build, cannot run, exits, never connects or fails its login is
left out with its reason, and the others play (in the order of the class, so the same seed
and the same players give the same game). The table is the dealer's own
(:class:`casino.stud.dealer.Table`): a player that answers late, illegally, garbage or not at
all is removed with its reason and the game goes on. At the end every player is stopped.

The standings: each player that played, best first as the dealer ranks them (who lasted
longest, then the biggest stack), with its chips, the hands it survived and, if it was removed
before the end, why; then every player that did not play, with why.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from casino.clock import Clock
from casino.errors import CasinoError
from casino.grade.books import csv_text, json_text, text_cell
from casino.grade.results import shown_paths
from casino.grade.studbook import Entry, launch_folders
from casino.harness.runners.base import STDERR_KEPT
from casino.net.guard import Limits
from casino.net.listener import Listener
from casino.net.stream import FrameStream, bound_port, serve
from casino.stud import protocol as wire
from casino.stud.dealer import (
    GAME_OVER,
    MAX_PLAYERS,
    Observer,
    QuietObserver,
    Removed,
    Seat,
    Table,
    TableConfig,
    log_in,
    turn_away,
)
from casino.stud.launch import serve_unix


@dataclass(frozen=True)
class DayConfig:
    """The table and how long the players have to come."""

    table: TableConfig
    stack: int = 100
    seed: int = 0
    wait: float = 30.0
    """Seconds every player has to connect and log in."""
    grace: float = 2.0
    """Seconds a player has to leave by itself after ``done`` before it is stopped."""


@dataclass(frozen=True)
class Standing:
    """One row of the standings."""

    student: str
    rank: int | None
    """Its place (``None``: it did not play)."""
    table: int | None = None
    """The table it played at (1, 2 …; more than one when the class is over
    :data:`~casino.stud.dealer.MAX_PLAYERS`)."""
    avatar: str = ""
    chips: int | None = None
    hands: int = 0
    """Hands it survived (played to their end while it was at the table)."""
    removed: str = ""
    """Why it left before the end, or why it did not play."""
    stderr: str = ""
    """The start of what it wrote to stderr (its paths shown as ``<submission>``)."""


@dataclass
class _Player:
    index: int
    entry: Entry
    arrived: asyncio.Future[FrameStream]
    process: asyncio.subprocess.Process | None = None
    stderr: bytes = b""


async def casino_day(
    entries: Sequence[Entry], config: DayConfig, clock: Clock, observer: Observer | None = None
) -> list[Standing]:
    """Play Casino Day among ``entries``; the standings, best first."""
    loop = asyncio.get_running_loop()
    players = [
        _Player(index, entry, loop.create_future())
        for index, entry in enumerate(entries)
        if entry.launch is not None
    ]
    left_out = {index: entry.problem for index, entry in enumerate(entries) if entry.launch is None}
    servers: list[Listener] = []
    readers: list[asyncio.Task[None]] = []
    try:
        for player in players:
            why = await _start(player, servers, clock, config)
            if why:
                left_out[player.index] = why
            else:
                readers.append(asyncio.create_task(_read_stderr(player)))
        seated = await _seat([p for p in players if p.index not in left_out], clock, config)
        left_out |= {p.index: why for p, why in seated if isinstance(why, str)}
        logged = [(p, login) for p, login in seated if not isinstance(login, str)]
        ranking = await _play(logged, config, clock, observer or QuietObserver())
    finally:
        for server in servers:
            server.close()
        await _stop_all(players, config.grace)
        for reader in readers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(reader, config.grace)
    return _standings(entries, players, ranking, left_out)


async def _start(player: _Player, servers: list[Listener], clock: Clock, config: DayConfig) -> str:
    """Listen for ``player`` and start it; why it could not start (``""``: it did)."""
    port = await _listen(player, servers, clock, config)
    assert player.entry.launch is not None
    try:
        player.process = await player.entry.launch.start(port, asyncio.subprocess.PIPE)
    except CasinoError as error:
        return str(error)
    return ""


async def _seat(
    players: list[_Player], clock: Clock, config: DayConfig
) -> list[tuple[_Player, wire.LoginReply | str]]:
    """Every player's login (or why it has none), all waited for at once."""
    results = await asyncio.gather(*(_come(p, clock, config) for p in players))
    return list(zip(players, results, strict=True))


async def _listen(player: _Player, servers: list[Listener], clock: Clock, config: DayConfig) -> int:
    """A listener (or two, relayed) of ``player``'s own; the loopback port."""
    timeout = config.table.reply_timeout

    async def accept(stream: FrameStream) -> None:
        if player.arrived.done():
            await turn_away(stream, "one connection per player", clock, timeout)
            return
        player.arrived.set_result(stream)
        await stream.wait_closed()

    limits = Limits(send_timeout=timeout)
    launch = player.entry.launch
    try:
        tcp = await serve(accept, limits=limits, clock=clock)
        servers.append(tcp)
        if launch is not None and launch.relayed:
            servers.append(await serve_unix(accept, launch.socket_path, limits))
    except OSError as error:  # the machine's trouble (no descriptors, a path too long)
        raise CasinoError(f"the dealer cannot listen: {error.strerror or error}") from None
    return bound_port(tcp)


async def _come(player: _Player, clock: Clock, config: DayConfig) -> wire.LoginReply | str:
    """``player``'s login, or why it has none (it exited, did not come in time, or its login
    reply was bad)."""
    try:
        return await asyncio.wait_for(_log_in(player, clock, config), config.wait)
    except TimeoutError:
        if player.arrived.done():
            return f"no login within {config.wait:g} s"
        return f"the player did not connect within {config.wait:g} s"


async def _log_in(player: _Player, clock: Clock, config: DayConfig) -> wire.LoginReply | str:
    assert player.process is not None
    exited = asyncio.ensure_future(player.process.wait())
    try:
        waits: set[asyncio.Future[Any]] = {player.arrived, exited}
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        exited.cancel()
    if not player.arrived.done():
        return f"the player exited with status {player.process.returncode} without connecting"
    stream = player.arrived.result()
    timeout = config.table.reply_timeout
    try:
        return await log_in(stream, clock, timeout)
    except Removed as problem:
        await turn_away(stream, str(problem), clock, timeout)
        return f"login: {problem}"


async def _play(
    seated: list[tuple[_Player, wire.LoginReply]],
    config: DayConfig,
    clock: Clock,
    watcher: Observer,
) -> dict[int, tuple[int, int, Seat]]:
    """Play the tables at once; each seated player's index → (rank, table, seat)."""
    if len(seated) < 2:
        return {
            player.index: (0, 1, await _alone(player, login, config, clock))
            for player, login in seated
        }
    count = -(-len(seated) // MAX_PLAYERS)
    groups = [seated[table::count] for table in range(count)]
    played = await asyncio.gather(
        *(_table(group, number, config, clock, watcher) for number, group in enumerate(groups))
    )
    everyone = [entry for table in played for entry in table]
    everyone.sort(key=lambda e: (-e[2].left_after, -e[2].stack, e[1], e[2].number))
    return {
        index: (place, table + 1, seat) for place, (index, table, seat) in enumerate(everyone, 1)
    }


async def _alone(player: _Player, login: wire.LoginReply, config: DayConfig, clock: Clock) -> Seat:
    """The seat of the only player who came, told there is no game."""
    seat = Seat(0, login.id, login.avatar, config.stack, player.arrived.result())
    seat.left = NO_GAME
    await turn_away(seat.connection, NO_GAME, clock, config.table.reply_timeout)
    return seat


NO_GAME = "no game: fewer than two players came"


async def _table(
    group: list[tuple[_Player, wire.LoginReply]],
    number: int,
    config: DayConfig,
    clock: Clock,
    watcher: Observer,
) -> list[tuple[int, int, Seat]]:
    """Play table ``number`` (from 0) to its end; each player's index, the table, its seat."""
    seats = [
        Seat(n, login.id, login.avatar, config.stack, player.arrived.result())
        for n, (player, login) in enumerate(group)
    ]
    rng = random.Random(config.seed + number)
    ranking = await Table(seats, config.table, clock, rng, watcher).play()
    return [(group[seat.number][0].index, number, seat) for seat in ranking]


async def _read_stderr(player: _Player) -> None:
    """Keep the first :data:`STDERR_KEPT` bytes of the player's stderr."""
    assert player.process is not None and player.process.stderr is not None
    with contextlib.suppress(ConnectionError, OSError):
        while chunk := await player.process.stderr.read(65536):
            player.stderr += chunk[: max(0, STDERR_KEPT - len(player.stderr))]


async def _stop_all(players: Sequence[_Player], grace: float) -> None:
    """Let every player leave for ``grace`` seconds, then end the rest."""
    await asyncio.gather(
        *(
            p.entry.launch.stop(p.process, grace)
            for p in players
            if p.process is not None and p.entry.launch is not None
        )
    )


def _standings(
    entries: Sequence[Entry],
    players: Sequence[_Player],
    ranking: dict[int, tuple[int, int, Seat]],
    left_out: dict[int, str],
) -> list[Standing]:
    stderr = {p.index: p.stderr.decode("utf-8", "replace") for p in players}
    rows = []
    for index, entry in enumerate(entries):
        err = shown_paths(stderr.get(index, ""), launch_folders(entry.launch))
        if index in ranking:
            place, table, seat = ranking[index]
            why = "" if seat.left in (None, GAME_OVER) else seat.left
            rows.append(
                Standing(
                    entry.name,
                    place or None,
                    table,
                    seat.avatar,
                    seat.stack,
                    seat.left_after,
                    why,
                    err,
                )
            )
        else:
            rows.append(Standing(entry.name, None, removed=left_out.get(index, ""), stderr=err))
    played = sorted((r for r in rows if r.rank is not None), key=lambda r: r.rank or 0)
    return played + [r for r in rows if r.rank is None]


# ---------------------------------------------------------------- the gradebook


COLUMNS = ("rank", "student", "table", "avatar", "chips", "hands survived", "removed")


def standings_csv(rows: Sequence[Standing]) -> str:
    """``tournament.csv``: one row per player (rank and chips empty for one that did not
    play)."""
    cells = [
        [
            "" if row.rank is None else row.rank,
            text_cell(row.student),
            "" if row.table is None else row.table,
            text_cell(row.avatar),
            "" if row.chips is None else row.chips,
            row.hands,
            text_cell(row.removed),
        ]
        for row in rows
    ]
    return csv_text([COLUMNS, *cells])


def standings_json(rows: Sequence[Standing], config: DayConfig) -> str:
    """``tournament.json``: the same, each player's stderr, and the game's settings."""
    data = {
        "seed": config.seed,
        "stack": config.stack,
        "hands": config.table.hands,
        "players": [asdict(row) for row in rows],
    }
    return json_text(data)
