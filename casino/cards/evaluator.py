"""The one poker hand evaluator: table-driven, on card indices 0..51.

Every game that ranks hands ends here: :func:`casino.cards.rank_hand` wraps :func:`evaluate`,
and video poker's pay-line table is built from :func:`five_card_strengths`. The functions
return the same integer as :attr:`HandValue.strength <casino.cards.HandValue.strength>`: a
higher number is a better hand, equal numbers split the pot.

How it works. Each card ``i`` (rank ``i // 4``, suit ``i % 4``, as :attr:`Card.index`) has a
key ``5**rank << 16 | 1 << 4*suit``. The sum of a hand's keys holds

- above bit 16, the hand's rank multiset written in base 5 (at most four cards of a rank, so
  the digits never carry): without a flush the hand's value depends on nothing else;
- below bit 16, four 4-bit suit counters that start at 3, so a counter's top bit is set
  exactly when its suit has five or more cards: a flush.

A 5-card hand needs a single dict look-up, keyed by the sum with the counters' low bits
cleared; 5 to 7 cards (:func:`evaluate`) one look-up of the rank code in a dict.

:func:`evaluate7` has keys of its own, laid out for lists rather than a dict (a look-up in a
dict of 72,775 codes touches three places in memory, a list one): the base-5 code of the low
ranks (deuce to eight, below bit 17), the same suit counters (bits 17 to 32), then the
base-5 code of the high ranks (nine to ace, from bit 33). Without a flush the two codes index
two lists whose entries add up to the hand's place in a list of the 49,205 strengths of
seven-card rank multisets: a perfect hash with no gap and no sort (:func:`_seven_tables`). So
a 7-card hand is seven list look-ups, six additions, a mask, a shift and three list
look-ups; the rare flush (3% of 7-card hands), whose flush bit the mask keeps, falls out of
the low list and takes a second path through a 8,192-entry table indexed by the flush suit's
rank bits. The three lists (78,125, 15,625 and 49,205
entries: 1.4 MB with their numbers, beside the rank dict's 6.8 MB) are derived from the rank
table when it loads (25 ms of CPU); they are not in the cache file.

The tables are made by one ranking algorithm, :func:`best_strength`, applied once to every
rank multiset and every suited rank set (about half a second), and kept in the on-disk cache
(:mod:`casino.cache`). Nothing happens at import: the first evaluation loads or builds them
(:func:`load_tables`), so importing :mod:`casino.cards` neither waits nor touches the disk; and
the first evaluation of five cards loads only what five cards need (the rank codes of six and
seven cards, three quarters of the loading, wait for a hand of six or seven).
"""

from __future__ import annotations

import array
import itertools
import threading
from collections.abc import Sequence
from math import comb

from casino import cache
from casino.cards.card import Card
from casino.cards.combos import subset_sums
from casino.cards.ranking import Category, HandValue, pack_strength
from casino.errors import ParseError

N_CARDS = 52
"""Card indices run from 0 to ``N_CARDS - 1``."""

_RANK_SHIFT = 16
_SUIT_START = 0x3333  # every suit counter starts at 3
_FLUSH_BITS = 0x8888  # a counter's top bit: five or more cards of that suit
_KEEP_5 = ~0x7777  # a 5-card key with only the rank code and the flush bits left
_FLUSH_SUIT = {0x8 << (4 * suit): suit for suit in range(4)}

_KEYS: list[int] = [(5 ** (i >> 2) << _RANK_SHIFT) | (1 << (4 * (i & 3))) for i in range(N_CARDS)]
_FIRST_KEYS: list[int] = [key + _SUIT_START for key in _KEYS]
_RANK_BIT: list[int] = [1 << (i >> 2) for i in range(N_CARDS)]

_LOW_RANKS = 7  # ranks 0..6 (deuce to eight) make a 7-card key's low code, 7..12 its high code
_LOW_SIZE = 5**_LOW_RANKS  # low codes: base 5, below 2**17
_HIGH_SIZE = 5 ** (13 - _LOW_RANKS)
_SUITS_AT = 17  # where a 7-card key's suit counters start
_LOW_MASK = (1 << _SUITS_AT) - 1
_HIGH_AT = _SUITS_AT + 16
_FLUSH_BITS7 = _FLUSH_BITS << _SUITS_AT
_KEYS7: list[int] = [
    (5**rank if rank < _LOW_RANKS else 5 ** (rank - _LOW_RANKS) << _HIGH_AT)
    | 1 << (_SUITS_AT + 4 * (i & 3))
    for i, rank in ((i, i >> 2) for i in range(N_CARDS))
]
_FIRST_KEYS7: list[int] = [key + (_SUIT_START << _SUITS_AT) for key in _KEYS7]

_WHEEL = 1 << 14 | 0b1111 << 2  # A, 5, 4, 3, 2 as bits of rank numbers


def _straight_top(rank_bits: int) -> int:
    """The top rank number of the best straight in ``rank_bits`` (bit n = rank n), or 0."""
    runs = rank_bits & rank_bits >> 1 & rank_bits >> 2 & rank_bits >> 3 & rank_bits >> 4
    if runs:
        return runs.bit_length() + 3  # a run's lowest card is bit_length() - 1
    return 5 if rank_bits & _WHEEL == _WHEEL else 0


def best_strength(ranks: Sequence[int], suited: bool) -> int:
    """The strength of the best five-card hand among 5 to 7 cards: the ranking algorithm.

    ``ranks`` are the cards' rank numbers (2..14). ``suited`` says that they are all of one
    suit (distinct ranks): then the hand is a straight flush or a flush. Otherwise suits are
    taken not to matter, which holds for every hand without five cards of one suit.
    """
    distinct = sorted(set(ranks), reverse=True)
    top = _straight_top(sum(1 << rank for rank in distinct))
    if suited:
        if top:
            return pack_strength(Category.STRAIGHT_FLUSH, [top])
        return pack_strength(Category.FLUSH, distinct[:5])
    groups = sorted(((ranks.count(rank), rank) for rank in distinct), reverse=True)
    (first_count, first), *rest = groups
    second_count = rest[0][0] if rest else 0
    if first_count == 4:
        return pack_strength(Category.FOUR_OF_A_KIND, [first, max(r for _, r in rest)])
    if first_count == 3 and second_count >= 2:
        return pack_strength(Category.FULL_HOUSE, [first, rest[0][1]])
    if top:
        return pack_strength(Category.STRAIGHT, [top])
    if first_count == 3:
        return pack_strength(Category.THREE_OF_A_KIND, _kickers([first], distinct, 2))
    if first_count == 2 and second_count == 2:
        made = [first, rest[0][1]]
        return pack_strength(Category.TWO_PAIR, _kickers(made, distinct, 1))
    if first_count == 2:
        return pack_strength(Category.ONE_PAIR, _kickers([first], distinct, 3))
    return pack_strength(Category.HIGH_CARD, distinct[:5])


def _kickers(made: list[int], distinct: list[int], count: int) -> list[int]:
    """The ``made`` ranks, then the ``count`` best other ranks (``distinct`` is high to low)."""
    return made + [rank for rank in distinct if rank not in made][:count]


_MULTISET_SIZES = (5, 6, 7)
_VERSION = "1"


def _rank_code(ranks: Sequence[int]) -> int:
    """The base-5 code of a rank multiset (ranks 0 = deuce .. 12 = ace)."""
    return sum(5**rank for rank in ranks)


def _build_tables() -> bytes:
    """Every table the evaluator needs, as one array of 64-bit numbers.

    For each size 5, 6, 7: the count, then each rank multiset's code and strength (no
    flush); then the 8,192 flush strengths by rank bits (0 below five ranks).
    """
    numbers = array.array("q")
    for size in _MULTISET_SIZES:
        multisets = [
            ranks
            for ranks in itertools.combinations_with_replacement(range(13), size)
            if all(ranks[i] != ranks[i + 4] for i in range(size - 4))  # no five of a rank
        ]
        numbers.append(len(multisets))
        for ranks in multisets:
            numbers.append(_rank_code(ranks))
            numbers.append(best_strength([rank + 2 for rank in ranks], suited=False))
    for bits in range(1 << 13):
        suited = [rank + 2 for rank in range(13) if bits >> rank & 1]
        numbers.append(best_strength(suited, suited=True) if len(suited) >= 5 else 0)
    return numbers.tobytes()


_FIVE_RANK_CODES = 6175
"""Rank multisets of five cards (no rank five times): the rank table's entries for five cards;
it has more once the entries for six and seven cards are loaded."""


def _payload() -> array.array[int]:
    """The tables' numbers, from the on-disk cache or built."""
    numbers = array.array("q")
    numbers.frombytes(cache.load_or_build("evaluator", _VERSION, _build_tables))
    return numbers


def _sections(numbers: array.array[int]) -> tuple[dict[int, tuple[int, int]], int]:
    """Where each multiset size's (code, value) pairs lie, and where the flush values start."""
    spans: dict[int, tuple[int, int]] = {}
    at = 0
    for size in _MULTISET_SIZES:
        count = numbers[at]
        spans[size] = (at + 1, at + 1 + 2 * count)
        at += 1 + 2 * count
    return spans, at


def _pairs(numbers: array.array[int], span: tuple[int, int]) -> dict[int, int]:
    start, end = span
    pairs = numbers[start:end]
    return dict(zip(pairs[::2], pairs[1::2], strict=True))


def _five_tables(five_codes: dict[int, int], flush_values: list[int]) -> dict[int, int]:
    """The 5-card table: by rank code for five cards, by rank code and suit for flushes."""
    five_values = {code << _RANK_SHIFT: value for code, value in five_codes.items()}
    for ranks in itertools.combinations(range(13), 5):
        key = _rank_code(ranks) << _RANK_SHIFT
        value = flush_values[sum(1 << rank for rank in ranks)]
        for flush_bit in _FLUSH_SUIT:
            five_values[key | flush_bit] = value
    return five_values


_MISMATCH = 1 << 20
"""Added to a high code's index for each of its cards, taken from a low code's for each card
it lacks of seven: more than twice the 7-card table, so a sum of codes of a hand of more or
fewer than seven (repeated cards) falls outside it either way."""
_UNUSED = 1 << 40  # a low or high code no hand of seven has: an index outside the table


def _group_multisets(ranks: range) -> list[list[tuple[int, ...]]]:
    """The multisets of ``ranks`` (at most four of a rank) of each size 0 to 7, ordered."""
    return [
        [
            part
            for part in itertools.combinations_with_replacement(ranks, size)
            if all(part[i] != part[i + 4] for i in range(size - 4))  # no five of a rank
        ]
        for size in range(8)
    ]


def _seven_tables(rank_values: dict[int, int]) -> tuple[list[int], list[int], list[int]]:
    """The 7-card tables: by low code, by high code, and the strengths by their sum.

    A 7-card rank multiset is a low part (ranks below :data:`_LOW_RANKS`) of ``7 - j`` cards
    and a high part of ``j``; the strengths of each ``j`` fill one block of the table, low
    parts in rows, high parts in columns. So the low table holds each low part's row start
    and the high table each high part's column: their sum is a perfect, gapless index (the
    49,205 rank multisets of seven cards, no rank five times).
    """
    lows = _group_multisets(range(_LOW_RANKS))
    highs = _group_multisets(range(_LOW_RANKS, 13))
    low_index, high_index = [_UNUSED] * _LOW_SIZE, [_UNUSED] * _HIGH_SIZE
    values: list[int] = []
    canonical: dict[int, int] = {}  # one object per strength: fewer cache lines to touch
    for high_count in range(8):
        columns = highs[high_count]
        high_codes = [_rank_code(part) for part in columns]
        for column, code in enumerate(high_codes):
            high_index[code // _LOW_SIZE] = column + high_count * _MISMATCH
        for part in lows[7 - high_count]:
            low_code = _rank_code(part)
            low_index[low_code] = len(values) - high_count * _MISMATCH
            row = (rank_values[low_code + code] for code in high_codes)
            values += [canonical.setdefault(value, value) for value in row]
    return low_index, high_index, values


# Empty until first use, then filled in place (the evaluators hold no other reference).
_RANK_VALUES: dict[int, int] = {}
_FLUSH_VALUES: list[int] = []
_FIVE_VALUES: dict[int, int] = {}
_LOW7: list[int] = []
_HIGH7: list[int] = []
_VALUES7: list[int] = []
_LOADING = threading.Lock()


def _load_five() -> None:
    """Load the tables five cards need, if they are not loaded: the 5-card and flush tables
    and the rank table's entries for five cards. Those for six and seven cards (nine in ten
    of its entries, three quarters of the loading's CPU) wait until a hand of six or seven
    cards needs them: a draw or video poker program never loads them."""
    with _LOADING:
        if not _FIVE_VALUES:
            numbers = _payload()
            _fill_five(numbers, *_sections(numbers))


def _fill_five(numbers: array.array[int], spans: dict[int, tuple[int, int]], flush_at: int) -> None:
    five_codes = _pairs(numbers, spans[5])
    flush_values = numbers[flush_at:].tolist()
    _RANK_VALUES.update(five_codes)
    _FLUSH_VALUES.extend(flush_values)
    _FIVE_VALUES.update(_five_tables(five_codes, flush_values))  # last: five cards' are loaded


def load_tables() -> None:
    """Load (or build) the evaluator's tables if they are not loaded yet (those of five cards
    only if they are not loaded either).

    The evaluators call it themselves on first use; a program may call it earlier to choose
    when the (sub-second) wait happens.
    """
    with _LOADING:
        if len(_RANK_VALUES) > _FIVE_RANK_CODES:
            return
        numbers = _payload()
        spans, flush_at = _sections(numbers)
        if not _FIVE_VALUES:
            _fill_five(numbers, spans, flush_at)
        more: dict[int, int] = {}
        for size in _MULTISET_SIZES:
            if size != 5:
                more |= _pairs(numbers, spans[size])
        low_index, high_index, values = _seven_tables(more)
        _VALUES7.extend(values)
        _HIGH7.extend(high_index)
        _LOW7.extend(low_index)  # evaluate7 looks here first: an empty one sends it to load
        _RANK_VALUES.update(more)  # last: more than five cards' codes, all loaded


def evaluate5(cards: Sequence[int]) -> int:
    """The strength of five distinct cards (indices 0..51)."""
    a, b, c, d, e = cards
    keys = _KEYS
    key = (_FIRST_KEYS[a] + keys[b] + keys[c] + keys[d] + keys[e]) & _KEEP_5
    try:
        return _FIVE_VALUES[key]
    except KeyError:  # the first evaluation (the tables are still empty), or repeated cards
        _load_five()
        return _FIVE_VALUES[key]


def evaluate7(cards: Sequence[int]) -> int:
    """The strength of the best five of seven distinct cards (indices 0..51)."""
    a, b, c, d, e, f, g = cards
    keys = _KEYS7
    key = _FIRST_KEYS7[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f] + keys[g]
    # The numbers are _LOW_MASK | _FLUSH_BITS7 and _HIGH_AT (constants cost less than names).
    # Keeping the flush bits makes a flush's low index too large for the list: the test for
    # a flush costs nothing on the 97% of hands without one.
    try:
        return _VALUES7[_LOW7[key & 0x1_1111_FFFF] + _HIGH7[key >> 33]]
    except IndexError:  # a flush, the first evaluation (empty tables), or repeated cards
        if key & 0x1_1110_0000:  # _FLUSH_BITS7
            return _flush_strength(cards, key >> _SUITS_AT & _FLUSH_BITS)
        return evaluate(cards)


def evaluate(cards: Sequence[int]) -> int:
    """The strength of the best five of 5, 6 or 7 distinct cards (indices 0..51)."""
    key = _SUIT_START + sum(map(_KEYS.__getitem__, cards))
    if key & _FLUSH_BITS:
        return _flush_strength(cards, key & _FLUSH_BITS)
    try:
        return _RANK_VALUES[key >> _RANK_SHIFT]
    except KeyError:
        return _first_rank_value(key >> _RANK_SHIFT)


def best_five(cards: Sequence[int]) -> tuple[int, ...]:
    """The five of 5, 6 or 7 distinct ``cards`` (indices 0..51) that make their best hand
    (of fives that tie, the first in :func:`itertools.combinations` order)."""
    return max(itertools.combinations(cards, 5), key=evaluate5)


def rank_hand(cards: Sequence[Card]) -> HandValue:
    """The value of the best five-card hand among 5, 6 or 7 distinct ``cards``.

    The public face of :func:`evaluate`, for games holding :class:`Card` objects; code with
    card indices at hand may call :func:`evaluate5`/:func:`evaluate7` directly.
    """
    indices = [card.index for card in cards]
    if not 5 <= len(indices) <= 7 or len(set(indices)) != len(indices):
        raise ParseError(f"a poker hand is 5 to 7 distinct cards, not {len(cards)}")
    return HandValue(evaluate(indices))


def _first_rank_value(code: int) -> int:
    """The strength of a hand without a flush whose rank code was not found: the tables were
    still empty (load them: those of five cards first), or the cards were not distinct (a
    :class:`KeyError`)."""
    _load_five()
    if code not in _RANK_VALUES:  # six or seven cards (or repeated ones)
        load_tables()
    return _RANK_VALUES[code]


def _flush_strength(cards: Sequence[int], flush_bit: int) -> int:
    if not _FLUSH_VALUES:
        _load_five()
    suit = _FLUSH_SUIT[flush_bit]
    rank_bit = _RANK_BIT
    return _FLUSH_VALUES[sum(rank_bit[card] for card in cards if card & 3 == suit)]


def five_card_strengths() -> list[int]:
    """The strength of every five-card hand, indexed by its number (:mod:`casino.cards.combos`).

    The same numbers as :func:`evaluate5`, for all 2,598,960 hands at once (a quarter of a
    second): each hand's key is a four-card key, shared by a block of hands, plus its top card's.
    """
    _load_five()
    first, values = _FIRST_KEYS, _FIVE_VALUES
    below = subset_sums(_KEYS, 4)
    strengths: list[int] = []
    for top in range(4, N_CARDS):
        key = first[top]
        strengths += [values[(four + key) & _KEEP_5] for four in below[: comb(top, 4)]]
    return strengths
