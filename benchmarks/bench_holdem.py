"""Hold'em: engine speed against pokerkit, equity estimator speed and error, bots' winnings.

    python benchmarks/bench_holdem.py [--hands 2000] [--bot-hands 5000] [--spots 100] [--rounds 3]

1. *Engine*: the same seeded random-action hands (2-9 seats, random all-ins), replayed
   through our :class:`~casino.holdem.engine.Hand` and through pokerkit's ``State`` (cards,
   actions and showdown; final stacks compared), hands per second for each; ``--rounds``
   times, ours then pokerkit in each round, with the medians and ranges.
2. *Equity*: two-player showdowns per second of :func:`~casino.holdem.equity.equity` on one
   core, preflop, flop, turn and river; and its error against exact enumeration on ``--spots``
   random turn and river spots (1,000 deals each). Then what one decision's equity costs:
   :func:`~casino.holdem.equity.exact_ranged_equity` heads-up on the turn and river, without a
   range and with the bots' floor (8), and against two opponents on the river (the spots
   :func:`~casino.holdem.equity.is_cheap` leaves to Monte Carlo), beside Monte Carlo's 300 deals.
3. *Bots*: each style heads-up against always-call and against a random player over
   ``--bot-hands`` seeded hands (100 big blinds each, button alternating), in big blinds won
   per 100 hands.

Rates are per second of this process's CPU time (:func:`time.process_time`), so they mean
"per core" even on a machine other jobs share. Needs pokerkit (the ``test`` extra).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from machine import describe

from casino.cards.evaluator import load_tables
from casino.holdem.bots import STYLES, player_of
from casino.holdem.engine import Hand
from casino.holdem.equity import equity, exact_equity, exact_ranged_equity

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the tests' oracle
from holdem.oracle import pokerkit_stacks, random_action, random_stacks


def _deals(count: int, seed: int) -> list[tuple[list[int], int, list[int], float]]:
    """Seeded hands: stacks, button, deck, and the seed of their action sequence."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        seats = rng.randint(2, 9)
        deck = list(range(52))
        rng.shuffle(deck)
        deals.append((random_stacks(rng, seats, 10), rng.randrange(seats), deck, rng.random()))
    return deals


def engine(count: int, rounds: int) -> None:
    """Our engine and pokerkit on the same hands and actions, ``rounds`` times in turn."""
    times = [_engine_round(count) for _ in range(rounds)]
    ours, theirs = [t[0] for t in times], [t[1] for t in times]
    ratios = [b / a for a, b, _ in times]
    agree = min(t[2] for t in times)
    print(f"engine: {count} random-action hands, 2-9 seats; pokerkit agrees on {agree}")
    print(f"  {rounds} rounds, ours then pokerkit in each; medians (lowest–highest):")
    print(f"  ours      {_spread([count / t for t in ours], ',.0f')} hands/s")
    pokerkit = _spread([count / t for t in theirs], ",.0f")
    print(f"  pokerkit  {pokerkit} hands/s (deal, actions, showdown)")
    print(f"  ratio     {_spread(ratios, '.1f')}x")


def _spread(values: list[float], form: str) -> str:
    """The median of ``values`` and their range, each in ``form``."""
    low, high = min(values), max(values)
    return f"{statistics.median(values):{form}} ({low:{form}}–{high:{form}})"


def _engine_round(count: int) -> tuple[float, float, int]:
    """CPU seconds of our engine and of pokerkit on the same hands, and the hands they agree on."""
    played = []
    start = time.process_time()
    for stacks, button, deck, action_seed in _deals(count, 1):
        hand = Hand.deal(stacks, button, (5, 10), deck)
        rng = random.Random(action_seed)
        while not hand.over:
            random_action(hand, rng)
        played.append(hand)
    ours = time.process_time() - start
    start = time.process_time()
    agree = sum(pokerkit_stacks(hand) == hand.stacks for hand in played)
    return ours, time.process_time() - start, agree


def equity_speed(samples: int) -> None:
    """Two-player showdowns per second, by street."""
    rng = random.Random(2)
    print(f"equity: two-player showdowns per second (one core, {samples:,} deals per street)")
    for street, shown in (("preflop", 0), ("flop", 3), ("turn", 4), ("river", 5)):
        cards = rng.sample(range(52), 2 + shown)
        start = time.process_time()
        equity(cards[:2], cards[2:], 1, samples, rng)
        print(f"  {street:8} {samples / (time.process_time() - start):10,.0f} /s")


def equity_error(spots: int) -> None:
    """Monte Carlo (1,000 deals) against exact enumeration on turn and river spots."""
    rng = random.Random(3)
    for street, shown in (("turn", 4), ("river", 5)):
        errors = []
        for _ in range(spots):
            cards = rng.sample(range(52), 2 + shown)
            exact = exact_equity(cards[:2], cards[2:])
            errors.append(abs(equity(cards[:2], cards[2:], 1, 1000, rng) - exact))
        print(
            f"  {street} error over {spots} spots: mean {statistics.mean(errors):.4f}, "
            f"max {max(errors):.4f} (1,000 deals; sampling sd at most 0.016)"
        )


def decision_cost(spots: int) -> None:
    """CPU milliseconds of one decision's equity, exact and by Monte Carlo, on random spots."""
    rng = random.Random(5)
    print(f"equity per decision: CPU ms, mean (max) over {spots} random spots")
    cases = (
        ("turn, heads-up", 4, 1, ()),
        ("turn, heads-up, floor 8", 4, 1, (8.0,)),
        ("river, heads-up", 5, 1, ()),
        ("river, heads-up, floor 8", 5, 1, (8.0,)),
        ("river, two opponents", 5, 2, ()),
    )
    for label, shown, opponents, floors in cases:
        exact, sampled = [], []
        for _ in range(spots if opponents == 1 else max(1, spots // 10)):
            cards = rng.sample(range(52), 2 + shown)
            start = time.process_time()
            exact_ranged_equity(cards[:2], cards[2:], opponents, floors)
            exact.append(1000 * (time.process_time() - start))
            start = time.process_time()
            equity(cards[:2], cards[2:], opponents, 300, rng, floors)
            sampled.append(1000 * (time.process_time() - start))
        print(
            f"  {label:26} exact {statistics.mean(exact):7.2f} ({max(exact):7.2f})   "
            f"Monte Carlo 300 {statistics.mean(sampled):5.2f} ({max(sampled):5.2f})"
        )


def bots(count: int) -> None:
    """Each style against the baselines, big blinds per 100 hands."""
    print(f"bots: heads-up, {count} seeded hands each, 1000 chips, blinds 5/10")
    for style in STYLES:
        results = []
        for baseline in ("caller", "random"):
            results.append(f"vs {baseline}: {_match(style, baseline, count):+8.1f} bb/100")
        print(f"  {style:8} " + "   ".join(results))


def _match(style: str, baseline: str, count: int) -> float:
    ours, theirs = player_of(style, 200), player_of(baseline)
    rng = random.Random(4)
    won = 0
    for number in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = Hand.deal([1000, 1000], number % 2, (5, 10), deck)
        while not hand.over:
            (ours if hand.to_act == 0 else theirs)(hand, rng)
        won += hand.stacks[0] - 1000
    return won / 10 / count * 100


def main() -> None:
    """Run the three parts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=200_000)
    parser.add_argument("--spots", type=int, default=100)
    parser.add_argument("--bot-hands", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3, help="engine rounds, each in turn")
    options = parser.parse_args()
    print(describe())
    load_tables()
    engine(options.hands, options.rounds)
    equity_speed(options.samples)
    equity_error(options.spots)
    decision_cost(options.spots)
    bots(options.bot_hands)


if __name__ == "__main__":
    main()
