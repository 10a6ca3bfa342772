"""The match's money, pure: two bankrolls, $10 a hand, and the tally the summary shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from casino.domino.commands import N_
from casino.domino.rules import COMPUTER, MEMBER, Finish, Result

Say = Callable[..., None]
"""How a front end says a message: ``say(msgid, **values)`` (it translates and shows it)."""

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


def settle_hand(ledger: Ledger, result: Result, say: Say) -> None:
    """Say how the hand ended (blocked: the pips; who won ``$STAKE``, or a draw), settle it in
    ``ledger``, and say both bankrolls: the terminal and the web page tell it alike."""
    if result.finish is Finish.BLOCKED:
        say(
            N_("The game is blocked. Pips left: you {member}, the computer {computer}."),
            member=result.pips[MEMBER],
            computer=result.pips[COMPUTER],
        )
    if result.winner is None:
        say(N_("A drawn hand: no money moves."))
    elif result.winner == MEMBER:
        say(N_("You win the hand and ${stake}."), stake=STAKE)
    else:
        say(N_("The computer wins the hand and ${stake}."), stake=STAKE)
    ledger.settle(result)
    say(
        N_("Bankrolls: you ${member}, the computer ${computer}."),
        member=ledger.bankrolls[MEMBER],
        computer=ledger.bankrolls[COMPUTER],
    )
