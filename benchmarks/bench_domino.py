"""Dominoes: the computer player against a random-legal and a greedy ("play the heaviest tile")
player over seeded hands.

Run: ``python benchmarks/bench_domino.py [--hands N] [--seed S]``.

Hand ``i`` is dealt by ``random.Random(seed + i)``; the computer takes seat ``i % 2`` (so each
side leads as often as the deal makes it), the opponent the other seat. Printed for each
opponent: hands won, lost and drawn, the win rate over all hands and over decided hands, and
the time per hand. Target (issue 13): a win rate of at least 60% against random-legal over
2,000 hands, and above 50% against greedy.
"""

from __future__ import annotations

import argparse
import random
import time

from machine import describe

from casino.domino.strategy import Chooser, greedy, head_to_head, ours, random_legal


def main() -> None:
    """Print both rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(describe())
    opponents: dict[str, Chooser] = {
        "random-legal": random_legal(random.Random(args.seed ^ 0x5EED)),
        "greedy": greedy,
    }
    for name, opponent in opponents.items():
        start, cpu = time.perf_counter(), time.process_time()
        won, lost, drawn = head_to_head(ours, opponent, args.hands, args.seed)
        per_hand = (time.perf_counter() - start) / args.hands * 1000
        cpu_per_hand = (time.process_time() - cpu) / args.hands * 1000
        print(
            f"ours vs {name:<12} {args.hands} hands: won {won}, lost {lost}, drawn {drawn}; "
            f"win rate {won / args.hands:.1%} (of decided hands {won / max(1, won + lost):.1%}); "
            f"{per_hand:.2f} ms a hand ({cpu_per_hand:.2f} ms of CPU)"
        )


if __name__ == "__main__":
    main()
