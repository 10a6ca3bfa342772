"""A load test of ``casino web`` on loopback: simulated members over real WebSockets.

Every member is an aiohttp client with its own cookie jar: it joins in the lobby, opens the
table's socket and, at each turn, checks or calls (now and then a minimum raise or a fold).
Measured: messages per second (both ways) and, for every action, the time from sending it to
the moment *every* member of that table has a view that includes it (the ``seq`` of the views);
the p50/p99 of those. Checked: each hand keeps the table's chips (``on_hand``), every hand
dealt is finished.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import random
import re
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, CookieJar, WSMsgType, web

from casino.web.app import WebServer
from casino.web.holdem import TableSettings, WebTable
from casino.web.store import Store, open_store


@dataclass
class Report:
    """What one load run measured."""

    members: int
    tables: int
    seconds: float
    messages: int = 0
    hands: int = 0
    unbalanced: int = 0
    unfinished: int = 0
    latencies: list[float] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        """The ``q`` quantile (0..1) of the latencies, in seconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def lines(self) -> list[str]:
        """The report as text."""
        return [
            f"{self.members} members at {self.tables} tables for {self.seconds:.0f} s",
            f"hands finished: {self.hands} (unfinished: {self.unfinished}; "
            f"chips not conserved: {self.unbalanced})",
            f"messages: {self.messages} ({self.messages / self.seconds:.0f}/s)",
            f"action to every member's update: p50 {1000 * self.percentile(0.5):.1f} ms, "
            f"p99 {1000 * self.percentile(0.99):.1f} ms over {len(self.latencies)} actions",
        ]


@dataclass
class Bookkeeping:
    """Times shared by the simulated members (one process, one monotonic clock)."""

    sent: list[tuple[int, int, float]] = field(default_factory=list)
    """(table, seq before the action, time sent)."""
    seen: dict[tuple[int, str], list[tuple[int, float]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    """(table, member) → (seq, time received) of each view."""
    messages: int = 0
    registered: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once every member has registered: the run's time starts then."""
    stop: float = 0.0
    """The run's seconds; once every member has registered, when it stops (monotonic)."""


async def member(url: str, name: str, rng: random.Random, book: Bookkeeping, count: int) -> None:
    """One simulated member: registers, waits for the ``count`` others, plays until
    ``book.stop`` (monotonic time)."""
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:  # an IP host
        async with session.get(url + "register") as lobby:
            found = re.search(r'name="csrf" value="([^"]+)"', await lobby.text())
        token = found.group(1) if found else ""
        form = {"name": name, "password": f"{name}-password", "lang": "en", "csrf": token}
        async with session.post(url + "register", data=form) as joined:
            joined.raise_for_status()
        book.registered += 1
        if book.registered == count:
            book.stop = time.monotonic() + book.stop
            book.go.set()
        await book.go.wait()
        stop = book.stop
        async with session.ws_connect(url.replace("http", "ws") + "ws/holdem") as ws:
            acted = -1
            while time.monotonic() < stop:
                try:
                    message = await asyncio.wait_for(ws.receive(), 1.0)
                except TimeoutError:
                    continue
                if message.type is not WSMsgType.TEXT:
                    raise ConnectionError(f"{name}: the server closed the socket")
                data: dict[str, Any] = json.loads(message.data)
                now = time.monotonic()
                book.messages += 1
                if data.get("type") != "state":
                    continue
                book.seen[(data["table"], name)].append((data["seq"], now))
                legal = data["legal"]
                if legal is None or data["seq"] == acted:
                    continue
                acted = data["seq"]
                await ws.send_json(_choice(legal, rng))
                book.messages += 1
                book.sent.append((data["table"], data["seq"], time.monotonic()))


def _choice(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.1 and legal["max_to"] > legal["min_to"] > 0:
        return {
            "type": "act",
            "verb": "raise" if legal["raising"] else "bet",
            "to": legal["min_to"],
        }
    if roll < 0.15 and legal["call"] > 0:
        return {"type": "act", "verb": "fold"}
    return {"type": "act", "verb": "check" if legal["call"] == 0 else "call"}


def latencies(book: Bookkeeping, members_at: dict[int, list[str]]) -> list[float]:
    """For each action, the time until every member of its table had a view including it."""
    seqs = {key: [s for s, _ in views] for key, views in book.seen.items()}
    result = []
    for table, seq, sent in book.sent:
        times = []
        for name in members_at[table]:
            views = book.seen[(table, name)]
            k = bisect.bisect_right(seqs.get((table, name), []), seq)  # views are in seq order
            if k == len(views):
                break
            times.append(views[k][1])
        else:
            result.append(max(times) - sent)
    return result


async def run_load(
    members: int = 50,
    tables: int = 10,
    seconds: float = 60.0,
    seed: int = 1,
    database: str | None = None,
) -> Report:
    """Serve on loopback, register the members, run them for ``seconds``, and report.

    The members are kept in ``database`` (default: an SQLite file in a temporary folder)."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(database or str(Path(folder) / "load.db"))
        try:
            return await _run(store, members, tables, seconds, seed)
        finally:
            store.close()


async def _run(store: Store, members: int, tables: int, seconds: float, seed: int) -> Report:
    seats = -(-members // tables)
    settings = TableSettings(seats=seats, stack=1000, pause=0.05, bot_delay=0, samples=50)
    server = WebServer(settings, tables, seed, store=store)
    report = Report(members, tables, seconds)

    def on_hand(table: WebTable, before: int, after: int) -> None:
        report.hands += 1
        report.unbalanced += before != after

    for table in server.tables:
        table.on_hand = on_hand
    runner = web.AppRunner(server.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/"
    book = Bookkeeping(stop=seconds)
    rng = random.Random(seed)
    names = [f"m{k:02d}" for k in range(members)]
    try:
        await asyncio.gather(
            *(
                member(url, name, random.Random(rng.getrandbits(32)), book, members)
                for name in names
            )
        )
    finally:
        await runner.cleanup()
    # the one hand each table was playing when the run stopped is not counted as unfinished
    report.unfinished = sum(max(0, t.table.number - t.hands_done - 1) for t in server.tables)
    members_at = {t.number: [m.name for m in t.members.values()] for t in server.tables}
    report.messages = book.messages
    report.latencies = latencies(book, members_at)
    return report
