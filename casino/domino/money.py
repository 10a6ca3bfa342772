"""The match's money, pure: two bankrolls, $10 a hand, and the tally the summary shows."""

from __future__ import annotations

from dataclasses import dataclass, field

from casino.domino.rules import MEMBER, Result

STAKE = 10
"""Dollars a won hand moves from the loser to the winner."""


@dataclass
class Ledger:
    """Both bankrolls (member, computer) and the hands won, lost and drawn by the member."""

    bankrolls: list[int]
    won: int = 0
    lost: int = 0
    drawn: int = 0
    start: tuple[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.start = (self.bankrolls[0], self.bankrolls[1])

    @classmethod
    def even(cls, bankroll: int) -> Ledger:
        """Both players start with ``bankroll`` dollars."""
        return cls([bankroll, bankroll])

    def settle(self, result: Result) -> None:
        """Move the stake to the winner (nothing moves on a drawn hand)."""
        if result.winner is None:
            self.drawn += 1
            return
        loser = 1 - result.winner
        self.bankrolls[loser] -= STAKE
        self.bankrolls[result.winner] += STAKE
        if result.winner == MEMBER:
            self.won += 1
        else:
            self.lost += 1

    def broke(self) -> int | None:
        """The first seat that cannot cover the stake, or ``None`` while both can."""
        for seat, money in enumerate(self.bankrolls):
            if money < STAKE:
                return seat
        return None

    @property
    def hands(self) -> int:
        """Hands finished."""
        return self.won + self.lost + self.drawn

    @property
    def net(self) -> int:
        """The member's money won (negative: lost) over the match."""
        return self.bankrolls[MEMBER] - self.start[MEMBER]
