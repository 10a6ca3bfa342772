"""A load test of ``casino web``: the real server in its own process, simulated members over
real WebSockets on loopback.

**Two processes.** The server is ``casino web`` itself, started as a child process
(``python -m casino web --port 0 --database …``): the program members meet, with its own
event loop, its own worker threads and its own memory, so that its memory is measured alone
(``VmRSS`` of ``/proc/PID/status``, every few seconds) and the members' clients do not share
its event loop. The members are aiohttp clients in this process, one cookie jar each: each
registers (the house's starting bankroll), opens the table's socket and, at each turn,
checks or calls (now and then a minimum raise or a fold). They come from several loopback
addresses (``127.0.0.2``, ``127.0.0.3``, …; :data:`MEMBERS_PER_ADDRESS` each) as members
come from several machines: one address may join only ``join_burst`` times at once
(:class:`casino.web.guard.Limits`).

**The store** is the production default unless told: an SQLite file ``casino.db`` (WAL) in a
temporary folder, passed as ``--database``. After the run the server is stopped (SIGTERM)
and the store is read here: the hands finished (settled games), the games left open at the
stop (voided, their stakes returned, as the next start would), every settled game's payouts
against its stakes, and the books: the wallets of every member plus the house against what
was ever issued.

**Measured**: messages per second (both ways, counted by the members) and, for every action,
the time from sending it to the moment *every* member of that table has a view that includes
it (the ``seq`` of the views); the p50/p99 of those. An action some member never saw an update
for (sent over :data:`LATE` seconds before the end) is counted as lost. The server's memory is
judged after a warm-up (the first ``warmup`` seconds of play: registrations, scrypt's buffers,
the first hands): *flat* when every sample after it is within ±10% of the first.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import math
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from aiohttp import ClientSession, CookieJar, TCPConnector, WSMsgType

from casino.web.databases import open_store
from casino.web.store import Store

MEMBERS_PER_ADDRESS = 50
"""Members that join from one loopback address (under the server's ``join_burst`` of 60)."""
HANDS_SECONDS = 120.0
"""How long past its time a member waits for its table's ``hands`` (then it stops)."""
PACE = 0.25
"""Seconds a member lets pass between two of its actions at least: 4 a second, under the
server's budget of 5 (``Limits.rate``; a message over it is ignored and the table waits for
the member's clock). People are far slower; the latency is measured from the send."""
LATE = 5.0
"""Seconds before the end after which an action without every update is not counted lost
(the members stopped reading)."""
FLAT = 10
"""How far (a percentage of the first sample after the warm-up) memory may move and be flat."""
START_SECONDS = 60.0
"""How long the server may take to say where it listens."""
STOPPED = "casino web: stopped by SIGTERM"
"""What the server says on its stderr when the load test stops it."""
STOP_SECONDS = 30.0
"""How long the server may take to stop after SIGTERM (then it is killed)."""
LOG_SHOWN = 10
"""The server's log lines the report shows (the first ones)."""
REGISTER_TRIES = 100
"""How many times a member registers when told the casino is busy (503)."""


@dataclass
class Memory:
    """The server's resident memory over the run: (seconds of play, KiB) samples; and the
    processor time it used while the members played."""

    warmup: float
    samples: list[tuple[float, int]] = field(default_factory=list)
    cpu: list[tuple[float, float]] = field(default_factory=list)
    """(seconds of play, the server's processor seconds so far) at the start and the end."""

    def cpu_line(self) -> str:
        """The report's line about the server's processor time."""
        if len(self.cpu) < 2:
            return "server CPU: not measured (/proc needed)"
        (start, used), (end, total) = self.cpu[0], self.cpu[-1]
        spent, wall = total - used, end - start
        share = 100 * spent / wall
        return f"server CPU: {spent:.1f} s in {wall:.0f} s of play ({share:.0f}% of a core)"

    @property
    def settled(self) -> list[int]:
        """The samples (KiB) taken after the warm-up."""
        return [kib for at, kib in self.samples if at >= self.warmup]

    @property
    def drift(self) -> float:
        """The last sample after the warm-up against the first (a fraction: 0.05 is +5%)."""
        kept = self.settled
        return kept[-1] / kept[0] - 1 if kept else math.nan

    @property
    def flat(self) -> bool:
        """Whether every sample after the warm-up is within :data:`FLAT` of the first."""
        kept = self.settled
        return bool(kept) and all(100 * abs(kib - kept[0]) <= FLAT * kept[0] for kib in kept)

    def line(self) -> str:
        """The report's line about memory."""
        kept = self.settled
        if not kept:
            return "server memory: not measured (no samples after the warm-up; /proc needed)"
        verdict = "flat" if self.flat else "NOT flat"
        return (
            f"server memory (VmRSS): {_mib(kept[0])} after the {self.warmup:.0f} s warm-up, "
            f"{_mib(kept[-1])} at the end ({100 * self.drift:+.1f}%), min {_mib(min(kept))}, "
            f"max {_mib(max(kept))} over {len(kept)} samples: {verdict} "
            f"(every sample within ±{FLAT}% of the first)"
        )


def _mib(kib: int) -> str:
    return f"{kib / 1024:.1f} MiB"


@dataclass
class Books:
    """What the store says after the run."""

    members: int = 0
    hands: int = 0
    """Hold'em games settled."""
    voided: int = 0
    """Games left open by the stop, voided here (their stakes returned)."""
    unbalanced: int = 0
    """Settled games whose payouts do not add up to their stakes."""
    issued: int = 0
    wallets: int = 0
    """Every member's wallet plus the house, after the voiding."""
    engine: str = ""
    """The database and how it writes (SQLite: its journal mode and ``synchronous``)."""


@dataclass
class Report:
    """What one load run measured."""

    members: int
    tables: int
    seconds: float
    database: str = ""
    played: float = 0.0
    """The seconds the members played (``seconds``, or more while tables finished their
    ``hands``)."""
    messages: int = 0
    joined: float = 0.0
    """The seconds from the start until every member had registered."""
    busy: int = 0
    """The registrations answered "busy, try again in N s" (503), then tried again."""
    latencies: list[float] = field(default_factory=list)
    lost: int = 0
    books: Books = field(default_factory=Books)
    memory: Memory = field(default_factory=lambda: Memory(0.0))
    status: int | None = None
    """The server's exit status (143: stopped by SIGTERM, as told)."""
    log: list[str] = field(default_factory=list)
    """The lines the server wrote to its stderr (its log: warnings and errors), but
    :data:`STOPPED`."""

    def percentile(self, q: float) -> float:
        """The ``q`` quantile (0..1) of the latencies, in seconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def conserved(self) -> bool:
        """Whether every hand kept its chips and the books balance."""
        books = self.books
        return books.unbalanced == 0 and books.wallets == books.issued

    def lines(self) -> list[str]:
        """The report as text."""
        books = self.books
        return [
            f"{self.members} members at {self.tables} tables for {self.seconds:.0f} s",
            f"server: casino web in its own process; store: {self.database} ({self.books.engine})",
            f"hands finished: {books.hands} (left open by the stop, voided: {books.voided}; "
            f"payouts not matching stakes: {books.unbalanced})",
            f"books: {books.members} members' wallets + the house = {books.wallets}, "
            f"issued {books.issued}: {'conserved' if self.conserved else 'NOT conserved'}",
            f"registered: {self.members} in {self.joined:.1f} s "
            f"({self.busy} told busy and tried again)",
            f"messages: {self.messages} ({self.messages / max(self.played, 1e-9):.0f}/s "
            f"over {self.played:.0f} s of play)",
            f"action to every member's update: p50 {1000 * self.percentile(0.5):.1f} ms, "
            f"p99 {1000 * self.percentile(0.99):.1f} ms over {len(self.latencies)} actions "
            f"(lost: {self.lost})",
            self.memory.line(),
            self.memory.cpu_line(),
            f"server: exit status {self.status}"
            f"{' (stopped by SIGTERM, as told)' if self.status == 143 else ''}, "
            f"{len(self.log)} log lines (warnings, errors)",
            *(f"  {line}" for line in self.log[:LOG_SHOWN]),
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
    busy: int = 0
    """The registrations answered "busy, try again" (503)."""
    go: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once every member has registered: the run's time starts then."""
    start: float = 0.0
    """When (monotonic) the run's time started."""
    stop: float = 0.0
    """The run's seconds; once every member has registered, when it stops (monotonic)."""
    hands: int = 0
    """Past ``stop``, a member plays on until its table has finished this many hands."""
    ended: float = 0.0
    """When (monotonic) the last member stopped."""
    tables: dict[str, int] = field(default_factory=dict)
    """Each member's table."""


async def member(
    url: str, name: str, address: str, rng: random.Random, book: Bookkeeping, count: int
) -> None:
    """One simulated member from ``address``: registers, waits for the ``count`` others,
    plays until ``book.stop`` (monotonic time)."""
    connector = TCPConnector(local_addr=(address, 0))
    jar = CookieJar(unsafe=True)  # an IP host
    async with ClientSession(connector=connector, cookie_jar=jar) as session:
        await register(session, url, name, book)
        book.registered += 1
        if book.registered == count:
            book.start = time.monotonic()
            book.stop += book.start
            book.go.set()
        await book.go.wait()
        async with session.ws_connect(url.replace("http", "ws") + "ws/holdem") as ws:
            await _play(ws, name, rng, book)


async def register(session: ClientSession, url: str, name: str, book: Bookkeeping) -> None:
    """Register ``name`` as a person would: told the casino is busy (503), try again after
    its ``Retry-After``, at most :data:`REGISTER_TRIES` times."""
    for _ in range(REGISTER_TRIES):
        async with session.get(url + "register") as lobby:
            found = re.search(r'name="csrf" value="([^"]+)"', await lobby.text())
        token = found.group(1) if found else ""
        form = {"name": name, "password": f"{name}-password", "lang": "en", "csrf": token}
        async with session.post(url + "register", data=form) as joined:
            if joined.status != 503:
                joined.raise_for_status()
                return
            book.busy += 1
            wait = float(joined.headers.get("Retry-After", "1"))
        await asyncio.sleep(wait)
    raise ConnectionError(f"{name}: the casino was still busy after {REGISTER_TRIES} tries")


async def _play(ws: Any, name: str, rng: random.Random, book: Bookkeeping) -> None:
    acted = -1
    last = -PACE
    dealt = 0  # the table's hand now: the ones before it are finished (settled)
    while _playing(book, dealt):
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
        book.tables[name], dealt = data["table"], data["hand"]
        book.seen[(data["table"], name)].append((data["seq"], now))
        legal = data["legal"]
        if legal is None or data["seq"] == acted:
            continue
        acted = data["seq"]
        await asyncio.sleep(last + PACE - time.monotonic())  # (nothing if negative)
        await ws.send_json(_choice(legal, rng))
        last = time.monotonic()
        book.messages += 1
        book.sent.append((data["table"], data["seq"], last))


def _playing(book: Bookkeeping, dealt: int) -> bool:
    """Whether a member whose table deals hand ``dealt`` plays on (time left, or its
    table's ``book.hands`` not finished yet: for at most :data:`HANDS_SECONDS` more)."""
    now = time.monotonic()
    book.ended = max(book.ended, now)
    return now < book.stop or (dealt <= book.hands and now < book.stop + HANDS_SECONDS)


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


def latencies(book: Bookkeeping) -> tuple[list[float], int]:
    """For each action, the time until every member of its table had a view including it;
    and how many actions some member never had such a view for (sent over :data:`LATE`
    seconds before the end)."""
    members_at: dict[int, list[str]] = defaultdict(list)
    for name, table in book.tables.items():
        members_at[table].append(name)
    seqs = {key: [s for s, _ in views] for key, views in book.seen.items()}
    result = []
    lost = 0
    for table, seq, sent in book.sent:
        times = []
        for name in members_at[table]:
            views = book.seen[(table, name)]
            k = bisect.bisect_right(seqs.get((table, name), []), seq)  # views are in seq order
            if k == len(views):
                lost += sent < book.ended - LATE
                break
            times.append(views[k][1])
        else:
            result.append(max(times) - sent)
    return result, lost


def server_command(database: str, members: int, tables: int, seed: int) -> list[str]:
    """``casino web`` as the load test runs it: on loopback, any free port, the members'
    tables full (seats: members / tables), a pause of 50 ms between hands (not 2 s: the
    members act at once, so the tables play far faster than people would)."""
    seats = max(2, -(-members // tables))
    return [
        sys.executable,
        "-m",
        "casino",
        "web",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--database",
        database,
        "--tables",
        str(tables),
        "--seats",
        str(seats),
        "--pause",
        "0.05",
        "--seed",
        str(seed),
    ]


@asynccontextmanager
async def serving(command: list[str], log: IO[bytes]) -> AsyncIterator[tuple[str, Any]]:
    """Start the server ``command`` (its stderr to ``log``, a file); yield its URL and
    process; at the end stop it with SIGTERM (killed if it does not stop)."""
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=log
    )
    try:
        assert process.stdout is not None
        async with asyncio.timeout(START_SECONDS):
            line = (await process.stdout.readline()).decode("utf-8", "replace")
        found = re.search(r"(http://\S+/)", line)
        if found is None:
            await process.wait()
            said = Path(log.name).read_text("utf-8", "replace").strip()
            raise RuntimeError(f"casino web did not start (status {process.returncode}): {said}")
        yield found.group(1), process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(STOP_SECONDS):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()


def cpu_seconds(pid: int) -> float | None:
    """The processor seconds (user + system) the process has used, or ``None``."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def resident_kib(pid: int) -> int | None:
    """The process's resident memory (``VmRSS``, KiB), or ``None`` where /proc cannot say."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


async def sample_memory(pid: int, book: Bookkeeping, memory: Memory, every: float) -> None:
    """Every ``every`` seconds of play, the server's resident memory (until cancelled)."""
    await book.go.wait()
    _cpu(pid, book, memory)
    try:
        while True:
            kib = resident_kib(pid)
            if kib is not None:
                memory.samples.append((time.monotonic() - book.start, kib))
            await asyncio.sleep(every)
    finally:
        _cpu(pid, book, memory)


def _cpu(pid: int, book: Bookkeeping, memory: Memory) -> None:
    used = cpu_seconds(pid)
    if used is not None:
        memory.cpu.append((time.monotonic() - book.start, used))


def read_books(store: Store) -> Books:
    """The store after the run: hands settled, games voided, payouts against stakes, and
    the wallets plus the house against what was issued."""
    voided = store.void_open_games()
    with store.transaction() as run:
        hands = run(
            "SELECT COUNT(*) FROM games WHERE kind = 'holdem' AND state = 'settled'"
        ).fetchone()[0]
        unbalanced = run(
            "SELECT COUNT(*) FROM (SELECT h.game FROM holds h JOIN games g ON g.id = h.game "
            "WHERE g.state = 'settled' GROUP BY h.game "
            "HAVING SUM(h.payout) <> SUM(h.amount)) AS off"
        ).fetchone()[0]
        members = run("SELECT COUNT(*) FROM accounts WHERE kind = 'member'").fetchone()[0]
        wallets = run("SELECT COALESCE(SUM(balance), 0) FROM accounts").fetchone()[0]
        issued = run("SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE kind = 'issue'").fetchone()[
            0
        ]
        engine = store.dialect.name
        if store.dialect.name == "sqlite":
            mode = run("PRAGMA journal_mode").fetchone()[0]
            sync = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(
                run("PRAGMA synchronous").fetchone()[0], "?"
            )
            engine = f"SQLite, journal_mode={mode}, synchronous={sync}"
    books = Books(int(members), int(hands), len(voided), int(unbalanced), int(issued))
    books.wallets, books.engine = int(wallets), engine
    return books


async def run_load(
    members: int = 200,
    tables: int = 40,
    seconds: float = 600.0,
    seed: int = 1,
    database: str | None = None,
    warmup: float = 60.0,
    every: float = 5.0,
    hands: int = 0,
) -> Report:
    """Start ``casino web``, register the members, run them for ``seconds`` (and on until
    every table has finished ``hands`` hands), stop the server and read its store; the
    report. The store is ``database`` (default: an SQLite file ``casino.db`` in a temporary
    folder); memory is sampled every ``every`` seconds and judged after ``warmup`` seconds of
    play."""
    with tempfile.TemporaryDirectory(prefix="casino-load-") as folder:
        where = database or str(Path(folder) / "casino.db")
        report = Report(members, tables, seconds, where, memory=Memory(warmup))
        log_path = Path(folder) / "server.log"
        with log_path.open("wb") as log:
            command = server_command(where, members, tables, seed)
            async with serving(command, log) as (url, process):
                book = Bookkeeping(stop=seconds, hands=hands)
                began = time.monotonic()
                await _members(url, process.pid, book, report, seed, every)
            report.joined, report.busy = book.start - began, book.busy
            report.status = process.returncode
        said = log_path.read_text("utf-8", "replace").splitlines()
        report.log = [line for line in said if line != STOPPED]
        report.messages, report.played = book.messages, book.ended - book.start
        report.latencies, report.lost = latencies(book)
        store = open_store(where)
        try:
            report.books = await asyncio.to_thread(read_books, store)
        finally:
            store.close()
    return report


async def _members(
    url: str, pid: int, book: Bookkeeping, report: Report, seed: int, every: float
) -> None:
    members = report.members
    rng = random.Random(seed)
    sampler = asyncio.create_task(sample_memory(pid, book, report.memory, every))
    try:
        await asyncio.gather(
            *(
                member(
                    url,
                    f"m{k:03d}",
                    f"127.0.0.{2 + k // MEMBERS_PER_ADDRESS}",
                    random.Random(rng.getrandbits(32)),
                    book,
                    members,
                )
                for k in range(members)
            )
        )
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
