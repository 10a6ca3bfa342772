"""Independent solvers for Kayles positions, to check the AI against (no Grundy shortcut).

- :func:`wins_mask` solves any position of a short board by plain minimax over bitmasks.
- :func:`wins_rows` solves a position given as row lengths by minimax over multisets of rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache


def mask_of(stones: Sequence[bool]) -> int:
    """Stone ``i`` present ⇔ bit ``i`` set."""
    return sum(1 << index for index, present in enumerate(stones) if present)


def moves_of_mask(mask: int) -> Iterator[int]:
    """Masks reachable in one move: one stone, or two adjacent stones, taken."""
    bit = 0
    while mask >> bit:
        if mask >> bit & 1:
            yield mask & ~(1 << bit)
            if mask >> (bit + 1) & 1:
                yield mask & ~(3 << bit)
        bit += 1


@cache
def wins_mask(mask: int) -> bool:
    """Whether the player to move wins (taking the last stone wins)."""
    return any(not wins_mask(after) for after in moves_of_mask(mask))


def _splits(row: int) -> Iterator[tuple[int, int]]:
    for take in (1, 2):
        for left in range(row - take + 1):
            yield left, row - take - left


@cache
def _wins_sorted(rows: tuple[int, ...]) -> bool:
    for index, row in enumerate(rows):
        if index and rows[index - 1] == row:
            continue
        others = rows[:index] + rows[index + 1 :]
        for left, right in _splits(row):
            after = tuple(sorted(part for part in (*others, left, right) if part))
            if not _wins_sorted(after):
                return True
    return False


def wins_rows(rows: Sequence[int]) -> bool:
    """Whether the player to move wins from rows of these lengths."""
    return _wins_sorted(tuple(sorted(row for row in rows if row)))


def row_lengths(stones: Sequence[bool]) -> list[int]:
    """The lengths of the runs of present stones."""
    lengths, run = [], 0
    for present in (*stones, False):
        if present:
            run += 1
        elif run:
            lengths.append(run)
            run = 0
    return lengths
