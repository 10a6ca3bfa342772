"""A network table that waits for people: ``--wait N``, ``--fill-after S``, a member joining
during a hand seated for the next one, and a seat taken back only with its token."""

from __future__ import annotations

import asyncio
import re

from casino.clock import FakeClock
from casino.holdem.room import ServerSettings
from casino.holdem.server import HoldemServer
from casino.net.lines import LineStream, connect_lines
from casino.net.stream import ConnectionClosed, bound_port
from casino.programs import load_main, run_captured

LOOSE = 60.0


async def joined(port: int, line: str) -> tuple[LineStream, list[str]]:
    """Connect and send ``line``; the stream and the answer's lines (seat, token)."""
    stream = await connect_lines("127.0.0.1", port)
    await stream.receive()  # the greeting
    await stream.send(line)
    first = await stream.receive()
    if not first.startswith("You sit"):
        return stream, [first]
    return stream, [first, await stream.receive()]


async def play(stream: LineStream, seen: list[str], until: str) -> None:
    """Check or call at each turn, keeping every line, until a line starts with ``until``."""
    while True:
        try:
            line = await stream.receive()
        except ConnectionClosed:
            return
        seen.append(line)
        if line.startswith(until):
            return
        if line == "Your turn.":
            legal = next(x for x in reversed(seen) if x.startswith("You may:"))
            await stream.send("check" if "You may: check" in legal else "call")


async def rejoined(port: int, line: str) -> tuple[LineStream, list[str]]:
    """Join with ``line`` until the server has seen the old connection close."""
    for _ in range(500):
        stream, answer = await joined(port, line)
        if answer[0].startswith("Welcome back"):
            return stream, answer
        await stream.close()
        await asyncio.sleep(0.01)
    raise AssertionError(f"{line!r} was never welcomed back")


def test_two_join_clients_within_a_second_wait_for_each_other_and_both_play() -> None:
    async def scenario() -> tuple[list[str], list[str], HoldemServer]:
        settings = ServerSettings(seats=4, hands=3, lang="en", pause=0, seed=3, start_with=2)
        server = HoldemServer(settings, FakeClock())
        listening = await server.serve(0)
        port = bound_port(listening)
        async with listening:
            ann, answer = await joined(port, "join Ann")
            assert answer[0] == "You sit at table 1, seat 1."
            assert answer[1].startswith("Your token: t")
            assert await ann.receive() == "Waiting for players: 1 of 2 seated."
            for _ in range(50):
                await asyncio.sleep(0)
            assert server.rooms[0].table.number == 0  # one of two: nothing dealt
            bob, answer = await joined(port, "join Bob")
            assert answer[0] == "You sit at table 1, seat 2."
            seen: dict[str, list[str]] = {"Ann": [], "Bob": []}
            await asyncio.wait_for(
                asyncio.gather(
                    play(ann, seen["Ann"], "Game over."),
                    play(bob, seen["Bob"], "Game over."),
                ),
                LOOSE,
            )
        return seen["Ann"], seen["Bob"], server

    ann, bob, server = asyncio.run(scenario())
    assert server.rooms[0].table.number == 3
    for name, lines in (("Ann", ann), ("Bob", bob)):
        assert lines.count("Your turn.") >= 3, name
        assert any(line.startswith(f"{name}: ") for line in ann), name  # both act, named


def test_a_member_joining_mid_hand_plays_the_next_and_a_seat_needs_its_token() -> None:
    async def scenario() -> tuple[list[str], list[str], list[str]]:
        settings = ServerSettings(seats=3, hands=4, lang="en", pause=0, seed=4)
        server = HoldemServer(settings, FakeClock())
        listening = await server.serve(0)
        port = bound_port(listening)
        room = server.rooms[0]
        async with listening:
            ann, _ = await joined(port, "join Ann")
            seen: list[str] = []
            await play(ann, seen, "Your turn.")  # a hand is being played
            assert room.dealing
            cy, answer = await joined(port, "join Cy")
            told = await cy.receive()
            bot = room.table.seats[1].name
            assert bot != "Cy" and room.arriving[1].name == "Cy"
            token = answer[1].split()[2]
            await ann.send("fold")
            cy_seen: list[str] = [told]
            await asyncio.wait_for(play(cy, cy_seen, "Your turn."), LOOSE)
            assert room.table.seats[1].name == "Cy"
            await cy.close()
            thief, refused = await joined(port, "join Cy")
            wrong, refused_too = await joined(port, "join cy tffffffffffff")
            back, welcome = await rejoined(port, f"join Cy {token}")
            await asyncio.wait_for(
                asyncio.gather(play(ann, seen, "Game over."), play(back, [], "Game over.")),
                LOOSE,
            )
            for stream in (thief, wrong):
                await stream.close()
        hand_lines = [line for line in seen if line.startswith(f"{bot}: ")]
        return cy_seen, [refused[0], refused_too[0], welcome[0]], hand_lines

    cy_seen, answers, bot_lines = asyncio.run(scenario())
    assert cy_seen[0] == "You are seated for the next hand."
    own = next(k for k, line in enumerate(cy_seen) if line.startswith("--- Hand 2 "))
    assert not any(line.startswith("Your cards") for line in cy_seen[:own])  # not the bot's
    assert any(line.startswith("Your cards") for line in cy_seen[own:])
    assert answers == ["That name is taken.", "That name is taken.", "Welcome back, Cy."]
    assert bot_lines  # the computer player finished the first hand under its own name


def test_a_waiting_table_fills_with_computer_players_after_its_time() -> None:
    async def scenario() -> list[str]:
        settings = ServerSettings(
            seats=3, hands=1, lang="en", pause=0, seed=5, start_with=3, fill_after=20.0
        )
        server = HoldemServer(settings, FakeClock())
        listening = await server.serve(0)
        port = bound_port(listening)
        async with listening:
            ann, _ = await joined(port, "join Ann")
            seen: list[str] = []
            await asyncio.wait_for(play(ann, seen, "Game over."), LOOSE)
        return seen

    seen = asyncio.run(scenario())
    assert seen[0] == "Waiting for players: 1 of 3 seated."
    assert any(line.startswith("--- Hand 1 ") for line in seen)


def test_the_join_client_says_how_many_seats_are_taken_and_takes_its_seat_back() -> None:
    async def scenario() -> tuple[str, str]:
        settings = ServerSettings(seats=3, lang="en", pause=0, seed=6, start_with=3)
        server = HoldemServer(settings, FakeClock())
        listening = await server.serve(0)
        port = str(bound_port(listening))
        holdem = load_main("holdem")
        async with listening:
            ann, _ = await joined(port=int(port), line="join Ann")
            first = await asyncio.to_thread(
                run_captured, holdem, ["join", "127.0.0.1", port, "--name", "Bo"], ""
            )
            token = re.search(r"Your token: (\w+)", first.out)
            assert token is not None and first.status == 0
            again = await asyncio.to_thread(
                run_captured,
                holdem,
                ["join", "127.0.0.1", port, "--name", "Bo", "--token", token.group(1)],
                "",
            )
            await ann.close()
            for task in server.tasks:
                task.cancel()
        return first.out, again.out

    first, again = asyncio.run(scenario())
    assert first.splitlines()[1:] == [
        "You sit at table 1, seat 2.",
        first.splitlines()[2],
        "Waiting for players: 2 of 3 seated.",
    ]
    assert again.splitlines()[1:] == ["Welcome back, Bo."]


def test_the_join_client_exits_saying_why_when_its_join_is_refused() -> None:
    async def scenario() -> list[tuple[int, str, str]]:
        settings = ServerSettings(seats=2, lang="es", pause=0, seed=6, start_with=2)
        server = HoldemServer(settings, FakeClock())
        listening = await server.serve(0)
        port = str(bound_port(listening))
        holdem = load_main("holdem")
        results = []
        async with listening:
            ann, _ = await joined(port=int(port), line="join Ana")
            for argv in (
                ["--name", "ANA"],
                ["--name", "Ana(bot)"],
                ["--name", "Bo", "--table", "7"],
            ):
                done = await asyncio.to_thread(
                    run_captured, holdem, ["join", "127.0.0.1", port, *argv], ""
                )
                results.append((done.status, done.out, done.err))
            await ann.close()
            for task in server.tasks:
                task.cancel()
        return results

    results = asyncio.run(scenario())
    greeting = "casino holdem: envía join NOMBRE [MESA].\n"
    refused = "holdem join: the server refused to seat {}: {}\n"
    assert results == [
        (
            1,
            greeting,
            refused.format("ANA", "Ese nombre ya está ocupado."),
        ),
        (
            1,
            greeting,
            refused.format(
                "Ana(bot)", "Un nombre que termina en (bot) es de un jugador de la computadora."
            ),
        ),
        (1, greeting, refused.format("Bo", "No existe esa mesa.")),
    ]
