"""The exact video poker analyzer: expected value of every hold, and the return of a game.

All figures are exact integers or :class:`~fractions.Fraction` s; nothing is sampled.

**One hand.** Holding the cards ``S`` of a dealt hand ``D`` and drawing ``5 - |S|`` of the 47
unseen cards gives the five-card hands ``h ⊇ S`` that contain no card of ``D \\ S``. With
``N(T)`` the count of all hands containing ``T`` (:mod:`casino.videopoker.holdcounts`),
inclusion–exclusion gives the draws of ``S`` as the sum, over ``S ⊆ T ⊆ D``, of
``(-1)**|T - S| * N(T)``; one pass over the five positions does this for all 32 holds at
once (a Möbius transform). :func:`hold_values` lists the 32 holds with their exact expected
return; :func:`best_hold` is the first of them.

**Ties.** Holds of equal expected value are ordered by *more cards held first*, then by
their positions in dictionary order (``(0, 1)`` before ``(0, 2)`` before ``(1, 2)``). So a
pat four of a kind is held whole, and the order only depends on the hand as given.

**The whole game.** :func:`analyze` plays every deal: the 2,598,960 deals fall into 134,459
classes under renaming of the suits (:mod:`casino.cards.suitclasses`), and every deal of a
class has the same holds and outcome counts, so each class is solved once and weighted by
its size. Each deal's outcomes are counted out of ``DRAW_SPACE`` = 5·C(47,5), the least common
multiple of the draw counts C(47, 5 - k): the *usual weighting* of published tables, with
C(52,5) · DRAW_SPACE = 19,933,230,517,200 outcomes in all. The per-class work runs as
straight-line code written out once at import (see :func:`_kernel_source`), and is split
over processes when ``jobs > 1``.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from casino.cards import Card, format_cards
from casino.cards.combos import BINOMIAL, N_HANDS
from casino.cards.suitclasses import SuitClass, suit_classes
from casino.errors import ParseError
from casino.pool import worker_pool
from casino.stopping import worker_task
from casino.videopoker.handtable import PAYLINES, payouts
from casino.videopoker.holdcounts import LINE_VECTORS, subset_counts, unpack
from casino.videopoker.paytable import PayLine, PayTable
from casino.videopoker.progress import Progress

HoldChooser = Callable[[Sequence[Card]], Sequence[int]]
"""A strategy: the 0-based positions to hold in a dealt hand."""

UNSEEN = 47
"""Cards left to draw from after the deal."""

DRAW_SPACE = math.lcm(*(math.comb(UNSEEN, k) for k in range(6)))
"""The outcomes per deal in the usual weighting: 7,669,695 = 5·C(47,5)."""

TOTAL_OUTCOMES = N_HANDS * DRAW_SPACE
"""Outcomes over all deals: 19,933,230,517,200."""

_HOLDS: tuple[tuple[int, ...], ...] = tuple(
    sorted(
        (held for size in range(6) for held in itertools.combinations(range(5), size)),
        key=lambda held: (-len(held), held),
    )
)  # every hold, in tie-break order
_MASK: dict[tuple[int, ...], int] = {held: sum(1 << p for p in held) for held in _HOLDS}
_PREFERENCE = {_MASK[held]: len(_HOLDS) - 1 - rank for rank, held in enumerate(_HOLDS)}
_SCALE = [DRAW_SPACE // math.comb(UNSEEN, 5 - size) for size in range(6)]


@dataclass(frozen=True, slots=True)
class HoldValue:
    """One way to play a hand: the positions held, those cards, and the exact expected return
    (credits back, stake included, at the bet it was computed for)."""

    positions: tuple[int, ...]
    cards: tuple[Card, ...]
    ev: Fraction


def _indices(hand: Sequence[Card]) -> list[int]:
    indices = [card.index for card in hand]
    if len(indices) != 5 or len(set(indices)) != 5:
        raise ParseError(f"a video poker hand is 5 distinct cards, not {len(indices)}")
    return indices


def draw_vectors(indices: Sequence[int]) -> list[int]:
    """The packed pay-line counts of the draws of every hold, indexed by hold mask.

    Bit ``p`` of the mask holds position ``p`` of ``indices``; the counts of hold ``m`` sum
    to C(47, 5 - popcount(m)).
    """
    counts = subset_counts()
    vectors = [counts.vector([indices[p] for p in range(5) if mask >> p & 1]) for mask in range(32)]
    for bit in range(5):
        for mask in range(32):
            if not mask >> bit & 1:
                vectors[mask] -= vectors[mask | 1 << bit]
    return vectors


def hold_values(hand: Sequence[Card], table: PayTable, bet: int) -> list[HoldValue]:
    """All 32 holds of a five-card ``hand`` with their exact expected return, best first.

    Ties are ordered as the module docstring says.
    """
    indices = _indices(hand)
    pays = payouts(table, bet)
    vectors = draw_vectors(indices)
    values = []
    for held in _HOLDS:
        returned = sum(map(int.__mul__, pays, unpack(vectors[_MASK[held]])))
        ev = Fraction(returned, math.comb(UNSEEN, 5 - len(held)))
        values.append(HoldValue(held, tuple(hand[p] for p in held), ev))
    values.sort(key=lambda value: value.ev, reverse=True)  # stable: ties keep _HOLDS order
    return values


def best_hold(hand: Sequence[Card], table: PayTable, bet: int) -> tuple[int, ...]:
    """The 0-based positions to hold for the highest expected return (ties as documented)."""
    return hold_values(hand, table, bet)[0].positions


# --- the whole game -------------------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    """The outcome of every deal under one strategy: final-hand counts, usual weighting."""

    table: PayTable
    bet: int
    strategy: str
    counts: Mapping[PayLine, int]
    lines: tuple[PayLine, ...] = field(default=PAYLINES)

    @property
    def total(self) -> int:
        """All outcomes: :data:`TOTAL_OUTCOMES`."""
        return sum(self.counts.values())

    def returned(self, line: PayLine) -> int:
        """Credits returned on ``line`` over all outcomes."""
        return self.counts[line] * self.table.payout(line, self.bet)

    @property
    def return_rate(self) -> Fraction:
        """Credits returned per credit bet: the game's return."""
        returned = sum(self.returned(line) for line in self.lines)
        return Fraction(returned, self.total * self.bet)


def _kernel_source() -> str:
    """Python source of the per-class functions, written out for all 32 holds.

    ``numbers(c0, …, c4)`` (cards ascending) gives, for each hold mask ``m``, the number of
    the set of held cards among the sets of its size: the number of ``m`` without its top
    card ``c``, plus C(c, |m|). ``choose`` also looks up the payout sums ``Q`` of every
    subset, turns them into the payout sums of every hold's draws (the Möbius transform of
    :func:`draw_vectors`, on numbers), and returns the best mask: the largest
    ``payout sum * scale * 32 + preference``, where ``scale`` brings each hold's draws to
    :data:`DRAW_SPACE` and ``preference`` is the tie-break rank.
    """
    head = ["    n0 = 0"]
    for mask in range(1, 32):
        top = mask.bit_length() - 1
        rest = mask ^ 1 << top
        head.append(f"    n{mask} = {f'n{rest} + ' if rest else ''}B{mask.bit_count()}[c{top}]")
    numbers = "(" + ", ".join(f"n{mask}" for mask in range(32)) + ")"
    body = [f"    q{mask} = Q{mask.bit_count()}[n{mask}]" for mask in range(31)]
    body.append("    q31 = PAYS[PL[n31]]")
    for bit in range(5):
        body += [f"    q{m} -= q{m | 1 << bit}" for m in range(32) if not m >> bit & 1]
    keys = ", ".join(f"q{m} * {_SCALE[m.bit_count()] * 32} + {_PREFERENCE[m]}" for m in range(32))
    body.append(f"    return PREFERRED[max({keys}) & 31], {numbers}")
    numbers_function = ["def numbers(c0, c1, c2, c3, c4):", *head, f"    return {numbers}"]
    return "\n".join([*numbers_function, "def choose(c0, c1, c2, c3, c4):", *head, *body])


_KERNEL = compile(_kernel_source(), "<casino.videopoker.analyzer kernel>", "exec")


def _draw_source(mask: int) -> str:
    """Python source of the draw vector of hold ``mask``, from the subset numbers ``n``."""
    terms = []
    for superset in range(32):
        if superset & mask == mask:
            sign = "-" if (superset ^ mask).bit_count() % 2 else "+"
            if superset == 31:
                terms.append(f"{sign} LINES[PL[n[31]]]")
            else:
                terms.append(f"{sign} V{superset.bit_count()}[n[{superset}]]")
    return f"lambda n: 0 {' '.join(terms)}"


@dataclass
class _Job:
    """What a worker needs: the classes, its functions, and what to call for a hold."""

    classes: Sequence[SuitClass]
    numbers: Callable[..., tuple[int, ...]]
    choose: Callable[..., tuple[int, tuple[int, ...]]]
    draws: list[Callable[[tuple[int, ...]], int]]
    chooser: HoldChooser | None
    holds: bytes | None


def _make_job(
    table: PayTable, bet: int, chooser: HoldChooser | None, holds: bytes | None = None
) -> _Job:
    classes = suit_classes(5)
    if holds is not None and len(holds) != len(classes):
        raise ValueError(f"{len(holds)} holds given for the {len(classes)} classes")
    counts = subset_counts()
    pays = payouts(table, bet)
    scalars = counts.scalar_tables(pays)
    namespace: dict[str, Any] = {
        "PAYS": pays,
        "PL": counts.paylines,
        "LINES": LINE_VECTORS,
        "PREFERRED": {_PREFERENCE[mask]: mask for mask in range(32)},
    }
    for size in range(1, 6):
        namespace[f"B{size}"] = [row[size] for row in BINOMIAL[:52]]
    for size in range(5):
        namespace[f"Q{size}"] = scalars[size]
        namespace[f"V{size}"] = counts.by_size[size]
    exec(_KERNEL, namespace)
    draws = [eval(_draw_source(mask), namespace) for mask in range(32)]
    return _Job(classes, namespace["numbers"], namespace["choose"], draws, chooser, holds)


_job: _Job | None = None  # set before workers fork, so they inherit it


def _solve(part: int, parts: int) -> list[dict[int, int]]:
    """Every ``parts``-th class from ``part``: weight per draw vector, by hold size."""
    job = _job
    assert job is not None
    totals: list[dict[int, int]] = [{} for _ in range(6)]
    draws, choose, numbers, chooser = job.draws, job.choose, job.numbers, job.chooser
    masks = itertools.islice(job.holds, part, None, parts) if job.holds is not None else None
    for suit_class in itertools.islice(job.classes, part, None, parts):
        cards = suit_class.cards
        if masks is not None:
            mask, subsets = next(masks), numbers(*cards)
        elif chooser is None:
            mask, subsets = choose(*cards)
        else:
            hand = [Card.from_index(card) for card in cards]
            held = tuple(sorted(set(chooser(hand))))
            if held not in _MASK:
                raise ValueError(f"a strategy held positions {held} of {format_cards(hand)}")
            mask, subsets = _MASK[held], numbers(*cards)
        by_vector = totals[mask.bit_count()]
        vector = draws[mask](subsets)
        by_vector[vector] = by_vector.get(vector, 0) + suit_class.weight
    return totals


PARTS_PER_JOB = 12
"""Each process solves this many interleaved parts of the classes, reporting after each."""


def analyze(
    table: PayTable,
    bet: int = 5,
    *,
    chooser: HoldChooser | None = None,
    strategy: str = "optimal",
    holds: bytes | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> Analysis:
    """Play every deal under ``chooser`` (default: :func:`best_hold`) and count the outcomes.

    ``chooser`` gets each class's representative hand (cards ascending) and must treat hands
    that differ only by suit names alike, as any poker strategy does. ``jobs`` > 1 splits
    the classes over that many forked processes (where the platform can fork). ``holds``, if
    given, are the strategy's holds worked out beforehand, a position mask per class in the
    order of :func:`suit_classes` (as :func:`casino.videopoker.simtable.class_holds` keeps the
    seed strategy's): they are played instead of asking ``chooser``. ``progress``
    hears (parts solved, parts): first (0, parts), before the tables are prepared.
    """
    global _job
    parts = PARTS_PER_JOB * jobs
    report = progress or (lambda done, total: None)
    report(0, parts)
    _job = _make_job(table, bet, chooser, holds)
    try:
        if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
            with worker_pool(jobs) as pool:
                futures = [pool.submit(_solve_in_worker, part, parts) for part in range(parts)]
                solved = (future.result() for future in as_completed(futures))
                results = _gather(solved, parts, report)
        else:
            results = _gather((_solve(part, parts) for part in range(parts)), parts, report)
    finally:
        _job = None
    counts = [0] * len(PAYLINES)
    for totals in results:
        for size, by_vector in enumerate(totals):
            for vector, weight in by_vector.items():
                scale = weight * _SCALE[size]
                for code, count in enumerate(unpack(vector)):
                    counts[code] += scale * count
    return Analysis(table, bet, strategy, dict(zip(PAYLINES, counts, strict=True)))


def _solve_in_worker(part: int, parts: int) -> list[dict[int, int]]:
    """:func:`_solve` in a pool worker (forked after ``_job`` was set): a stop ends it early."""
    with worker_task():
        return _solve(part, parts)


def _gather(
    solved: Iterable[list[dict[int, int]]], parts: int, report: Progress
) -> list[list[dict[int, int]]]:
    """The solved parts in the order they come, reporting each (the sums do not care)."""
    results = []
    for totals in solved:
        results.append(totals)
        report(len(results), parts)
    return results
