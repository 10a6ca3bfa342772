"""Three-card stud: dealer throughput on loopback, our player's reply time, and our player
against the three baselines.

Run: ``python benchmarks/bench_stud.py [--hands N] [--tournaments T]``.

1. A dealer on 127.0.0.1 with 4 of our players as separate processes (``casino stud
   player``): hands per second once everybody is seated (target: 500 on 2 cores), each
   reply's round trip as the dealer sees it (send → reply read), p50/p99/max, and the CPU
   per hand of the dealer (this process) and of the players (its children).
2. ``T`` seeded tournaments of 2,000 hands, ours against always-call, random-legal and
   pair-or-fold (the same dealer, players in-process, no sockets): who finishes first.
   Target: ours first in at least 16 of 20.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import time

from machine import describe

from casino.clock import MonotonicClock
from casino.net.stream import FrameStream, bound_port, serve
from casino.stud.bots import BASELINES
from casino.stud.dealer import Connection, QuietObserver, Table, TableConfig, gather
from casino.stud.tournament import bot_command, local_entrants, play_local


class TimedConnection:
    """A connection that records how long each reply took, from send to receive."""

    def __init__(self, inner: Connection, times: list[float]) -> None:
        self.inner = inner
        self.times = times
        self._sent = 0.0

    async def send(self, text: str) -> None:
        """Send, and start the stopwatch."""
        self._sent = time.perf_counter()
        await self.inner.send(text)

    def post(self, text: str) -> None:
        """Queue a message that takes no reply."""
        self.inner.post(text)

    async def receive(self) -> str:
        """Receive, and record the round trip."""
        reply = await self.inner.receive()
        self.times.append(time.perf_counter() - self._sent)
        return reply

    async def close(self) -> None:
        """Close the inner connection."""
        await self.inner.close()


class HandClock(QuietObserver):
    """Remembers when each hand ended."""

    def __init__(self) -> None:
        self.ends: list[float] = []

    def hand_over(self, record: object, seats: object) -> None:
        """Note the time."""
        self.ends.append(time.perf_counter())


async def loopback(hands: int, players: int = 4) -> tuple[float, list[float]]:
    """(hands per second, reply round trips in seconds) for ``players`` of ours."""
    arrivals: asyncio.Queue[Connection] = asyncio.Queue()
    finished = asyncio.Event()

    async def accept(stream: FrameStream) -> None:
        await arrivals.put(stream)
        await finished.wait()

    server = await serve(accept)
    port = bound_port(server)
    processes = [
        await asyncio.create_subprocess_exec(
            *bot_command("ours", port, index), stdout=asyncio.subprocess.DEVNULL
        )
        for index in range(players)
    ]
    clock = MonotonicClock()
    seats = await asyncio.wait_for(
        gather(arrivals, players, 10**6, clock, 5.0, QuietObserver()), 60
    )
    times: list[float] = []
    for seat in seats:
        seat.connection = TimedConnection(seat.connection, times)
    watch = HandClock()
    table = Table(seats, TableConfig(hands=hands), clock, random.Random(1), watch)
    await table.play()
    finished.set()
    server.close()
    for process in processes:
        await asyncio.wait_for(process.wait(), 30)
    span = watch.ends[-1] - watch.ends[0]
    return (len(watch.ends) - 1) / span, times


def tournaments(count: int, hands: int) -> int:
    """Play ``count`` seeded tournaments, print one row each; how many ours won."""
    names = ["ours", *BASELINES]
    print(f"{'seed':>4}  {'winner':<13} {'hands':>5}  " + "  ".join(f"{n:>12}" for n in names))
    wins = 0
    for seed in range(count):
        ranking = asyncio.run(play_local(local_entrants(names, seed), hands, seed))
        stacks = {seat.ident: seat.stack for seat in ranking}
        last = max(seat.left_after for seat in ranking)
        print(
            f"{seed:>4}  {ranking[0].ident:<13} {last:>5}  "
            + "  ".join(f"{stacks[n]:>12}" for n in names)
        )
        wins += ranking[0].ident == "ours"
    return wins


def main() -> None:
    """Print the machine, the loopback figures, and the tournament table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands on loopback (3000)")
    parser.add_argument("--tournaments", type=int, default=20, help="seeded tournaments (20)")
    args = parser.parse_args()
    print(describe())
    started = time.process_time()
    rate, times = asyncio.run(loopback(args.hands))
    dealer = time.process_time() - started
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    players = used.ru_utime + used.ru_stime
    cut = statistics.quantiles(times, n=100)
    print(f"loopback, dealer + 4 of our players: {rate:,.0f} hands/s over {args.hands} hands")
    print(
        f"reply round trip ({len(times)} replies): p50 {cut[49] * 1e3:.2f} ms, "
        f"p99 {cut[98] * 1e3:.2f} ms, max {max(times) * 1e3:.2f} ms"
    )
    print(
        f"CPU per hand: dealer {dealer / args.hands * 1e3:.2f} ms, its 4 players "
        f"{players / args.hands * 1e3:.2f} ms (their start-up included); what the load of the "
        "machine does not change, where hands/s and p99 follow it"
    )
    print()
    wins = tournaments(args.tournaments, 2000)
    print(f"ours finished first in {wins} of {args.tournaments} (target: 16 of 20)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
