"""Three-card stud: dealer throughput on loopback, our player's reply time, and our player
against the three baselines.

Run: ``python benchmarks/bench_stud.py [--hands N] [--tournaments T] [--against DIR]
[--through-loop]``, or under ``taskset -c 1`` to play the whole table on one core.

1. A dealer on 127.0.0.1 with 4 of our players as separate processes (``casino stud
   player``): hands per second once everybody is seated (issue 31's target: 800 on 2 cores),
   each reply's round trip as the dealer sees it (send → reply read), p50/p99/max, and the
   CPU per hand of the dealer (this process) and of the players (its children), with their
   start-up and, from /proc, without it.
2. ``T`` seeded tournaments of 2,000 hands, ours against always-call, random-legal and
   pair-or-fold (the same dealer, players in-process, no sockets): who finishes first.
   Target: ours first in at least 16 of 20.

The table is serial: the dealer waits for each reply before it sends the next request, so
one process works at a time and a hand takes (at least) the CPU of all five; the
quiet-machine rate is about 1 / (CPU per hand), whatever the number of cores. The dealer is
seated as ``casino stud dealer`` seats it: held (``casino.net.held``); ``--through-loop``
measures it waiting through the event loop instead. Under ``taskset -c 1`` (the affinity is
inherited by the players, and by both checkouts' runs with ``--against``) no reply wakes a
process on another core: on a virtual machine that wake-up costs CPU in both processes.

``--against DIR`` compares with the code of another checkout (``git worktree add DIR main``):
part 1 runs ``--rounds`` times for each, alternating (this checkout first), each run the
checkout's own copy of this script in a fresh process with ``PYTHONPATH=DIR`` (each dealer
seated as its ``casino stud dealer`` seats it), and the medians are printed side by side.
CPU per hand is what the load of a shared machine changes least; the players' CPU while
playing is read from /proc (Linux).

What changed since the README's 826 hands/s of 2026-11-27 (measured 2026-12-02, AMD EPYC, 2
cores shared with six other sessions' work, load 1.2-1.9 by ``uptime``; ``taskset -c 1``,
``--hands 3000 --against`` a copy of main, five rounds alternating): main itself now plays
713 hands/s, 1.41 ms of CPU a hand (dealer 0.43 + players 0.98), the same code slower on the
machine of the day. A profile of a hand (``--profile`` for the dealer; each player's dealer
texts replayed into a warm process): the dealer's CPU is nearly all its sockets (``select``,
``send``, ``recv`` and the turn between processes), its own Python (shuffle, formatting,
settling) a small part; a player's is its decisions, 126 of 150 us a hand warm, most of them
scoring each opponent's ways (``strategy._beat_chances``). Those were cut (the same floats,
the same replies): a player asked again in a round scores nothing again, the counts of an
opponent's two unknown cards are worked out once a decision for all who show one card, sums
and divisions in C in the same order, a status read by look-up; a player's hand warm 150 ->
126 us, decisions 126 -> 103. On the table: **756 hands/s** (main 713), 1.32 ms a hand
(dealer 0.43 + players 0.89). Not yet the issue's 800 on this day's machine.

Since (measured 2026-12-03 on another machine, Intel Xeon, 2 cores shared with seven other
sessions' work, load 6.4-7.2; ``taskset -c 1``, ``--hands 3000 --against`` a copy of integ,
five rounds alternating): ``strace -c -f`` of the table showed the dealer's held reply as
``sendto``, ``pselect6``, ``recvfrom`` and ``getpid`` (``asyncio.current_task``); a held
peer on the real clock now reads in one blocking ``recv`` timed out by ``SO_RCVTIMEO`` and
sends with ``MSG_DONTWAIT``, the task looked up once. The dealer's own Python, timed on a
table of four instant in-process players (no sockets), was about 110 of its 240 us a hand:
the table's up cards formatted for every request (now once a round), each reply through the
strict number parser (now a plain ``bet:<digits>`` directly), a ``max`` for the amount to
match, enum hashes for ranks; now 93 us. On the table: 0.89 ms of CPU a hand while playing
(dealer 0.23 + players 0.66; integ 0.99 = 0.28 + 0.71); the hands/s measured followed the
load (455-1,146 run to run), and 1 / CPU is 1,124 (integ 1,010).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from machine import describe

from casino.clock import Clock, MonotonicClock
from casino.net import LOOPBACK
from casino.net.guard import Limits
from casino.net.held import HeldClock, SocketPeer
from casino.net.listener import listen
from casino.net.stream import bound_port
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


def cpu_of(pid: int) -> float | None:
    """CPU seconds process ``pid`` has used so far (Linux's /proc; ``None`` elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def players_cpu(pids: list[int]) -> float | None:
    """CPU seconds of all ``pids`` so far, or ``None`` if one cannot be read."""
    used = [cpu_of(pid) for pid in pids]
    return None if None in used else sum(cast(list[float], used))


@dataclass
class Loopback:
    """What part 1 measured."""

    rate: float
    """Hands per second, from the end of the first hand to the end of the last."""
    times: list[float]
    """Each reply's round trip as the dealer saw it, in seconds."""
    dealer: float
    """The dealer's CPU seconds while the hands were played."""
    players: float | None
    """The players' CPU seconds while the hands were played (``None``: not on Linux)."""


async def loopback(hands: int, players: int = 4, held: bool = True, profile: int = 0) -> Loopback:
    """Part 1: ``players`` of ours (separate processes) at one table for ``hands`` hands,
    as ``casino stud dealer`` plays them (``held``: waiting on the sockets directly; else
    through the event loop, as a Casino Day's tables do)."""
    arrivals: asyncio.Queue[Connection] = asyncio.Queue()
    finished = asyncio.Event()
    clock = MonotonicClock()

    async def accept(conn: socket.socket) -> None:
        await arrivals.put(SocketPeer(conn, Limits(send_timeout=5.0), clock))
        await finished.wait()

    server = await listen(accept, 0, LOOPBACK, Limits())
    port = bound_port(server)
    processes = [
        await asyncio.create_subprocess_exec(
            *bot_command("ours", port, index), stdout=asyncio.subprocess.DEVNULL
        )
        for index in range(players)
    ]
    seats = await asyncio.wait_for(
        gather(arrivals, players, 10**6, clock, 5.0, QuietObserver()), 60
    )
    times: list[float] = []
    table_clock: Clock = HeldClock(clock) if held else clock
    for seat in seats:
        if held and isinstance(seat.connection, SocketPeer):
            seat.connection.hold(clock, 5.0)
        seat.connection = TimedConnection(seat.connection, times)
    watch = HandClock()
    table = Table(
        seats, TableConfig(hands=hands, reply_timeout=5.0), table_clock, random.Random(1), watch
    )
    pids = [process.pid for process in processes]
    seated, started = players_cpu(pids), time.process_time()
    profiler = cProfile.Profile() if profile else None
    if profiler is not None:
        profiler.enable()
    await table.play()
    if profiler is not None:
        profiler.disable()
        print(f"dealer's profile of {hands} hands, top {profile} by own time:")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(profile)
    dealer = time.process_time() - started
    ended = players_cpu(pids)  # before they are reaped: an exited child's /proc stays till then
    finished.set()
    server.close()
    for process in processes:
        await asyncio.wait_for(process.wait(), 30)
    span = watch.ends[-1] - watch.ends[0]
    used = None if seated is None or ended is None else ended - seated
    return Loopback((len(watch.ends) - 1) / span, times, dealer, used)


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


FIGURES = re.compile(
    r"(?P<rate>[\d,]+) hands/s over.*?while playing: dealer (?P<dealer>[\d.]+) ms \+ "
    r"players (?P<players>[\d.]+) ms",
    re.S,
)
"""The figures of part 1 (hands/s, then the dealer's and the players' CPU per hand)."""


def loopback_run(root: Path, hands: int) -> tuple[str, dict[str, float] | None]:
    """Part 1 alone, by this script in a fresh process, with the ``casino`` found in ``root``:
    its lines and its figures."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    script = root / "benchmarks" / "bench_stud.py"
    command = [sys.executable, str(script), "--hands", str(hands), "--tournaments", "0"]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith(("loopback", "CPU"))]
    text = "\n".join(lines) or done.stderr.strip()[-300:]
    found = FIGURES.search(done.stdout)
    if found is None:
        return text, None
    figures = {key: float(value.replace(",", "")) for key, value in found.groupdict().items()}
    return text, figures


def compare(other: Path, hands: int, rounds: int) -> None:
    """Part 1 with this checkout's code and ``other``'s, alternating, and the medians."""
    here = Path(__file__).resolve().parents[1]
    runs: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
    for round_ in range(1, rounds + 1):
        for label, root in (("this", here), ("other", other.resolve())):
            text, figures = loopback_run(root, hands)
            print(f"[{round_}] {label} ({root}), load {os.getloadavg()[0]:.1f}:")
            print("    " + text.replace("\n", "\n    "))
            if figures is not None:
                runs[label].append(figures)
    print(f"medians over {rounds} alternating runs of {hands} hands:")
    for label, done in runs.items():
        if not done:
            print(f"  {label:<5}  no figures")
            continue
        rate = statistics.median(run["rate"] for run in done)
        dealer = statistics.median(run["dealer"] for run in done)
        players = statistics.median(run["players"] for run in done)
        both = dealer + players
        print(
            f"  {label:<5}  {rate:5.0f} hands/s  CPU per hand: dealer {dealer:.2f} ms + players "
            f"{players:.2f} ms = {both:.2f} ms while playing (1 / that: {1e3 / both:.0f} hands/s)"
        )


def main() -> None:
    """Print the machine, the loopback figures, and the tournament table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands on loopback (3000)")
    parser.add_argument("--tournaments", type=int, default=20, help="seeded tournaments (20)")
    parser.add_argument("--against", type=Path, metavar="DIR", help="compare with DIR's code")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each with --against (3)")
    parser.add_argument(
        "--through-loop",
        action="store_true",
        help="the dealer waits through the event loop (as a Casino Day's tables do), not held",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="print the dealer's top N functions by own time (cProfile; slows the rate)",
    )
    args = parser.parse_args()
    if args.against is not None and not (args.against / "casino" / "__init__.py").is_file():
        parser.error(f"--against {args.against}: not a checkout of casino (no casino/__init__.py)")
    print(describe())
    if args.against is not None:
        compare(args.against, args.hands, args.rounds)
        return
    started = time.process_time()
    run = asyncio.run(loopback(args.hands, held=not args.through_loop, profile=args.profile))
    dealer = time.process_time() - started
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    players = used.ru_utime + used.ru_stime
    cut = statistics.quantiles(run.times, n=100)
    how = "through the event loop" if args.through_loop else "held"
    print(
        f"loopback, dealer ({how}) + 4 of our players: {run.rate:,.0f} hands/s over "
        f"{args.hands} hands"
    )
    print(
        f"reply round trip ({len(run.times)} replies): p50 {cut[49] * 1e3:.2f} ms, "
        f"p99 {cut[98] * 1e3:.2f} ms, max {max(run.times) * 1e3:.2f} ms"
    )
    print(
        f"CPU per hand: dealer {dealer / args.hands * 1e3:.2f} ms, its 4 players "
        f"{players / args.hands * 1e3:.2f} ms (their start-up included); what the load of the "
        "machine does not change, where hands/s and p99 follow it"
    )
    if run.players is not None:
        playing = (run.dealer + run.players) / args.hands
        print(
            f"CPU per hand while playing: dealer {run.dealer / args.hands * 1e3:.2f} ms + players "
            f"{run.players / args.hands * 1e3:.2f} ms = {playing * 1e3:.2f} ms; the table is "
            f"serial (one reply awaited at a time): about {1 / playing:,.0f} hands/s on a quiet "
            "machine"
        )
    if args.tournaments:
        print()
        wins = tournaments(args.tournaments, 2000)
        print(f"ours finished first in {wins} of {args.tournaments} (target: 16 of 20)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
