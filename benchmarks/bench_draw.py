"""casino's five-card draw players against always-bet and random players, and the speed.

Run: ``python benchmarks/bench_draw.py [GAMES]`` (default 10,000). Every game seats Player_1
(a bettor that never folds), one casino player, one that always bets and one that bets or
folds at random, in rotating seats (see :mod:`casino.draw.contest`); the table gives each
kind's net chips over all games, per game, how often it folded and how often it won a pot,
for both tie-break rules. casino's players must finish with more chips than either other.
"""

from __future__ import annotations

import sys
import time

from machine import describe

from casino.draw.contest import contest
from casino.draw.rules import Tiebreak


def main() -> None:
    """Print the machine, then one table per tie-break rule."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    print(describe())
    for tiebreak in Tiebreak:
        started, cpu = time.perf_counter(), time.process_time()
        records = contest(games, seed=2026, tiebreak=tiebreak)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        speed = f"{seconds / games * 1e3:.3f} ms a game, {cpu / games * 1e3:.3f} ms of CPU"
        print(f"\n{games:,} games, --tiebreak {tiebreak.value} ({speed})")
        print(f"{'player':<10} {'net chips':>11} {'per game':>9} {'folded':>7} {'won':>6}")
        for name, record in records.items():
            print(
                f"{name:<10} {record.net:>+11,} {record.net / record.games:>+9.1f} "
                f"{record.folds / record.games:>7.1%} {record.wins / record.games:>6.1%}"
            )
        ours = records["casino"].net
        beaten = all(ours > records[other].net for other in ("always-bet", "random"))
        print("casino finishes with more chips than either:", "yes" if beaten else "NO")


if __name__ == "__main__":
    main()
