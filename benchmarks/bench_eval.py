"""Hand evaluator speed: casino against phevaluator, eval7, treys and pokerkit, on the same hands.

    python benchmarks/bench_eval.py [--hands N] [--repeats R] [--no-native]

Every contender evaluates the same seeded random 5-card and 7-card hands (200,000 each by
default), converted to its own card type beforehand, in the same plain ``for`` loop
(``evaluate(*hand)`` for evaluators taking the cards as arguments, ``evaluate(hand)`` for
the others). Each of ``--repeats`` rounds times every contender once in turn (so a busy spell
of a shared machine hits them all alike), in this process's CPU time (``time.process_time``:
evaluations per CPU second), and the best time of each is reported (one timing for a pass
slower than 5 s), with its speed as a multiple of casino's ``evaluate5``/``evaluate7``; the
lowest, median and highest of those multiples within one round are printed before the table.
Contenders that are not installed are listed as such (``pip install phevaluator eval7
pokerkit``; treys comes with casino's test extras): they are benchmark peers only, never
casino's dependencies.

phevaluator is measured three ways: its C entry points (``phevaluator._pheval``'s
``evaluate_5cards``/``evaluate_7cards``, one C call per hand from Python), its Python
wrapper ``evaluate_cards`` over them, and its C evaluators in a C loop with no Python per
hand (:mod:`pheval_native`: its sdist is fetched with pip and compiled at run time; the
rank sums are checked against the extension's on the same hands). The evaluator table
times (cold, and loading from the on-disk cache) come first.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from machine import describe
from pheval_native import NativeRates, measure

SEED = 2024
SLOW = 5.0  # seconds: a contender this slow is timed once
NATIVE_PASSES = 20  # the C loop takes milliseconds: more passes for a stable best
RANKS, SUITS = "23456789TJQKA", "cdhs"


@dataclass(frozen=True)
class Contender:
    """An evaluator: how it is called, and how a card index (0..51, rank-major, suits c d
    h s as casino's ``Card.index``) becomes its card."""

    name: str
    convert: Callable[[int], Any] | None = None
    five: Callable[..., object] | None = None
    seven: Callable[..., object] | None = None
    spread: bool = False  # called as evaluate(*cards) rather than evaluate(cards)


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return ""


def _text(index: int) -> str:
    return RANKS[index >> 2] + SUITS[index & 3]


def _casino() -> list[Contender]:
    from casino.cards import Card, rank_hand
    from casino.cards.evaluator import evaluate5, evaluate7, load_tables

    load_tables()  # before any timing (the first evaluation would load them)
    return [
        Contender("casino `evaluate5`/`evaluate7` (card indices)", int, evaluate5, evaluate7),
        Contender("casino `rank_hand` (Card objects)", Card.from_index, rank_hand, rank_hand),
    ]


def _phevaluator() -> list[Contender]:
    version = _version("phevaluator")
    if not version:
        return [Contender("phevaluator (not installed)")]
    from phevaluator import _pheval, evaluate_cards

    return [
        Contender(
            f"phevaluator {version} C entry points (`_pheval.evaluate_5cards`/`_7cards`)",
            int,  # the same numbering as casino's card index
            _pheval.evaluate_5cards,
            _pheval.evaluate_7cards,
            spread=True,
        ),
        Contender(
            f"phevaluator {version} `evaluate_cards` (its Python wrapper)",
            int,
            evaluate_cards,
            evaluate_cards,
            spread=True,
        ),
    ]


def _others() -> list[Contender]:
    rows = []
    if _version("eval7"):
        eval7 = importlib.import_module("eval7")  # no type information: its names are Any
        name = f"eval7 {_version('eval7')} `evaluate` (Cython, eval7.Card objects)"
        rows.append(Contender(name, lambda i: eval7.Card(_text(i)), eval7.evaluate, eval7.evaluate))
    else:
        rows.append(Contender("eval7 (not installed)"))
    if _version("treys"):
        from treys import Card as TreysCard
        from treys import Evaluator as TreysEvaluator

        evaluate = TreysEvaluator().evaluate
        rows.append(
            Contender(
                f"treys {_version('treys')}",
                lambda i: TreysCard.new(_text(i)),
                lambda hand: evaluate(hand[:2], hand[2:]),
                lambda hand: evaluate(hand[:2], hand[2:]),
            )
        )
    else:
        rows.append(Contender("treys (not installed)"))
    if _version("pokerkit"):
        from pokerkit import Card as KitCard
        from pokerkit import StandardHighHand

        rows.append(
            Contender(
                f"pokerkit {_version('pokerkit')}",
                lambda i: next(iter(KitCard.parse(_text(i)))),
                StandardHighHand,
                lambda hand: StandardHighHand.from_game(hand[:2], hand[2:]),
            )
        )
    else:
        rows.append(Contender("pokerkit (not installed)"))
    return rows


def _seconds(evaluate: Callable[..., object], hands: Sequence[Any], spread: bool) -> float:
    """One timed pass of ``evaluate`` over ``hands``: this process's CPU seconds, which other
    work on a shared machine moves far less than the wall clock."""
    start = time.process_time()
    if spread:
        for hand in hands:
            evaluate(*hand)
    else:
        for hand in hands:
            evaluate(hand)
    return time.process_time() - start


@dataclass
class _Timing:
    """One evaluator on one hand size: its hands (as its cards) and its best time so far."""

    evaluate: Callable[..., object]
    hands: list[list[Any]]
    spread: bool
    times: list[float] = field(default_factory=list)

    @property
    def best(self) -> float:
        """The shortest pass so far."""
        return min(self.times, default=float("inf"))

    def run(self) -> None:
        """Time one more pass, unless it is slower than :data:`SLOW` (then once is enough:
        its later rounds repeat that time)."""
        if SLOW < self.best < float("inf"):
            self.times.append(self.times[-1])
            return
        self.times.append(_seconds(self.evaluate, self.hands, self.spread))


def _all_rates(
    contenders: list[Contender], fives: list[list[int]], sevens: list[list[int]], repeats: int
) -> list[Rates | None]:
    """Every installed contender's rates, from the best of ``repeats`` rounds; each round
    times every contender once in turn, so a busy spell of the machine hits all alike."""
    timings: list[tuple[_Timing, _Timing] | None] = []
    for contender in contenders:
        convert, five, seven = contender.convert, contender.five, contender.seven
        if convert is None or five is None or seven is None:
            timings.append(None)
            continue
        as_cards = [[convert(card) for card in hand] for hand in fives]
        as_cards7 = [[convert(card) for card in hand] for hand in sevens]
        timings.append((_Timing(five, as_cards, contender.spread),
                        _Timing(seven, as_cards7, contender.spread)))  # fmt: skip
    for _ in range(repeats):
        for pair in timings:
            for timing in pair or ():
                timing.run()
    _print_round_ratios(contenders, timings)
    return [None if pair is None else (len(fives) / pair[0].best, len(sevens) / pair[1].best)
            for pair in timings]  # fmt: skip


def _print_round_ratios(
    contenders: list[Contender], timings: list[tuple[_Timing, _Timing] | None]
) -> None:
    """Each contender's speed as a multiple of casino's in the same round: the lowest, the
    median and the highest over the rounds."""
    base = timings[0]
    if base is None:
        return
    print("each round's speed as a multiple of casino's in that round (lowest/median/highest):")
    for contender, pair in zip(contenders, timings, strict=True):
        if pair is None:
            continue
        ranges = []
        for ours, theirs in zip(base, pair, strict=True):
            ratios = [a / b for a, b in zip(ours.times, theirs.times, strict=True)]
            ranges.append(f"{min(ratios):.2f}/{statistics.median(ratios):.2f}/{max(ratios):.2f}×")
        print(f"  {contender.name:<72} 5: {ranges[0]:>17}  7: {ranges[1]:>17}")
    print()


def _table_times() -> tuple[float, float]:
    """Seconds to load the evaluator's tables with a cold cache, then a warm one (fresh
    processes; importing the evaluator does not load them, its first use does)."""
    code = (
        "import time; from casino.cards import evaluator; t = time.perf_counter(); "
        "evaluator.load_tables(); print(time.perf_counter() - t)"
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


Rates = tuple[float, float]
"""5-card and 7-card evaluations per second."""


def _row(name: str, rates: Rates | None, base: Rates | None) -> str:
    """A table row: the rates, and their multiples of ``base`` (casino's)."""
    if rates is None:
        return f"| {name:<72} | {'-':>14} | {'-':>14} | {'-':>7} | {'-':>7} |"
    five, seven = rates
    ours = base or rates
    return (
        f"| {name:<72} | {five:>14,.0f} | {seven:>14,.0f} "
        f"| {five / ours[0]:>6.2f}× | {seven / ours[1]:>6.2f}× |"
    )


def _native(fives: list[list[int]], sevens: list[list[int]]) -> NativeRates | str:
    """phevaluator's C loop on the same hands, its sums checked against the extension's."""
    version = _version("phevaluator")
    if not version:
        return "phevaluator is not installed (its version picks the sdist)"
    from phevaluator import _pheval

    rates = measure(version, fives, sevens, NATIVE_PASSES)
    if isinstance(rates, NativeRates):
        expected = (
            sum(_pheval.evaluate_5cards(*hand) for hand in fives),
            sum(_pheval.evaluate_7cards(*hand) for hand in sevens),
        )
        if (rates.five_sum, rates.seven_sum) != expected:
            return f"its results differ from the extension's: {rates} against {expected}"
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-native", action="store_true", help="skip phevaluator's C loop")
    args = parser.parse_args()

    print(describe())
    cold, warm = _table_times()
    print(f"evaluator tables: {cold:.2f} s to build (cold cache), {warm:.3f} s to load (warm)")
    rng = random.Random(SEED)
    deck = range(52)
    fives = [rng.sample(deck, 5) for _ in range(args.hands)]
    sevens = [rng.sample(deck, 7) for _ in range(args.hands)]
    print(f"hands: {args.hands:,} seeded random 5-card and 7-card hands (random.Random({SEED}))")
    print()
    contenders = [*_casino(), *_phevaluator(), *_others()]
    all_rates = _all_rates(contenders, fives, sevens, args.repeats)
    print(f"| {'evaluator':<72} | {'5-card evals/s':>14} | {'7-card evals/s':>14} | {'5 ×':>7} "
          f"| {'7 ×':>7} |")  # fmt: skip
    print(f"|{'-' * 74}|{'-' * 15}:|{'-' * 15}:|{'-' * 8}:|{'-' * 8}:|")
    base = all_rates[0]  # casino's evaluate5/evaluate7
    for contender, rates in zip(contenders, all_rates, strict=True):
        print(_row(contender.name, rates, base))
    if not args.no_native:
        native = _native(fives, sevens)
        if isinstance(native, NativeRates):
            name = "phevaluator C evaluators in a C loop (cc -O3, no Python per hand)"
            print(_row(name, (native.five, native.seven), base))
        else:
            print(f"phevaluator's C loop: not measured: {native}")
    print()
    print("evals/s: per CPU second of this process (the C loop's: of its own process)")
    print("×: evaluations per second as a multiple of casino's evaluate5 (5) and evaluate7 (7)")


if __name__ == "__main__":
    main()
