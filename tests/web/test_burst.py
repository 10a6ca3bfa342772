"""A burst of members: at most the permits' hashes at once, none refused while a permit comes
within the wait, "busy, try again" (503 with Retry-After) when none does; the cost of
``--password-cost`` chosen at start and every kept hash checked at its own."""

from __future__ import annotations

import asyncio
import threading

import pytest

from casino.web.passwords import (
    COST_FLOOR,
    OWASP_SCRYPT,
    Busy,
    HashGate,
    ScryptCost,
    hash_permits,
    parse_cost,
    read_hash,
)

from .test_store import Factory, make, new_database, where

__all__ = ["make", "new_database", "where"]  # the store's fixtures, both databases


def test_a_hash_kept_at_one_cost_logs_in_after_the_default_changed(make: Factory) -> None:
    cheap, dearer = ScryptCost(n=64), ScryptCost(n=256)
    old = make(cost=cheap)
    old.register("Ana", "correct horse")
    new = make(cost=dearer)  # the same database, started again at another cost
    new.register("Bo", "battery staple")
    with new.transaction() as run:
        rows = run("SELECT name, hash FROM accounts WHERE hash IS NOT NULL").fetchall()
    kept = {name: read_hash(bytes(h))[0] for name, h in rows}
    assert kept["Ana"] == cheap and kept["Bo"] == dearer
    assert new.login("Ana", "correct horse").name == "Ana"  # checked at its own cost
    with pytest.raises(Exception, match="wrong name or password"):
        new.login("Ana", "battery staple")


def test_the_permits_are_the_fewer_of_the_cores_and_the_memory() -> None:
    assert OWASP_SCRYPT.memory == 128 * 2**20
    assert hash_permits(OWASP_SCRYPT, cpus=8, memory=3 * 2**27 + 5) == 3
    assert hash_permits(OWASP_SCRYPT, cpus=2, memory=2**40) == 2
    assert hash_permits(OWASP_SCRYPT, cpus=4, memory=2**20) == 1  # at least one
    assert hash_permits(OWASP_SCRYPT) >= 1


def test_password_cost_reads_n_and_holds_the_floor() -> None:
    assert parse_cost("2^17") == parse_cost("131072") == parse_cost("N=2^17") == OWASP_SCRYPT
    assert parse_cost("2^14") == COST_FLOOR and parse_cost("2^20") == ScryptCost(n=2**20)
    for bad in ("2^13", "8192", "2^21", "100000", "", "x", "2^", "-16384"):
        with pytest.raises(ValueError):
            parse_cost(bad)
    assert str(OWASP_SCRYPT) == "N=2^17, r=8, p=1"


async def _burst(gate: HashGate, members: int, permits: int) -> tuple[int, int]:
    """``members`` at once through ``gate``, each hashing in a thread; (done, most at once)."""
    lock = threading.Lock()
    together = threading.Barrier(permits, timeout=60)  # passes only with `permits` at once
    now, most, done = 0, 0, 0

    def hashing() -> None:
        nonlocal now, most
        with lock:
            now += 1
            most = max(most, now)
        together.wait()
        COST_FLOOR.digest("correct horse", b"salt" * 4)
        with lock:
            now -= 1

    async def one() -> None:
        nonlocal done
        async with gate.permit():
            await asyncio.to_thread(hashing)
        done += 1

    await asyncio.gather(*(one() for _ in range(members)))
    return done, most


def test_more_registrations_than_permits_all_pass_at_most_k_at_once() -> None:
    gate = HashGate(permits=2, wait=120)
    done, most = asyncio.run(_burst(gate, members=8, permits=2))
    assert (done, most) == (8, 2) and gate.waiting == 0


def test_a_member_without_a_permit_within_the_wait_is_told_when_to_come_back() -> None:
    async def run() -> tuple[int, int]:
        gate = HashGate(permits=1, wait=0.0)
        held, release = asyncio.Event(), asyncio.Event()

        async def holder() -> None:
            async with gate.permit():
                held.set()
                await release.wait()

        task = asyncio.create_task(holder())
        await held.wait()
        gate.seconds = 3.0  # a hash holds its permit 3 s: each one told busy 3 s after the last
        told = []
        for _ in range(3):
            with pytest.raises(Busy) as busy:
                async with gate.permit():
                    pytest.fail("a permit while the only one is held")
            told.append(busy.value.seconds)
        assert told[1] - told[0] in (2, 3, 4) and told[2] - told[1] in (2, 3, 4)
        release.set()
        await task
        async with gate.permit():  # free again
            pass
        return busy.value.seconds, gate.waiting

    seconds, waiting = asyncio.run(run())
    assert seconds >= 1 and waiting == 0


def test_the_server_answers_busy_with_503_and_retry_after_then_registers() -> None:
    pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
    from aiohttp import DummyCookieJar
    from aiohttp.test_utils import TestClient, TestServer

    from casino.clock import FakeClock
    from casino.web.app import WebServer

    from .forms import PASSWORD, post_form, register, temporary_store
    from .test_members import SETTINGS

    async def run(server: WebServer) -> tuple[int, str, int]:
        server.gate = HashGate(permits=1, wait=0.0)
        async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as client:
            async with server.gate.permit():  # every permit taken: a burst elsewhere
                form = {"name": "Ana", "password": PASSWORD, "lang": "en"}
                response = await post_form(client, "/register", form)
                said = response.status, response.headers.get("Retry-After", "")
            await register(client, "Ana")  # the permit is free again: served
        return *said, len(server.store.leaderboard(10))

    with temporary_store() as store:
        server = WebServer(SETTINGS, 1, 3, FakeClock(), secret=b"m" * 32, store=store)
        status, retry, members = asyncio.run(run(server))
    assert status == 503 and int(retry) >= 1 and members == 1
