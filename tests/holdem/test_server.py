"""A network table on loopback: real sockets, a fake clock, misbehaving clients."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from casino.clock import FakeClock
from casino.errors import CasinoError
from casino.holdem.room import ServerSettings
from casino.holdem.server import HoldemServer
from casino.holdem.view import cards_text
from casino.net.lines import LineStream, connect_lines
from casino.net.stream import ConnectionClosed, bound_port

SEATS, HANDS, STACK = 5, 4, 1000


Turn = Callable[[list[str]], Awaitable[None]]


async def _lines_until_over(stream: LineStream, seen: list[str], on_turn: Turn) -> None:
    while True:
        try:
            line = await stream.receive()
        except ConnectionClosed:
            return
        seen.append(line)
        if line == "Your turn.":
            await on_turn(seen)
        if seen[-SEATS - 1 :][:1] == ["Game over. Chips:"]:
            return


def _answer(seen: list[str]) -> str:
    legal = next(line for line in reversed(seen) if line.startswith("You may:"))
    return "check" if "You may: check" in legal else "call"


async def _player(port: int, name: str, seen: list[str], behaviour: str, clock: FakeClock) -> None:
    stream = await connect_lines("127.0.0.1", port)
    if behaviour == "garbage":
        stream.writer.write(b"\xff\xfe\x00junk\n" + b"y" * 5000 + b"\n")
    await stream.send(f"join {name}")
    state = {"turns": 0}

    async def on_turn(lines: list[str]) -> None:
        state["turns"] += 1
        if behaviour == "garbage" and state["turns"] == 1:
            stream.writer.write(b"raise abc\n\xc3\x28\n")
        if behaviour == "slow" and state["turns"] == 1:
            clock.advance(31)  # too late: the table checks or folds for us
        if behaviour == "flaky" and state["turns"] == 1:
            await stream.close()
            return
        await stream.send(_answer(lines))

    await _lines_until_over(stream, seen, on_turn)
    if behaviour == "flaky" and "Game over. Chips:" not in seen:
        await _rejoin(port, name, seen, clock)


async def _rejoin(port: int, name: str, seen: list[str], clock: FakeClock) -> None:
    given = next(line for line in seen if line.startswith("Your token: "))
    token = given.split()[2]  # (without it the seat is not given back: test_server_waiting)
    for _ in range(200):
        stream = await connect_lines("127.0.0.1", port)
        await stream.send(f"join {name} {token}")
        await stream.receive()  # the greeting
        answer = await stream.receive()
        seen.append(answer)
        if answer.startswith("Welcome back"):
            await _lines_until_over(stream, seen, _steady(stream))
            return
        await stream.close()
        await asyncio.sleep(0.01)
    raise AssertionError("could not rejoin")


def _steady(stream: LineStream) -> Turn:
    async def on_turn(lines: list[str]) -> None:
        await stream.send(_answer(lines))

    return on_turn


def _hole_cards_seen(seen: list[str]) -> dict[int, set[str]]:
    shown: dict[int, set[str]] = {}
    hand = 0
    for line in seen:
        header = re.match(r"--- Hand (\d+) ", line)
        if header:
            hand = int(header.group(1))
        if line.startswith("Your cards: "):
            shown.setdefault(hand, set()).add(line.removeprefix("Your cards: "))
    return shown


def test_a_network_table_survives_its_clients_and_conserves_chips() -> None:
    async def scenario() -> tuple[HoldemServer, dict[str, list[str]]]:
        clock = FakeClock()
        settings = ServerSettings(
            seats=SEATS, hands=HANDS, timeout=30, lang="en", pause=0, seed=11, start_with=4
        )
        server = HoldemServer(settings, clock)
        listening = await server.serve(0)
        port = bound_port(listening)
        seen: dict[str, list[str]] = {name: [] for name in ("Ann", "Bob", "Cid", "Dee")}
        behaviours = {"Ann": "steady", "Bob": "flaky", "Cid": "slow", "Dee": "garbage"}
        async with listening:
            await asyncio.wait_for(
                asyncio.gather(
                    *(_player(port, n, seen[n], behaviours[n], clock) for n in seen),
                    server.rooms[0].done.wait(),
                ),
                timeout=60,
            )
        return server, seen

    server, seen = asyncio.run(scenario())
    room = server.rooms[0]
    assert (
        room.table.number == HANDS
        or room.table.finished
        or not any(room.table.seats[seat].playing for seat in room.members)
    )
    assert room.table.number >= 2
    assert sum(seat.chips for seat in room.table.seats) == SEATS * STACK
    for name, lines in seen.items():
        seat = next(s for s, member in room.members.items() if member.name == name)
        for hand, shown in _hole_cards_seen(lines).items():
            assert shown == {cards_text(room.dealt[hand - 1][seat])}, (name, hand)
        assert lines[-SEATS - 1] == "Game over. Chips:", name
    assert "Time is up." in seen["Cid"]
    assert "Line too long." in seen["Dee"]
    assert any(line.startswith("Not allowed: unknown command") for line in seen["Dee"])
    assert any(line.startswith("Not allowed: not an amount: abc") for line in seen["Dee"])
    assert "Welcome back, Bob." in seen["Bob"]
    assert any("Bob: folds" in line or "Bob: checks" in line for line in seen["Ann"])
    hands = _hands(seen["Ann"])
    ann = next(s for s, member in room.members.items() if member.name == "Ann")
    assert len(hands) >= 2
    for number, lines in enumerate(
        hands
    ):  # the blinds told to everyone; the cards once before the flop
        assert re.fullmatch(r".+: small blind \d+", lines[1]), lines[:3]
        assert re.fullmatch(r".+: big blind \d+", lines[2]), lines[:3]
        preflop = lines[
            : next((k for k, line in enumerate(lines) if line.startswith("Flop")), None)
        ]
        dealt = int(ann in room.dealt[number])
        assert sum(line.startswith("Your cards: ") for line in preflop) == dealt, lines


def _hands(seen: list[str]) -> list[list[str]]:
    """The lines of each hand, from its header."""
    hands: list[list[str]] = []
    for line in seen:
        if line.startswith("--- Hand "):
            hands.append([])
        if hands:
            hands[-1].append(line)
    return hands


def test_the_tables_survive_a_server_restart(tmp_path: Path) -> None:
    state = tmp_path / "tables.json"
    settings = ServerSettings(seats=3, tables=2, seed=1, state=str(state))
    first = HoldemServer(settings, FakeClock())
    table = first.rooms[1].table
    table.seats[0].name, table.seats[0].chips = "Zoe", 1234
    table.button, table.number = 2, 17
    first.save()
    second = HoldemServer(settings, FakeClock())
    restored = second.rooms[1].table
    assert restored.to_dict() == table.to_dict()
    assert second.rooms[0].table.number == 0


def test_a_corrupt_state_file_is_reported_not_overwritten(tmp_path: Path) -> None:
    state = tmp_path / "tables.json"
    state.write_text("{not json", encoding="utf-8")
    with pytest.raises(CasinoError, match="cannot restore"):
        HoldemServer(ServerSettings(state=str(state)), FakeClock())
    assert state.read_text(encoding="utf-8") == "{not json"


def test_several_tables_on_one_server_and_a_taken_name() -> None:
    async def scenario() -> list[str]:
        server = HoldemServer(ServerSettings(seats=2, tables=2, start_with=9), FakeClock())
        listening = await server.serve(0)
        port = bound_port(listening)
        answers = []
        async with listening:
            first = await connect_lines("127.0.0.1", port)
            for line in ("join Ann 2", "join Ann 1"):
                other = first if line.endswith("2") else await connect_lines("127.0.0.1", port)
                await other.receive()  # the greeting
                await other.send(line)
                answers.append(await other.receive())
            late = await connect_lines("127.0.0.1", port)
            await late.receive()
            for line in ("hello", "join Cy 3", "join Cy 1"):
                await late.send(line)
                answers.append(await late.receive())
            for task in server.tasks:
                task.cancel()
        return answers

    assert asyncio.run(scenario()) == [
        "Te sientas en la mesa 2, asiento 1.",
        "Ese nombre ya está ocupado.",
        "Envía primero join NOMBRE [MESA].",
        "No existe esa mesa.",
        "Te sientas en la mesa 1, asiento 1.",
    ]
