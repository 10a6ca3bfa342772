"""Winning strategies: ordinary Nim (the seed's k(M+1)+1 rule) and Kayles by Sprague–Grundy.

Both functions are pure: they take a position and return a move, never changing what they
are given.

Ordinary Nim (the player who takes the last stone *loses*): the player to move wins exactly
when the remaining count is not ``k(M+1)+1``; the winning move leaves ``k(M+1)+1`` stones.

Kayles (the advanced game: take one stone or two adjacent ones, taking the last stone *wins*)
splits into independent rows of adjacent stones. A row of ``n`` stones has the Grundy value
``G(n)``; a position is lost for the player to move exactly when the XOR of its rows' values is
0, and a winning move makes it 0. ``G`` is periodic with period 12 from ``n = 71`` on (the last
exceptional value is ``G(70)``), so one short table answers for rows of any length.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import reduce
from operator import xor

from casino.nim.kayles import KaylesMove

PERIOD = 12
"""The period of Kayles' Grundy values."""

PERIODIC_FROM = 71
"""``G(n) == G(n + PERIOD)`` for every ``n >= PERIODIC_FROM``."""

_TAKES = (1, 2)


def _mex(values: set[int]) -> int:
    """The smallest natural number not in ``values``."""
    value = 0
    while value in values:
        value += 1
    return value


def grundy_by_mex(limit: int) -> list[int]:
    """``G(0) … G(limit - 1)`` computed directly from the rules (no periodicity assumed)."""
    values: list[int] = []
    for n in range(limit):
        options = {
            values[left] ^ values[n - take - left]
            for take in _TAKES
            for left in range(n - take + 1)
        }
        values.append(_mex(options))
    return values


_TABLE: tuple[int, ...] = tuple(grundy_by_mex(PERIODIC_FROM + PERIOD))


def grundy(n: int) -> int:
    """The Grundy value of one row of ``n`` adjacent stones, for any ``n >= 0``."""
    if n < 0:
        raise ValueError(f"a row cannot have {n} stones")
    if n < len(_TABLE):
        return _TABLE[n]
    return _TABLE[PERIODIC_FROM + (n - PERIODIC_FROM) % PERIOD]


_LOOKUP_SIZE = 1024
_LOOKUP: tuple[int, ...] = tuple(grundy(n) for n in range(_LOOKUP_SIZE))


def nim_removal(remaining: int, upper_bound: int) -> int:
    """How many stones to take in ordinary Nim (taking the last stone loses).

    Leaves ``k(upper_bound + 1) + 1`` stones whenever that is possible. From such a count the
    position is lost against perfect play, and the move is a single stone: the smallest step,
    which leaves the opponent the longest game in which to go wrong.
    """
    if remaining < 1 or upper_bound < 1:
        raise ValueError(f"no move with {remaining} stones and upper bound {upper_bound}")
    excess = (remaining - 1) % (upper_bound + 1)
    return excess if excess else 1


def _check_stones(available: Sequence[bool]) -> bytes:
    """``available`` as bytes of 0/1, or ``ValueError`` for anything else."""
    try:
        packed = bytes(available)
    except (TypeError, ValueError) as error:
        raise ValueError("available must be a sequence of booleans") from error
    if packed.translate(None, b"\x00\x01"):
        raise ValueError("available must be a sequence of booleans")
    if b"\x01" not in packed:
        raise ValueError("no stone is left to take")
    return packed


def _split_to(length: int, target: int) -> tuple[int, int]:
    """A move inside a row of ``length`` that leaves rows of XOR value ``target``.

    Returns ``(left, take)``: keep ``left`` stones, take ``take`` and keep the rest. A target
    below the row's own value is always reachable (that is what a Grundy value means). Beyond
    ``PERIODIC_FROM + PERIOD`` stones a part's value depends only on its length modulo 12, so
    trying the short left parts and the short right parts covers every distinct outcome.
    """
    reach = PERIODIC_FROM + PERIOD
    for take in _TAKES:
        rest = length - take
        if rest < 0:
            continue
        if rest <= 2 * reach:
            lefts: Iterator[int] = iter(range(rest + 1))
        else:
            lefts = iter((*range(reach + 1), *(rest - right for right in range(reach + 1))))
        for left in lefts:
            if grundy(left) ^ grundy(rest - left) == target:
                return left, take
    raise AssertionError(f"no move in a row of {length} reaches value {target}")


def kayles_move(available: Sequence[bool]) -> KaylesMove:
    """The move to make in Kayles from the stones in ``available`` (``True`` = present).

    From a winning position it is a winning move: one that leaves Grundy value 0 (in the first
    row where such a move exists, the one with the shortest left part).
    From a lost position (value 0) no move wins against perfect play; it then takes one stone
    from the right end of the longest row, keeping the most room for the opponent to go wrong,
    and wins as soon as the opponent makes a mistake. ``ValueError`` if no stone is left or
    ``available`` holds anything but booleans.
    """
    lengths = [len(run) for run in _check_stones(available).split(b"\x00")]
    values = [_LOOKUP[n] if n < _LOOKUP_SIZE else grundy(n) for n in lengths]
    total = reduce(xor, values, 0)
    if total == 0:
        longest = max(range(len(lengths)), key=lengths.__getitem__)
        return KaylesMove(_start(lengths, longest) + lengths[longest], 1)
    row = next(index for index, value in enumerate(values) if value ^ total < value)
    left, take = _split_to(lengths[row], values[row] ^ total)
    return KaylesMove(_start(lengths, row) + left + 1, take)


def _start(lengths: list[int], row: int) -> int:
    """The 0-based index of the first stone of run ``row`` (runs are separated by one gap)."""
    return sum(lengths[:row]) + row
