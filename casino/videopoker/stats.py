"""Statistics of a video poker session, and the seed's statistics table (pure).

The table has the seed's rows and wording. Layout (ours; the seed gives only the rows): the
labels are left-aligned in a 15-character column (the longest label, ``Jacks or Better``),
then one space, then the numbers right-aligned in a column as wide as the widest number
(at least 2, for the ``Nb`` heading); the ``Credit`` line adds `` (N%)`` after its number::

    Hand             Nb
    Jacks or Better   3
    ...
    Credit          995 (99.50%)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from casino.videopoker.paytable import PayLine

_ROWS: tuple[tuple[str, tuple[PayLine, ...]], ...] = (
    ("Jacks or Better", (PayLine.JACKS_OR_BETTER,)),
    ("Two Pair", (PayLine.TWO_PAIR,)),
    ("Three of a Kind", (PayLine.THREE_OF_A_KIND,)),
    ("Straight", (PayLine.STRAIGHT,)),
    ("Flush", (PayLine.FLUSH,)),
    ("Full house", (PayLine.FULL_HOUSE,)),
    ("Four of a Kind", (PayLine.FOUR_ACES, PayLine.FOUR_2_4, PayLine.FOUR_5_K)),
    ("Straight Flush", (PayLine.STRAIGHT_FLUSH,)),
    ("Royal Flush", (PayLine.ROYAL_FLUSH,)),
    ("Other", (PayLine.NOTHING,)),
)
"""The seed's rows, each with the pay lines it counts (``Other`` is every losing hand)."""

_LABEL_WIDTH = max(len(label) for label, _ in _ROWS)
LABELS = ("Hand", *(label for label, _ in _ROWS), "Total", "Credit")
"""Every row's label, in the table's order: the header, the seed's rows, ``Total``,
``Credit``."""


@dataclass
class Statistics:
    """How often each final hand occurred, and the credits wagered and returned."""

    initial_credit: int
    counts: dict[PayLine, int] = field(default_factory=lambda: dict.fromkeys(PayLine, 0))
    wagered: int = 0
    returned: int = 0

    def record(self, line: PayLine, bet: int, payout: int) -> None:
        """Count one finished hand."""
        self.counts[line] += 1
        self.wagered += bet
        self.returned += payout

    def add_counts(self, counts: Mapping[PayLine, int], wagered: int, returned: int) -> None:
        """Count many finished hands at once (a simulation's tally)."""
        for line, count in counts.items():
            self.counts[line] += count
        self.wagered += wagered
        self.returned += returned

    @property
    def deals(self) -> int:
        """Hands played so far."""
        return sum(self.counts.values())

    @property
    def credit(self) -> int:
        """The credit these counts imply: initial − wagered + returned."""
        return self.initial_credit - self.wagered + self.returned

    def rows(self) -> list[tuple[str, int]]:
        """The seed's rows with their counts, then ``Total``."""
        rows = [(label, sum(self.counts[line] for line in lines)) for label, lines in _ROWS]
        return [*rows, ("Total", self.deals)]


def percent(part: int, whole: int) -> str:
    """``part / whole × 100`` with two decimals, rounded half up, computed exactly."""
    if whole <= 0:
        raise ValueError("the initial credit must be positive")
    hundredths, remainder = divmod(abs(part) * 10000, whole)
    if 2 * remainder >= whole:
        hundredths += 1
    sign = "-" if part < 0 and hundredths else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


def render_table(stats: Statistics, credit: int) -> list[str]:
    """The seed's statistics table as lines (no newlines), for a final ``credit``."""
    rows = stats.rows()
    width = max(2, len(str(credit)), *(len(str(count)) for _, count in rows))
    lines = [_row("Hand", "Nb", width)]
    lines += [_row(label, str(count), width) for label, count in rows]
    share = percent(credit, stats.initial_credit)
    lines.append(_row("Credit", str(credit), width) + f" ({share}%)")
    return lines


def _row(label: str, value: str, width: int) -> str:
    return f"{label:<{_LABEL_WIDTH}} {value:>{width}}"
