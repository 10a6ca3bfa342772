"""The seed strategy's play for every deal, as tables the fast simulation looks up.

For each of the 2,598,960 deals (indexed by :func:`~casino.cards.combos.hand_number`):

- ``kinds[h]``: ``draw << 4 | suits`` — how many cards the strategy draws, and the suits a
  flush could still come in (bit ``s`` for suit ``s``: all four when nothing is held, the
  held cards' suit when they are suited, none when they are not);
- ``products[h]``: the product of the held cards' rank primes (2, 3, 5, … 41 for 2 … A).

A final hand's pay line is then one dictionary lookup on the product of its five rank primes
(:func:`final_lines`), in the flush dictionary when its suits agree. Every entry comes from
:func:`~casino.videopoker.strategy.advise` and :func:`~casino.videopoker.paytable.classify`:
the strategy runs once per suit-isomorphism class (134,459 of them,
:func:`~casino.cards.suitclasses.suit_classes`) and its hold is carried to the class's other
deals by permuting suits. The strategy's hold per class (:func:`class_holds`) is cached on
its own too, for the exact analysis of the seed strategy plays the same classes
(``casino videopoker analyze --strategy seed``): whichever of the two runs first works the holds
out, the other reads them. The tables are kept in the on-disk cache; their version follows the
source of the strategy, so an edited strategy is never read stale.
"""

from __future__ import annotations

import hashlib
import itertools
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from math import prod

from casino import cache
from casino.cards import FULL_DECK, Card, Rank, Suit
from casino.cards.combos import BINOMIAL, N_HANDS
from casino.cards.suitclasses import CLASS_COUNTS, suit_classes
from casino.videopoker import paytable, strategy
from casino.videopoker.handtable import LINE_CODE
from casino.videopoker.paytable import classify
from casino.videopoker.progress import Progress

RANK_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
"""A prime per rank, deuce first: a hand's rank multiset is the product of its primes."""

ALL_SUITS = 0b1111

_U32 = next(code for code in "IL" if array(code).itemsize == 4)

PRIME_OF = tuple(RANK_PRIMES[index >> 2] for index in range(52))
"""The rank prime of each card index (``Card.index`` is rank-major, four suits a rank)."""

SUIT_BIT_OF = tuple(1 << (index & 3) for index in range(52))
"""The suit bit of each card index."""


@dataclass(frozen=True)
class SimTables:
    """The strategy's play per deal, and the pay line per final product."""

    kinds: bytes
    products: array[int]
    plain: dict[int, int]
    flush: dict[int, int]


def held_kind(hand: Sequence[int], held: tuple[int, ...]) -> tuple[int, int]:
    """``(draw << 4 | suits, product)`` for holding positions ``held`` of card indices."""
    cards = [hand[position] for position in held]
    suits = ALL_SUITS
    for card in cards:
        suits &= SUIT_BIT_OF[card]
    return (5 - len(cards)) << 4 | suits, prod(PRIME_OF[card] for card in cards)


def final_lines() -> tuple[dict[int, int], dict[int, int]]:
    """Pay-line codes by rank-prime product: for hands of mixed suits, and for flushes."""
    ranks = tuple(Rank)
    suits = tuple(Suit)
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    for combo in itertools.combinations_with_replacement(range(13), 5):
        if max(combo.count(rank) for rank in combo) > 4:
            continue
        key = prod(RANK_PRIMES[rank] for rank in combo)
        mixed = [Card(ranks[rank], suits[i % 4]) for i, rank in enumerate(combo)]
        plain[key] = LINE_CODE[classify(mixed)]
        if len(set(combo)) == 5:
            flush[key] = LINE_CODE[classify([Card(ranks[rank], suits[0]) for rank in combo])]
    return plain, flush


_SuitMap = tuple[tuple[int, ...], tuple[int, ...]]
"""A renaming of the suits, as its card-index map and its suit-bit-set map."""


def _suit_maps() -> dict[tuple[bool, ...], list[_SuitMap]]:
    """The renamings that carry a class's representative to each of its deals once, by which
    neighbours among its four canonical suit masks are equal: those keeping suits of equal
    masks in order (renaming such suits among themselves gives the same deal again)."""
    maps: dict[tuple[bool, ...], list[_SuitMap]] = {}
    for ties in itertools.product((False, True), repeat=3):
        maps[ties] = []
        for perm in itertools.permutations(range(4)):
            if any(tie and perm[suit] > perm[suit + 1] for suit, tie in enumerate(ties)):
                continue
            cards = tuple((index & ~3) | perm[index & 3] for index in range(52))
            bits = tuple(
                sum(1 << perm[suit] for suit in range(4) if mask >> suit & 1) for mask in range(16)
            )
            maps[ties].append((cards, bits))
    return maps


_STEP = 1 << 11  # classes between two progress reports


def class_holds(progress: Progress | None = None) -> bytes:
    """The seed strategy's hold for each suit class's representative, in the order of
    :func:`suit_classes` (5): a byte per class, bit ``p`` set when the card at position ``p``
    is held. From the cache, or worked out (a few seconds; ``progress`` hears (classes done,
    classes)) and cached."""
    return cache.load_or_build("videopoker-seed-class-holds", _version(), lambda: _holds(progress))


def _holds(progress: Progress | None = None) -> bytes:
    """:func:`class_holds` worked out: :func:`strategy.advise` once per class."""
    if progress is not None:
        progress(0, CLASS_COUNTS[5])
    holds = bytearray(CLASS_COUNTS[5])
    for done, suit_class in enumerate(suit_classes(5)):
        if progress is not None and done and done % _STEP == 0:
            progress(done, CLASS_COUNTS[5])
        advice = strategy.advise([FULL_DECK[card] for card in suit_class.cards])
        holds[done] = sum(1 << position for position in advice.held)
    if progress is not None:
        progress(CLASS_COUNTS[5], CLASS_COUNTS[5])
    return bytes(holds)


_HELD = tuple(tuple(p for p in range(5) if mask >> p & 1) for mask in range(32))
"""The positions held, by mask of :func:`class_holds`."""


def _build(progress: Progress | None = None) -> bytes:
    """The strategy's play for each class's representative (:func:`class_holds`; ``progress``
    hears how working them out goes, if they are not cached), carried to every deal of the
    class (the representative with its suits renamed)."""
    holds = class_holds(progress)
    kinds = bytearray(N_HANDS)
    products = array(_U32, bytes(4 * N_HANDS))
    b1, b2, b3, b4, b5 = (tuple(BINOMIAL[n][k] for n in range(53)) for k in range(1, 6))
    maps = _suit_maps()
    for suit_class, mask in zip(suit_classes(5), holds, strict=True):
        hand, (w, x, y, z) = suit_class.cards, suit_class.masks
        kind, product = held_kind(hand, _HELD[mask])
        draw, suits = kind & 0xF0, kind & ALL_SUITS
        for cards, bits in maps[w == x, x == y, y == z]:
            a, b, c, d, e = sorted([cards[hand[0]], cards[hand[1]], cards[hand[2]],
                                    cards[hand[3]], cards[hand[4]]])  # fmt: skip
            image = b1[a] + b2[b] + b3[c] + b4[d] + b5[e]
            kinds[image] = draw | bits[suits]
            products[image] = product
    if sys.byteorder != "little":
        products.byteswap()
    return bytes(kinds) + products.tobytes()


def _version() -> str:
    """A version that changes whenever the code behind the tables changes."""
    digest = hashlib.sha256()
    package = resources.files("casino.videopoker")  # a zipapp's too: no file paths
    for module in (strategy, paytable, sys.modules[__name__]):
        name = module.__name__.rpartition(".")[2]
        digest.update(package.joinpath(f"{name}.py").read_bytes())
    return "1-" + digest.hexdigest()[:16]


_loaded: list[SimTables] = []  # this process's tables, once loaded (a fork inherits them)


def load_tables(progress: Progress | None = None) -> SimTables:
    """The tables, from the cache or built (a few seconds) and cached; once per process.

    ``progress`` hears how the build goes (nothing when the tables are in the cache).
    """
    if not _loaded:
        _loaded.append(_load(progress))
    return _loaded[0]


def _load(progress: Progress | None) -> SimTables:
    payload = cache.load_or_build("videopoker-seed-holds", _version(), lambda: _build(progress))
    kinds = payload[:N_HANDS]
    products = array(_U32)
    products.frombytes(payload[N_HANDS:])
    if sys.byteorder != "little":
        products.byteswap()
    plain, flush = final_lines()
    return SimTables(kinds, products, plain, flush)
