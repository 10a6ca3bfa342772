"""Video poker pay lines and pay tables (pure: values in, values out).

A :class:`PayLine` is the final-hand class a video poker machine pays on; its value is the
name the shell prints (``player wins with a FULL HOUSE ...``). A :class:`PayTable` gives the
total return (stake included) for each line at bets of 1 to 5 credits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from casino.cards import Card, Category, HandValue, Rank, rank_hand
from casino.errors import ParseError
from casino.numbers import is_digits, parse_int, quoted

MAX_BET = 5


class PayLine(Enum):
    """A final-hand class, best first; the value is the name the course prints."""

    ROYAL_FLUSH = "ROYAL FLUSH"
    STRAIGHT_FLUSH = "STRAIGHT FLUSH"
    FOUR_ACES = "FOUR ACES"
    FOUR_2_4 = "FOUR 2-4"
    FOUR_5_K = "FOUR 5-K"
    FULL_HOUSE = "FULL HOUSE"
    FLUSH = "FLUSH"
    STRAIGHT = "STRAIGHT"
    THREE_OF_A_KIND = "THREE OF A KIND"
    TWO_PAIR = "TWO PAIR"
    JACKS_OR_BETTER = "JACKS OR BETTER"
    NOTHING = "NOTHING"


_JACK = Rank.JACK.number
_ACE = Rank.ACE.number
_FOUR = Rank.FOUR.number


def classify(cards: Sequence[Card]) -> PayLine:
    """The pay line of a five-card final hand."""
    return classify_value(rank_hand(cards))


def classify_value(value: HandValue) -> PayLine:
    """The pay line of a five-card hand worth ``value``."""
    category, ranks = value.category, value.ranks
    if category is Category.STRAIGHT_FLUSH:
        return PayLine.ROYAL_FLUSH if ranks[0] == _ACE else PayLine.STRAIGHT_FLUSH
    if category is Category.FOUR_OF_A_KIND:
        if ranks[0] == _ACE:
            return PayLine.FOUR_ACES
        return PayLine.FOUR_2_4 if ranks[0] <= _FOUR else PayLine.FOUR_5_K
    if category is Category.ONE_PAIR:
        return PayLine.JACKS_OR_BETTER if ranks[0] >= _JACK else PayLine.NOTHING
    return _BY_CATEGORY[category]


_BY_CATEGORY = {
    Category.FULL_HOUSE: PayLine.FULL_HOUSE,
    Category.FLUSH: PayLine.FLUSH,
    Category.STRAIGHT: PayLine.STRAIGHT,
    Category.THREE_OF_A_KIND: PayLine.THREE_OF_A_KIND,
    Category.TWO_PAIR: PayLine.TWO_PAIR,
    Category.HIGH_CARD: PayLine.NOTHING,
}


@dataclass(frozen=True)
class PayTable:
    """Total returns (stake included) per pay line, for bets of 1..5 credits.

    ``name`` is what ``--paytable`` takes (``double-bonus-10-7``); ``title`` is what a player
    is shown (``Double Bonus 10/7``), the name itself unless given; tables that pay alike
    under one name are equal whatever their titles.
    """

    name: str
    returns: Mapping[PayLine, tuple[int, int, int, int, int]]
    title: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", self.name)

    def payout(self, line: PayLine, bet: int) -> int:
        """Credits returned for ``line`` at ``bet`` credits (0 for a losing hand)."""
        if not 1 <= bet <= MAX_BET:
            raise ValueError(f"bet must be 1..{MAX_BET}, not {bet}")
        row = self.returns.get(line)
        return row[bet - 1] if row else 0

    @classmethod
    def per_coin(
        cls, name: str, pays: Mapping[PayLine, int], royal_max: int = 4000, title: str = ""
    ) -> PayTable:
        """A table paying ``pays[line] * bet``, except the royal flush at 5 credits."""
        returns = {line: (pay, 2 * pay, 3 * pay, 4 * pay, 5 * pay) for line, pay in pays.items()}
        royal = returns[PayLine.ROYAL_FLUSH]
        returns[PayLine.ROYAL_FLUSH] = (royal[0], royal[1], royal[2], royal[3], royal_max)
        return cls(name, returns, title)


def _double_bonus(full_house: int, flush: int) -> PayTable:
    return PayTable.per_coin(
        f"double-bonus-{full_house}-{flush}",
        {
            PayLine.ROYAL_FLUSH: 250,
            PayLine.STRAIGHT_FLUSH: 50,
            PayLine.FOUR_ACES: 160,
            PayLine.FOUR_2_4: 80,
            PayLine.FOUR_5_K: 50,
            PayLine.FULL_HOUSE: full_house,
            PayLine.FLUSH: flush,
            PayLine.STRAIGHT: 5,
            PayLine.THREE_OF_A_KIND: 3,
            PayLine.TWO_PAIR: 1,
            PayLine.JACKS_OR_BETTER: 1,
        },
        title=f"Double Bonus {full_house}/{flush}",
    )


DOUBLE_BONUS_10_7 = _double_bonus(10, 7)
"""The seed's pay table (royal flush 4000 at 5 credits)."""

PAYTABLES: dict[str, PayTable] = {
    table.name: table
    for table in (
        DOUBLE_BONUS_10_7,
        _double_bonus(9, 7),
        _double_bonus(9, 6),
        PayTable.per_coin(
            "jacks-or-better-9-6",
            {
                PayLine.ROYAL_FLUSH: 250,
                PayLine.STRAIGHT_FLUSH: 50,
                PayLine.FOUR_ACES: 25,
                PayLine.FOUR_2_4: 25,
                PayLine.FOUR_5_K: 25,
                PayLine.FULL_HOUSE: 9,
                PayLine.FLUSH: 6,
                PayLine.STRAIGHT: 4,
                PayLine.THREE_OF_A_KIND: 3,
                PayLine.TWO_PAIR: 2,
                PayLine.JACKS_OR_BETTER: 1,
            },
            title="Jacks or Better 9/6",
        ),
    )
}
"""Built-in pay tables by name."""


_LINE_NAMES: dict[str, tuple[PayLine, ...]] = {
    **{line.value: (line,) for line in PayLine if line is not PayLine.NOTHING},
    "FOUR OF A KIND": (PayLine.FOUR_ACES, PayLine.FOUR_2_4, PayLine.FOUR_5_K),
}

PAYTABLE_FORMAT = """\
A pay table file has one line per paying hand: its name, then either one number (the pay
per credit: 3 pays 3, 6, 9, 12, 15) or five (the returns at bets of 1 to 5 credits).
Names: ROYAL FLUSH, STRAIGHT FLUSH, FOUR ACES, FOUR 2-4, FOUR 5-K (or FOUR OF A KIND for
all three), FULL HOUSE, FLUSH, STRAIGHT, THREE OF A KIND, TWO PAIR, JACKS OR BETTER, in
any case. Hands not listed pay nothing. `# …` is a comment; `name: …` names the table.
Example:  ROYAL FLUSH 250 500 750 1000 4000"""
"""The pay table file format, in words (for help texts)."""


def parse_paytable(text: str, name: str) -> PayTable:
    """A pay table from the text of a pay table file (see :data:`PAYTABLE_FORMAT`).

    ``name`` is used unless the text names the table. Raises :class:`ParseError` naming
    the offending line.
    """
    returns: dict[PayLine, tuple[int, int, int, int, int]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().startswith("name:"):
            name = line[5:].strip() or name
            continue
        words = line.split()
        split = next((i for i, w in enumerate(words) if w.isascii() and w.isdigit()), len(words))
        label, pays = " ".join(words[:split]).upper(), words[split:]
        lines = _LINE_NAMES.get(label)
        if lines is None:
            raise ParseError(f"line {number}: unknown hand {quoted(label)}")
        if len(pays) not in (1, 5) or not all(is_digits(pay) for pay in pays):
            raise ParseError(f"line {number}: give one pay per credit or five returns")
        amounts = [parse_int(pay) for pay in pays]
        if len(amounts) == 1:
            amounts = [amounts[0] * bet for bet in range(1, MAX_BET + 1)]
        row = (amounts[0], amounts[1], amounts[2], amounts[3], amounts[4])
        for pay_line in lines:
            if pay_line in returns:
                raise ParseError(f"line {number}: {pay_line.value} is paid twice")
            returns[pay_line] = row
    if not returns:
        raise ParseError("no paying hands")
    return PayTable(name, returns)
