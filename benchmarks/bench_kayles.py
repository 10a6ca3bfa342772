"""Time ``NimAIPlayer.advanced_move`` on large boards and print the figures with the machine.

Run: ``python benchmarks/bench_kayles.py``. The brief's target is under a millisecond for
10,000 stones. Boards: a full row, a row with one gap near the middle, and a random board with
about one stone in ten gone (many rows). Each figure is the best of several timed batches, in
this process's CPU time (which other work on a shared machine moves less than the wall clock).
"""

from __future__ import annotations

import random
import time
import timeit

from machine import describe

from casino.nim import NimAIPlayer


def boards(size: int) -> dict[str, list[bool]]:
    """The boards timed for ``size`` stones."""
    rng = random.Random(size)
    gap = [True] * size
    gap[size // 3] = False
    return {
        "full row": [True] * size,
        "one gap": gap,
        "10% gone": [rng.random() >= 0.1 for _ in range(size)],
    }


def per_call_us(board: list[bool]) -> float:
    """CPU microseconds per ``advanced_move`` call on ``board`` (best batch)."""
    player = NimAIPlayer()
    timer = timeit.Timer(lambda: player.advanced_move(board, ""), timer=time.process_time)
    calls, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=calls)) / calls * 1e6


def main() -> None:
    """Print one line per board size and kind."""
    print(describe())
    for size in (11, 100, 1_000, 10_000, 100_000):
        for name, board in boards(size).items():
            print(f"{size:>7} stones  {name:<9}  {per_call_us(board):9.1f} CPU µs a move")


if __name__ == "__main__":
    main()
