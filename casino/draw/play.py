"""One game from the deal to the showdown, with the decisions asked of whoever makes them.

:func:`play` drives a :class:`~casino.draw.rules.Table` in the seed's order and hands every
record to ``report`` as it happens, so a shell can print it before it asks the next question.
Player_1's decisions come from a :class:`Opener` (the terminal, or a benchmark's bettor), the
other players' from :class:`~casino.draw.strategy.ComputerPlayer` s. Nothing here reads or
writes a stream.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from casino.draw.rules import Bet, Exchange, Fold, Phase, Showdown, Table, Tiebreak
from casino.draw.strategy import ComputerPlayer


class Opener(Protocol):
    """Player_1: names the bet of each betting round (or folds) and picks the exchange."""

    def bet(self, table: Table) -> int | None:
        """An amount ``table`` accepts (:meth:`Table.can_open`), or ``None`` to fold."""

    def discards(self, table: Table) -> list[int]:
        """The 0-based positions Player_1 exchanges (``table`` accepts them)."""


@dataclass(frozen=True)
class NothingLeft:
    """Player_1 has no chips left, so the second betting round does not take place."""

    name: str


Event = Bet | Fold | Exchange | NothingLeft | Showdown
"""What :func:`play` reports, in order."""


def play(
    table: Table,
    opener: Opener,
    computers: Sequence[ComputerPlayer],
    report: Callable[[Event], None],
    tiebreak: Tiebreak = Tiebreak.FIRST,
) -> Showdown | None:
    """Play ``table`` to its end; the showdown, or ``None`` when Player_1 folded.

    ``computers[i]`` plays seat ``i + 1``.
    """
    if not _betting_round(table, opener, computers, report):
        return None
    while table.phase is Phase.EXCHANGE:
        seat = _turn(table)
        hand = table.seats[seat].hand
        chosen = opener.discards(table) if seat == 0 else computers[seat - 1].discards(hand)
        report(table.exchange(seat, chosen))
    if table.phase is Phase.SHOWDOWN:
        report(NothingLeft(table.seats[0].name))
    elif not _betting_round(table, opener, computers, report):
        return None
    result = table.showdown(tiebreak)
    report(result)
    return result


def _betting_round(
    table: Table,
    opener: Opener,
    computers: Sequence[ComputerPlayer],
    report: Callable[[Event], None],
) -> bool:
    """Player_1 opens, the others call or fold; False if Player_1 folded."""
    phase = table.phase
    amount = opener.bet(table)
    if amount is None:
        report(table.fold(0))
        return False
    report(table.open(amount))
    while table.phase is phase:
        seat = _turn(table)
        wants = table.can_call(seat) and computers[seat - 1].calls(table, seat)
        report(table.call(seat) if wants else table.fold(seat))
    return True


def _turn(table: Table) -> int:
    """The seat to act (the game is in a round, so there is one)."""
    seat = table.to_act
    if seat is None:
        raise AssertionError(f"nobody acts during the {table.phase.value}")
    return seat
