"""Casino Day: a dealer on loopback and a player process per ``--bot`` command.

A bot command is either a strategy casino ships (``ours``, ``always-call``,
``random-legal``, ``pair-or-fold``), run as ``casino stud player``, or any command line in
which ``{host}`` and ``{port}`` are replaced, such as ``java Poker {host} {port}``.
:func:`play_local` plays the same game with the players inside this process (no sockets),
for the strategy benchmark and the tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from casino.clock import Clock, FakeClock, WaitClock
from casino.errors import CasinoError
from casino.programs import python_module
from casino.stud.bots import STRATEGIES, Decider
from casino.stud.dealer import (
    DealerSettings,
    Observer,
    Seat,
    Table,
    TableConfig,
    run_dealer,
)
from casino.stud.local import LocalConnection
from casino.stud.player import PlayerSession

HOST = "127.0.0.1"


def bot_command(spec: str, port: int, index: int) -> list[str]:
    """The argv that runs bot ``spec`` against a dealer on loopback ``port``."""
    return [
        part.replace("{host}", HOST).replace("{port}", str(port))
        for part in bot_template(spec, index)
    ]


def strategy_command(spec: str, *options: str) -> list[str]:
    """The command that plays shipped strategy ``spec`` (a key of ``STRATEGIES``) with
    ``options`` after it, ``{host}`` and ``{port}`` in it."""
    return [
        *python_module("casino.stud"),
        "player",
        "{host}",
        "{port}",
        "--strategy",
        spec,
        *options,
    ]


def bot_template(spec: str, index: int) -> list[str]:
    """The command of bot ``spec`` (the ``index``-th), ``{host}`` and ``{port}`` in it."""
    if spec in STRATEGIES:
        return strategy_command(
            spec, "--id", f"bot{index}", "--avatar", f"{spec}-{index}", "--seed", str(index)
        )
    return shlex.split(spec)


async def run_tournament(
    bots: Sequence[str],
    settings: DealerSettings,
    clock: Clock,
    observer: Observer | None = None,
    grace: float = 5.0,
    alone: WaitClock | None = None,
) -> list[Seat]:
    """Start the dealer, then every bot; play; stop every bot; return the ranking
    (``alone``: see :func:`~casino.stud.dealer.run_dealer`)."""
    listening: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    dealer = asyncio.create_task(run_dealer(settings, clock, observer, listening.set_result, alone))
    waits: set[asyncio.Future[Any]] = {listening, dealer}
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    if not listening.done():  # the dealer ended before it listened: it could not
        try:
            await dealer
        except OSError as error:
            where = f"{settings.host}:{settings.port}"
            raise CasinoError(f"the dealer cannot listen on {where}: {error.strerror}") from None
    port = listening.result()
    processes: list[asyncio.subprocess.Process] = []
    try:
        for index, spec in enumerate(bots):
            processes.append(await _start(bot_command(spec, port, index)))
        return await dealer
    finally:
        dealer.cancel()
        for process in processes:
            await _stop(process, grace)


async def _start(argv: list[str]) -> asyncio.subprocess.Process:
    """Start a bot; :class:`CasinoError` in one line if it cannot run."""
    try:
        return await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
    except OSError as error:
        raise CasinoError(f"cannot run {shlex.join(argv)}: {error.strerror or error}") from None


async def _stop(process: asyncio.subprocess.Process, grace: float) -> None:
    """Let ``process`` exit on its own for ``grace`` seconds, then end it."""
    try:
        await asyncio.wait_for(process.wait(), grace)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


@dataclass(frozen=True)
class Entrant:
    """A player for :func:`play_local`."""

    name: str
    decider: Decider


async def play_local(
    entrants: Sequence[Entrant], hands: int, seed: int, stack: int = 100
) -> list[Seat]:
    """Play a whole tournament in this process; the ranking, best first."""
    seats = []
    for number, entrant in enumerate(entrants):
        session = PlayerSession(entrant.decider, entrant.name, entrant.name)
        seats.append(
            Seat(number, entrant.name, entrant.name, stack, LocalConnection(session.respond))
        )
    table = Table(seats, TableConfig(hands=hands), FakeClock(), random.Random(seed))
    return await table.play()


def local_entrants(names: Sequence[str], seed: int) -> list[Entrant]:
    """Entrants for strategies casino ships, each with its own seeded randomness."""
    return [
        Entrant(name, STRATEGIES[name](random.Random(seed * 1000 + index)))
        for index, name in enumerate(names)
    ]
