"""Hand evaluator speed: casino against treys, pokerkit and phevaluator, on the same hands.

    python benchmarks/bench_eval.py [--hands N] [--repeats R]

Every contender evaluates the same seeded random 5-card and 7-card hands (200,000 each by
default), converted to its own card type beforehand, in the same plain ``for`` loop; the
best of ``--repeats`` timings is reported (one timing for a contender slower than 5 s).
Contenders that are not installed are listed as such. The table build times (cold, and
loading from the on-disk cache) come first.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

from machine import describe

SEED = 2024
SLOW = 5.0  # seconds: a contender this slow is timed once

Evaluator = Callable[[Any], object]


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return ""


def _contenders() -> list[
    tuple[str, Callable[[int], Any] | None, Evaluator | None, Evaluator | None]
]:
    """(name, card converter, 5-card evaluator, 7-card evaluator) per contender.

    A converter maps a card index (0..51, rank-major, suits c d h s) to the contender's card;
    an evaluator takes one hand as a list of those cards.
    """
    from casino.cards import Card, rank_hand
    from casino.cards.evaluator import evaluate5, evaluate7

    rows: list[tuple[str, Callable[[int], Any] | None, Evaluator | None, Evaluator | None]] = [
        ("casino evaluate5/evaluate7 (indices)", int, evaluate5, evaluate7),
        ("casino rank_hand (Card objects)", Card.from_index, rank_hand, rank_hand),
    ]
    ranks, suits = "23456789TJQKA", "cdhs"
    if _version("treys"):
        from treys import Card as TreysCard
        from treys import Evaluator as TreysEvaluator

        evaluate = TreysEvaluator().evaluate
        rows.append(
            (
                f"treys {_version('treys')}",
                lambda i: TreysCard.new(ranks[i >> 2] + suits[i & 3]),
                lambda hand: evaluate(hand[:2], hand[2:]),
                lambda hand: evaluate(hand[:2], hand[2:]),
            )
        )
    else:
        rows.append(("treys (not installed)", None, None, None))
    if _version("pokerkit"):
        from pokerkit import Card as KitCard
        from pokerkit import StandardHighHand

        rows.append(
            (
                f"pokerkit {_version('pokerkit')}",
                lambda i: next(iter(KitCard.parse(ranks[i >> 2] + suits[i & 3]))),
                StandardHighHand,
                lambda hand: StandardHighHand.from_game(hand[:2], hand[2:]),
            )
        )
    else:
        rows.append(("pokerkit (not installed)", None, None, None))
    if _version("phevaluator"):
        from phevaluator import evaluate_cards

        rows.append(
            (
                f"phevaluator {_version('phevaluator')} (C core)",
                int,  # the same numbering as casino's card index
                lambda hand: evaluate_cards(*hand),
                lambda hand: evaluate_cards(*hand),
            )
        )
    else:
        rows.append(("phevaluator (not installed)", None, None, None))
    return rows


def _rate(evaluate: Evaluator, hands: Sequence[Any], repeats: int) -> float:
    """Evaluations per second: the best of ``repeats`` passes over ``hands``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for hand in hands:
            evaluate(hand)
        best = min(best, time.perf_counter() - start)
        if best > SLOW:
            break
    return len(hands) / best


def _table_times() -> tuple[float, float]:
    """Seconds to import the evaluator with a cold cache, then with a warm one (fresh processes)."""
    code = (
        "import time; t = time.perf_counter(); import casino.cards.evaluator; "
        "print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "CASINO_CACHE_DIR": cache}
        cold, warm = (
            float(
                subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(2)
        )
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    print(describe())
    cold, warm = _table_times()
    print(
        f"evaluator tables: {cold:.2f} s to build (cold cache), {warm:.3f} s to load (warm cache)"
    )
    rng = random.Random(SEED)
    deck = range(52)
    fives = [rng.sample(deck, 5) for _ in range(args.hands)]
    sevens = [rng.sample(deck, 7) for _ in range(args.hands)]
    print(f"hands: {args.hands:,} seeded random 5-card and 7-card hands (random.Random({SEED}))")
    print()
    print(f"| {'evaluator':<44} | {'5-card evals/s':>15} | {'7-card evals/s':>15} |")
    print(f"|{'-' * 46}|{'-' * 16}:|{'-' * 16}:|")
    for name, convert, five, seven in _contenders():
        if convert is None or five is None or seven is None:
            print(f"| {name:<44} | {'-':>15} | {'-':>15} |")
            continue
        five_rate = _rate(five, [[convert(c) for c in hand] for hand in fives], args.repeats)
        seven_rate = _rate(seven, [[convert(c) for c in hand] for hand in sevens], args.repeats)
        print(f"| {name:<44} | {five_rate:>15,.0f} | {seven_rate:>15,.0f} |", flush=True)


if __name__ == "__main__":
    main()
