"""The shared clock and the asyncio frame streams (real loopback sockets, no waiting)."""

from __future__ import annotations

import asyncio

import pytest

from casino.clock import FakeClock
from casino.net.client import FrameSocket
from casino.net.javautf import encode_frame
from casino.net.stream import ConnectionClosed, FrameStream, bound_port, connect, serve


def test_fake_clock_stands_still_until_moved() -> None:
    clock = FakeClock(10)
    clock.advance(0.5)
    assert clock.now() == 10.5
    with pytest.raises(ValueError):
        clock.advance(-1)
    asyncio.run(clock.sleep(2))
    assert clock.now() == 12.5


def test_fake_clock_within_is_late_only_when_the_work_advanced_it_too_far() -> None:
    clock = FakeClock()

    async def work(seconds: float) -> str:
        clock.advance(seconds)
        return "done"

    assert asyncio.run(clock.within(work(1.0), 1.0)) == "done"
    with pytest.raises(TimeoutError):
        asyncio.run(clock.within(work(1.01), 1.0))


async def _exchange(peer_bytes: bytes) -> tuple[list[str], str]:
    """Server posts a status and sends a request; the peer sends ``peer_bytes`` and closes."""
    received: list[str] = []
    outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def handler(stream: FrameStream) -> None:
        stream.post("status:win:AS:KS:QS")
        await stream.send("bet1:1:2:0:AS:KS:up:KS")
        try:
            outcome.set_result(await stream.receive())
        except ConnectionClosed as error:
            outcome.set_result(f"closed: {error}")
        await stream.close()

    server = await serve(handler)
    client = await connect("127.0.0.1", bound_port(server))
    received.append(await client.receive())
    received.append(await client.receive())
    client.writer.write(peer_bytes)
    await client.writer.drain()
    await client.close()
    result = await outcome
    server.close()
    return received, result


def test_posted_frames_go_first_and_replies_come_back() -> None:
    received, reply = asyncio.run(_exchange(encode_frame("bet:0")))
    assert received == ["status:win:AS:KS:QS", "bet1:1:2:0:AS:KS:up:KS"]
    assert reply == "bet:0"


@pytest.mark.parametrize(
    ("peer_bytes", "why"),
    [
        (b"", "the connection was closed"),
        (b"\x00\x05ab", "the connection was closed"),
        (b"\x00\x01\x00", "not a frame: malformed modified UTF-8 at byte 0 of the frame"),
    ],
)
def test_a_peer_that_leaves_or_sends_garbage_is_connection_closed(
    peer_bytes: bytes, why: str
) -> None:
    _, reply = asyncio.run(_exchange(peer_bytes))
    assert reply == f"closed: {why}"


def test_blocking_client_cannot_connect_is_one_reason() -> None:
    with pytest.raises(ConnectionClosed, match=r"cannot connect to 127\.0\.0\.1:1: "):
        FrameSocket.connect("127.0.0.1", 1)
