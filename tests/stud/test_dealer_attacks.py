"""The stud dealer against hostile clients: idle connections that never log in, a player that
floods and never reads, and a crowd of sockets at a dealer with 64 file descriptors.

In-process dealers run on a FakeClock, on which an idle connection's login never times out
at all: the honest bots are seated only because logins run side by side. The crowd test runs
``casino stud dealer`` as a subprocess with a lowered ``RLIMIT_NOFILE``. Assertions are on
outcomes and order, never on durations; every wait has a generous bound."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

from casino.clock import FakeClock
from casino.net.javautf import encode_frame
from casino.net.stream import ConnectionClosed, FrameStream, connect
from casino.stud.bots import AlwaysCall
from casino.stud.dealer import DealerSettings, Seat, TableConfig, run_dealer
from casino.stud.player import PlayerSession

LOOSE = 60.0
"""Seconds a test waits for what takes milliseconds (a bound, never a measure)."""


class Events:
    """Records the dealer's log lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def event(self, text: str) -> None:
        """Keep ``text``."""
        self.lines.append(text)

    def hand_over(self, record: dict[str, Any], seats: list[Seat]) -> None:
        """Note the hand."""
        self.lines.append(f"hand {record['hand']}")


async def _bot(port: int, ident: str, retry: bool = False) -> PlayerSession:
    """An honest player (always calls) until ``done``; with ``retry``, a refused connection
    (``done`` before ``login``) is tried again."""
    while True:
        stream = await connect("127.0.0.1", port)
        session = PlayerSession(AlwaysCall(), ident, ident.title())
        first = await _answer(stream, session)
        if not (retry and first.startswith("done:")):
            break
        await stream.close()
        await asyncio.sleep(0.05)
    while session.done is None:
        await _answer(stream, session)
    await stream.close()
    return session


async def _bots(port: int, idents: list[str], retry: bool = False) -> list[PlayerSession]:
    """Honest bots, side by side, to the end of the game."""
    playing = [_bot(port, ident, retry) for ident in idents]
    return list(await asyncio.wait_for(asyncio.gather(*playing), LOOSE))


async def _answer(stream: FrameStream, session: PlayerSession) -> str:
    try:
        text = await stream.receive()
    except ConnectionClosed:
        session.done = session.done or "<hung up>"
        return "done:<hung up>"
    reply = session.respond(text)
    if reply is not None:
        await stream.send(reply)
    return text


async def _dealer(settings: DealerSettings, events: Events) -> tuple[asyncio.Task[list[Seat]], int]:
    port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(run_dealer(settings, FakeClock(), events, port.set_result))
    return task, await asyncio.wait_for(port, LOOSE)


def test_fifty_idle_connections_do_not_delay_the_bots_that_log_in() -> None:
    async def scenario() -> tuple[list[Seat], list[PlayerSession], list[list[str]], Events]:
        events = Events()
        settings = DealerSettings(players=2, seed=1, table=TableConfig(hands=3))
        dealer, port = await _dealer(settings, events)
        idle = [await connect("127.0.0.1", port) for _ in range(50)]
        heard = [[await asyncio.wait_for(stream.receive(), LOOSE)] for stream in idle]
        sessions = await _bots(port, ["ann", "bob"])
        ranking = await asyncio.wait_for(dealer, LOOSE)
        for stream, got in zip(idle, heard, strict=True):
            got.append(await asyncio.wait_for(stream.receive(), LOOSE))
            await stream.close()
        return ranking, sessions, heard, events

    ranking, sessions, heard, events = asyncio.run(scenario())
    assert sorted(seat.ident for seat in ranking) == ["ann", "bob"]
    assert [seat.left for seat in ranking] == ["game over", "game over"]
    assert [session.done for session in sessions] == ["game over", "game over"]
    assert heard == [["login", "done:the table is full"]] * 50
    assert sorted(events.lines[:2]) == ["Ann sits down (1 of 2)", "Bob sits down (2 of 2)"]
    assert events.lines[2:] == ["hand 1", "hand 2", "hand 3"]


def test_a_player_that_floods_and_never_reads_is_removed_and_the_others_play_on() -> None:
    async def scenario() -> tuple[list[Seat], list[PlayerSession]]:
        settings = DealerSettings(players=3, seed=2, table=TableConfig(hands=3))
        dealer, port = await _dealer(settings, Events())
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(encode_frame("bad:Bad") + encode_frame("ayuda") * 20_000)  # reads nothing
        sessions = await _bots(port, ["ann", "bob"])
        ranking = await asyncio.wait_for(dealer, LOOSE)
        try:  # the dealer hung up on it
            while await asyncio.wait_for(reader.read(1 << 20), LOOSE):
                pass
        except ConnectionResetError:
            pass
        writer.close()
        return ranking, sessions

    ranking, sessions = asyncio.run(scenario())
    left = {seat.ident: seat.left for seat in ranking}
    assert left["ann"] == left["bob"] == "game over"
    assert str(left["bad"]).startswith("unparsable reply 'ayuda' to bet1:")
    assert [session.done for session in sessions] == ["game over", "game over"]


CROWDED_DEALER = (
    "import resource, sys, runpy; "
    "resource.setrlimit(resource.RLIMIT_NOFILE, "
    "(64, resource.getrlimit(resource.RLIMIT_NOFILE)[1])); "
    "sys.argv = ['casino', 'stud', 'dealer'] + sys.argv[1:]; "
    "runpy.run_module('casino', run_name='__main__')"
)


def test_a_crowd_of_idle_sockets_only_delays_the_bots_to_the_login_deadline() -> None:
    async def crowd(port: int) -> list[PlayerSession]:
        idle = [await connect("127.0.0.1", port) for _ in range(100)]
        try:
            return await _bots(port, ["ann", "bob"], retry=True)
        finally:
            for stream in idle:
                await stream.close()

    argv = ["--port", "0", "--players", "2", "--hands", "2", "--seed", "4"]
    dealer = subprocess.Popen(
        [sys.executable, "-c", CROWDED_DEALER, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert dealer.stdout is not None
        port = int(dealer.stdout.readline().decode().split(":")[1].split(",")[0])
        sessions = asyncio.run(crowd(port))
        code = dealer.wait(timeout=LOOSE)
    finally:
        dealer.kill()
        out, errors = dealer.communicate(timeout=LOOSE)
    log = out.decode().splitlines()
    assert code == 0 and errors == b""
    assert [session.done for session in sessions] == ["game over", "game over"]
    assert log.count("48 connections at once, the most this server takes: refusing new ones") == 1
    assert log.count("a login failed: no reply within 1 s to login") == 1
    assert not any("Traceback" in line for line in log)
    assert sorted(line.split()[1] for line in log if line.strip()[:2] in ("1 ", "2 ")) == [
        "Ann",
        "Bob",
    ]
