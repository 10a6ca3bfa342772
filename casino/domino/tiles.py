"""Double-six domino tiles: the 28 of them, how they read and how they are drawn on screen.

>>> Tile(5, 3)
Tile(low=3, high=5)
>>> Tile(5, 3).ascii(), parse_tile("[6|6]").pips
('[3|5]', 12)
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.errors import ParseError

HIGHEST = 6
"""The highest number of pips on a half (double-six)."""

_HORIZONTAL = 0x1F031
"""U+1F031 DOMINO TILE HORIZONTAL-00-00; ``left * 7 + right`` further on for the others."""


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One tile, its two halves kept in order (``low <= high``)."""

    low: int
    high: int

    def __init__(self, a: int, b: int) -> None:
        if not (0 <= a <= HIGHEST and 0 <= b <= HIGHEST):
            raise ParseError(f"not a double-six tile: {a}-{b}")
        object.__setattr__(self, "low", min(a, b))
        object.__setattr__(self, "high", max(a, b))

    @property
    def pips(self) -> int:
        """The tile's value: the sum of its two halves."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        """Whether both halves are the same number."""
        return self.low == self.high

    def has(self, number: int) -> bool:
        """Whether one of the halves shows ``number``."""
        return number in (self.low, self.high)

    def other(self, number: int) -> int:
        """The half that is left once the half showing ``number`` is matched."""
        return self.high if number == self.low else self.low

    def ascii(self, left: int | None = None) -> str:
        """``[3|5]``; with ``left``, that half first (as the tile lies on the line)."""
        first = self.low if left is None else left
        return f"[{first}|{self.other(first)}]"

    def glyph(self, left: int | None = None) -> str:
        """The Unicode horizontal domino tile, ``left`` (or the low half) first."""
        first = self.low if left is None else left
        return chr(_HORIZONTAL + first * (HIGHEST + 1) + self.other(first))


ALL_TILES: tuple[Tile, ...] = tuple(
    Tile(low, high) for low in range(HIGHEST + 1) for high in range(low, HIGHEST + 1)
)
"""The 28 tiles of a double-six set, 0-0 … 6-6."""


def parse_tile(text: str) -> Tile:
    """``3-5``, ``3|5`` or ``[3|5]`` as a tile; anything else is a :class:`ParseError`."""
    inner = text.strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1]
    for separator in ("-", "|"):
        a, found, b = inner.partition(separator)
        if found and len(a) == 1 and len(b) == 1 and (a + b).isascii() and (a + b).isdigit():
            return Tile(int(a), int(b))
    raise ParseError(f"not a tile (write it 3-5 or [3|5]): {text!r}")
