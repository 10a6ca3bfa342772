"""The rules of a Hold'em table as one value: blinds, ante, limit kind.

:class:`Rules` is what the engine (:meth:`casino.holdem.engine.Hand.deal`), the table, the
shells, the socket server and the web tables take whole (pokerkit's ``Poker`` settings passed to
``create_state``; python-chess's variant classes), so a variant is a change here plus the one
place that acts on it, not a new argument threaded through every module.

Its text form is ``SMALL/BIG`` or, with an ante, ``SMALL/BIG/ANTE``; ``str`` and :meth:`Rules.parse`
round-trip. The ante follows pokerkit's ``raw_antes`` given as one number: every player in the
hand posts it (all-in for less when short) into the pot before the blinds. It is dead money: it
does not count toward a player's bet in the first round, so the big blind is still the amount to
call. Only no limit is played (:class:`Limit`); the seat count stays a table setting
(``--players``/``--seats``), since it is not a rule of a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from casino.errors import ParseError

MOST_CHIPS = 10**9
"""The largest blind or ante accepted."""


class Limit(Enum):
    """The betting structure. Only no limit is implemented (the seed's game)."""

    NO_LIMIT = "no-limit"


@dataclass(frozen=True, slots=True)
class Rules:
    """Blinds ``small_blind``/``big_blind``, an ``ante`` every player posts (0: none), the limit."""

    small_blind: int = 5
    big_blind: int = 10
    ante: int = 0
    limit: Limit = Limit.NO_LIMIT

    def __post_init__(self) -> None:
        if not 0 < self.small_blind <= self.big_blind <= MOST_CHIPS:
            raise ParseError(
                f"blinds must be 0 < small <= big, not {self.small_blind}/{self.big_blind}"
            )
        if not 0 <= self.ante <= MOST_CHIPS:
            raise ParseError(f"the ante must be 0 or more, not {self.ante}")

    @property
    def blinds(self) -> tuple[int, int]:
        """``(small, big)``."""
        return self.small_blind, self.big_blind

    @classmethod
    def parse(cls, text: str) -> Rules:
        """``SMALL/BIG`` or ``SMALL/BIG/ANTE`` (whole numbers); :class:`ParseError` otherwise."""
        parts = text.strip().split("/")
        if len(parts) not in (2, 3) or not all(part.isdigit() and part.isascii() for part in parts):
            raise ParseError(f"rules are SMALL/BIG or SMALL/BIG/ANTE: {text[:40]!r}")
        ante = int(parts[2]) if len(parts) == 3 else 0
        return cls(int(parts[0]), int(parts[1]), ante)

    @classmethod
    def of(cls, value: Rules | tuple[int, int]) -> Rules:
        """``value`` itself, or the no-ante rules for a ``(small, big)`` pair."""
        return value if isinstance(value, Rules) else cls(*value)

    def with_ante(self, ante: int) -> Rules:
        """These rules with ``ante``."""
        return Rules(self.small_blind, self.big_blind, ante, self.limit)

    def __str__(self) -> str:
        blinds = f"{self.small_blind}/{self.big_blind}"
        return f"{blinds}/{self.ante}" if self.ante else blinds
