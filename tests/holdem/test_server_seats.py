"""``casino holdem serve`` seats that cannot be held (issue 39) and no silent death (issue 40):
a disconnected member's seat freed after ``--seat-timeout`` on the injected clock, a
``--state`` that cannot be written refused at start, and a table whose state cannot be saved
ending the server with its reason."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from casino.clock import FakeClock
from casino.cmdline import FileProblem
from casino.holdem.room import ServerSettings
from casino.holdem.server import HoldemServer
from casino.net.lines import LineStream, connect_lines
from casino.net.stream import bound_port
from casino.programs import load_main, run_captured

LOOSE = 60.0
"""Seconds a test waits for what takes milliseconds (a bound, never a measure)."""


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def _join(port: int, name: str) -> tuple[LineStream, list[str]]:
    """Connect and join as ``name``; the stream and the answer (seat and token, or why not)."""
    stream = await connect_lines("127.0.0.1", port)
    await asyncio.wait_for(stream.receive(), LOOSE)  # the greeting
    await stream.send(f"join {name}")
    first = await asyncio.wait_for(stream.receive(), LOOSE)
    if not first.startswith("You sit"):
        return stream, [first]
    return stream, [first, await asyncio.wait_for(stream.receive(), LOOSE)]


def test_a_disconnected_members_seat_is_freed_after_the_seat_timeout() -> None:
    """One client takes two of three seats and goes: the seats are theirs for 120 s of the
    injected clock (a third member sits, a fourth finds no seat), then freed: the fourth
    sits, and the old token takes nothing back (its name sits anew, where a seat is free)."""

    async def scenario() -> list[str]:
        settings = ServerSettings(seats=3, lang="en", pause=0, seed=5, start_with=3)
        clock = FakeClock()
        server = HoldemServer(settings, clock)
        room = server.rooms[0]
        listening = await server.serve(0)
        said = []
        async with listening:
            port = bound_port(listening)
            hog1, answer = await _join(port, "Hog1")
            token = answer[1].split()[2]
            hog2, _ = await _join(port, "Hog2")
            for stream in (hog1, hog2):
                await stream.close()
            await asyncio.wait_for(
                _until(lambda: all(m.stream is None for m in room.members.values())), LOOSE
            )
            cy, answer = await _join(port, "Cy")
            said.append(answer[0])
            clock.advance(119)
            dee, answer = await _join(port, "Dee")
            said.append(answer[0])
            await dee.close()
            clock.advance(2)  # over the 120 s since they went
            dee, answer = await _join(port, "Dee")
            said.append(answer[0])
            back, answer = await _join(port, f"Hog1 {token}")
            said.append(answer[0])
            seated = {**room.members, **room.arriving}
            said.append(" ".join(seated[seat].name for seat in sorted(seated)))
            for stream in (cy, dee, back):
                await stream.close()
            for task in server.tasks:
                task.cancel()
        return said

    assert asyncio.run(scenario()) == [
        "You sit at table 1, seat 3.",
        "No free seat now; try again later.",
        "You sit at table 1, seat 1.",
        "You sit at table 1, seat 2.",  # not "Welcome back": the seat was freed
        "Dee Hog1 Cy",
    ]


def test_a_state_file_that_cannot_be_written_is_refused_at_start(tmp_path: Path) -> None:
    holdem = load_main("holdem")
    folder = tmp_path / "missing"
    for path, why in [
        (folder / "tables.json", f"the folder {str(folder)!r} does not exist"),
        (tmp_path, "a folder, not a file"),
    ]:
        done = run_captured(holdem, ["serve", "--state", str(path)], "")
        assert (done.status, done.out) == (2, "")
        assert done.err == f"holdem serve: --state {path}: {why} (see holdem serve --help)\n"


def test_a_table_whose_state_cannot_be_saved_ends_the_server_saying_why(tmp_path: Path) -> None:
    """The folder of ``--state`` goes after the start: the table fails at its first save,
    and the server ends with that reason (it used to go on with the table dead, silent)."""
    folder = tmp_path / "state"
    folder.mkdir()
    state = folder / "tables.json"

    async def scenario() -> str:
        settings = ServerSettings(seats=2, lang="en", pause=0, seed=1, hands=3, state=str(state))
        server = HoldemServer(settings, FakeClock())
        listening = await server.serve(0)
        async with listening:
            shutil.rmtree(folder)
            ann, _ = await _join(bound_port(listening), "Ann")

            async def fold_each_turn() -> None:
                while True:
                    if await ann.receive() == "Your turn.":
                        await ann.send("fold")

            playing = asyncio.create_task(fold_each_turn())
            with pytest.raises(FileProblem) as stopped:
                await asyncio.wait_for(server.finished(), LOOSE)
            playing.cancel()
            await ann.close()
        return str(stopped.value)

    assert asyncio.run(scenario()) == (
        f"table 1 stopped: cannot save {state}: No such file or directory"
    )


def test_a_table_whose_members_were_all_freed_waits_for_members_again() -> None:
    async def scenario() -> tuple[list[str], bool]:
        settings = ServerSettings(seats=2, stack=10**6, lang="en", pause=0, seed=2)
        clock = FakeClock()
        server = HoldemServer(settings, clock)
        room = server.rooms[0]
        listening = await server.serve(0)
        async with listening:
            port = bound_port(listening)
            ann, _ = await _join(port, "Ann")
            await ann.close()
            await asyncio.wait_for(
                _until(lambda: all(m.stream is None for m in room.members.values())), LOOSE
            )
            clock.advance(121)
            await asyncio.wait_for(_until(lambda: not room.first.is_set()), LOOSE)
            dealt = room.table.number
            for _ in range(50):
                await asyncio.sleep(0)
            idle = room.table.number == dealt and not room.members and not room.done.is_set()
            bob, answer = await _join(port, "Bob")
            while (line := await asyncio.wait_for(bob.receive(), LOOSE)) != "Your turn.":
                answer.append(line)
            await bob.close()
            for task in server.tasks:
                task.cancel()
        return answer, idle

    answer, idle = asyncio.run(scenario())
    assert idle  # nothing dealt while nobody sat
    assert answer[0] == "You sit at table 1, seat 1."
    assert any(line.startswith("--- Hand ") for line in answer)
