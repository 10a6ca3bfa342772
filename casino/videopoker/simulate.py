"""Simulation (``-s``): many hands played with the seed's strategy, only the tally kept (pure).

**The cards.** Each hand is dealt from a fresh, randomly ordered 52-card deck. The randomness
comes in bulk: a chunk's ``random.Random`` gives random bytes, and each byte below 208 is a
card (``byte % 52``; the others are dropped), so the stream is uniform, independent cards.
A hand takes five cards from the stream as its deal — a group with a repeated card is thrown
away whole and the next five taken — then, for each card it draws, the next stream card that
is not already in the hand. That is exactly a deal and a draw from a shuffled deck.

**Chunks.** A run is cut into chunks of :data:`CHUNK` hands, chunk ``k`` with its own
generator seeded from ``(seed, k)``. The result depends on the seed only, never on ``--jobs``
(chunks are shared among processes and added up in order).

**Credit.** The machine never lends: a run stops early when the credit no longer covers the
bet (the tally then counts the hands actually played).

**Engines.** :func:`play_with_strategy` asks :func:`~casino.videopoker.strategy.advise` and
:func:`~casino.videopoker.paytable.classify` for every hand; :func:`play_with_tables` looks
the same answers up in :mod:`~casino.videopoker.simtable` and is some thirty times faster. Both
read the stream identically and give identical tallies; long runs use the tables.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from casino.cards import FULL_DECK
from casino.cards.combos import BINOMIAL
from casino.pool import worker_pool
from casino.stopping import worker_task
from casino.videopoker.handtable import LINE_CODE, PAYLINES, payouts
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, PayTable, classify
from casino.videopoker.progress import Progress
from casino.videopoker.simtable import PRIME_OF, SUIT_BIT_OF, SimTables, load_tables
from casino.videopoker.stats import Statistics
from casino.videopoker.strategy import advise

CHUNK = 1 << 16
"""Hands per chunk (each chunk has its own random generator)."""

TABLES_FROM = 20_000
"""Runs of at least this many hands use the tables (small runs are not worth loading them)."""

_BLOCK = 1 << 16
_OVER = bytes(range(208, 256))
_MOD52 = bytes(byte % 52 for byte in range(256))
_B1, _B2, _B3, _B4, _B5 = (tuple(BINOMIAL[n][k] for n in range(53)) for k in range(1, 6))
_BIT = tuple(1 << index for index in range(52))


@dataclass(frozen=True, slots=True)
class Tally:
    """What a stretch of hands gave: hands per pay-line code, and the credit after them."""

    counts: tuple[int, ...]
    played: int
    credit: int


def chunk_rng(seed: int, index: int) -> random.Random:
    """The random generator of chunk ``index`` of a run seeded ``seed``."""
    return random.Random(f"casino.videopoker.simulate:{seed}:{index}")


def card_bytes(rng: random.Random) -> bytes:
    """The next block of the card stream: uniform card indices 0..51, one per byte."""
    return rng.randbytes(_BLOCK).translate(_MOD52, _OVER)


class _CardStream:
    """The card stream read one card at a time (the strategy engine's reader)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._cards = b""
        self._next = 0

    def __next__(self) -> int:
        if self._next == len(self._cards):
            self._cards, self._next = card_bytes(self._rng), 0
        card = self._cards[self._next]
        self._next += 1
        return card

    def __iter__(self) -> Iterator[int]:
        return self


def _deal(stream: _CardStream) -> list[int]:
    while True:
        group = [next(stream) for _ in range(5)]
        if len(set(group)) == 5:
            return group


def play_with_strategy(
    rng: random.Random, hands: int, credit: int, bet: int, returns: Sequence[int]
) -> Tally:
    """Play up to ``hands`` hands asking the strategy each time (the reference engine)."""
    counts = [0] * len(PAYLINES)
    stream = _CardStream(rng)
    played = 0
    while played < hands and credit >= bet:
        dealt = sorted(_deal(stream))
        held = [dealt[position] for position in advise([FULL_DECK[c] for c in dealt]).held]
        final = list(held)
        while len(final) < 5:
            card = next(stream)
            if card not in dealt and card not in final:
                final.append(card)
        code = LINE_CODE[classify([FULL_DECK[card] for card in final])]
        counts[code] += 1
        credit += returns[code] - bet
        played += 1
    return Tally(tuple(counts), played, credit)


def play_with_tables(
    rng: random.Random,
    hands: int,
    credit: int,
    bet: int,
    returns: Sequence[int],
    tables: SimTables,
) -> Tally:
    """Play up to ``hands`` hands looking the strategy up (the fast engine; same results)."""
    kinds, products, plain, flush = tables.kinds, tables.products, tables.plain, tables.flush
    b1, b2, b3, b4, b5, bit_of = _B1, _B2, _B3, _B4, _B5, _BIT
    prime_of, suit_of = PRIME_OF, SUIT_BIT_OF
    counts = [0] * len(PAYLINES)
    cards = card_bytes(rng)
    at = played = 0
    while played < hands and credit >= bet:
        start = at
        try:
            a, b, c, d, e = sorted(cards[at : at + 5])
            at += 5
            if not a < b < c < d < e:
                continue  # a repeated card: the next five are the deal
            number = b1[a] + b2[b] + b3[c] + b4[d] + b5[e]
            kind = kinds[number]
            product = products[number]
            suits = kind & 15
            draw = kind >> 4
            if draw:
                seen = bit_of[a] | bit_of[b] | bit_of[c] | bit_of[d] | bit_of[e]
                while draw:
                    card = cards[at]
                    at += 1
                    bit = bit_of[card]
                    if seen & bit:
                        continue
                    seen |= bit
                    product *= prime_of[card]
                    suits &= suit_of[card]
                    draw -= 1
        except (IndexError, ValueError):  # the stream ran dry: top it up, replay the hand
            cards, at = cards[start:] + card_bytes(rng), 0
            continue
        code = flush[product] if suits else plain[product]
        counts[code] += 1
        credit += returns[code] - bet
        played += 1
    return Tally(tuple(counts), played, credit)


def _play_chunk(
    seed: int, index: int, hands: int, credit: int, bet: int, returns: Sequence[int], fast: bool
) -> Tally:
    """Chunk ``index`` of a run seeded ``seed`` (also a worker process's task)."""
    rng = chunk_rng(seed, index)
    if fast:
        return play_with_tables(rng, hands, credit, bet, returns, load_tables())
    return play_with_strategy(rng, hands, credit, bet, returns)


def simulate(
    credit: int,
    bet: int,
    deals: int,
    *,
    seed: int,
    table: PayTable = DOUBLE_BONUS_10_7,
    jobs: int = 1,
    progress: Progress | None = None,
    building: Progress | None = None,
) -> Statistics:
    """Play ``deals`` hands at ``bet`` credits from ``credit`` with the seed's strategy.

    ``progress`` hears (hands played, hands wanted) after each chunk; ``building`` hears how
    the strategy tables' build goes, when a long run needs them and they are not cached.

    With ``jobs`` > 1 the chunks are played by that many processes, each from a credit that
    cannot run out; a chunk during which the real credit might run out is played again here
    from the real credit, so the result is the same for every ``jobs``.
    """
    returns = tuple(payouts(table, bet))
    sizes = [min(CHUNK, deals - start) for start in range(0, deals, CHUNK)]
    fast = deals >= TABLES_FROM
    if fast:
        load_tables(building)  # once, before any worker is forked
    stats = Statistics(credit)
    pool = worker_pool(jobs) if jobs > 1 and len(sizes) > 1 else None
    try:
        futures = [
            pool.submit(_chunk_in_worker, seed, index, size, bet * size, bet, returns, fast)
            for index, size in enumerate(sizes)
        ] if pool else []  # fmt: skip
        for index, size in enumerate(sizes):
            if futures and credit >= bet * size:
                alone = futures[index].result()
                tally = Tally(alone.counts, alone.played, credit + alone.credit - bet * size)
            else:
                tally = _play_chunk(seed, index, size, credit, bet, returns, fast)
            counts = {line: tally.counts[code] for code, line in enumerate(PAYLINES)}
            wagered = bet * tally.played
            stats.add_counts(counts, wagered, tally.credit - credit + wagered)
            credit = tally.credit
            if progress is not None:
                progress(stats.deals, deals)
            if tally.played < size:
                break
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return stats


def _chunk_in_worker(
    seed: int, index: int, hands: int, credit: int, bet: int, returns: Sequence[int], fast: bool
) -> Tally:
    """:func:`_play_chunk` in a pool worker: a stop ends it early."""
    with worker_task():
        return _play_chunk(seed, index, hands, credit, bet, returns, fast)
