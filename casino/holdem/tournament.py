"""A sit-and-go tournament's rules as values: the blind schedule, the places, the prizes.

Pure and standard-library only: no clock is read. The blinds rise with the **hands played**
(not minutes): level ``k`` (0-based) is played from hand ``k * hands_per_level`` on, and the
last level stays once reached (:class:`Schedule`). A player whose stack reaches 0 is out;
:class:`Standings` records the places (the first out finishes last). Players who go out in
the same hand finish in the order of their stacks when that hand was dealt (more chips:
the better place); equal stacks, the lower seat number finishes higher.

The prize pool (every buy-in) is split by :func:`prizes` into whole dollars: each paid
place gets ``pool * share // 100``, and the remainder of that rounding (less than one
dollar per place paid) goes to the first place, so the prizes always add up to the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from casino.errors import IllegalAction, ParseError
from casino.holdem.rules import Rules

PAYOUTS: dict[int, tuple[int, ...]] = {2: (100,), 3: (100,), 4: (65, 35), 5: (65, 35), 6: (65, 35)}
"""The shares (percent of the pool, first place first) paid for each number of entrants."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """The blinds (and antes) of each level, and how many hands each level lasts."""

    levels: tuple[Rules, ...]
    hands_per_level: int

    def __post_init__(self) -> None:
        if not self.levels:
            raise ParseError("a schedule needs at least one level")
        if self.hands_per_level < 1:
            raise ParseError(f"a level lasts at least one hand, not {self.hands_per_level}")

    def level(self, hands_played: int) -> int:
        """The level (0-based) of the hand dealt after ``hands_played`` hands."""
        if hands_played < 0:
            raise ParseError(f"hands played are never negative: {hands_played}")
        return min(hands_played // self.hands_per_level, len(self.levels) - 1)

    def rules(self, hands_played: int) -> Rules:
        """The blinds and ante of the hand dealt after ``hands_played`` hands."""
        return self.levels[self.level(hands_played)]


DEFAULT_SCHEDULE = Schedule(
    (
        Rules(10, 20),
        Rules(15, 30),
        Rules(25, 50),
        Rules(50, 100),
        Rules(75, 150, 10),
        Rules(100, 200, 20),
        Rules(150, 300, 30),
        Rules(200, 400, 40),
        Rules(300, 600, 60),
        Rules(500, 1000, 100),
    ),
    hands_per_level=10,
)
"""10/20 rising every 10 hands, antes from the fifth level (measured at the web's table,
1500 chips each: 8 to 67 hands, median 34, for two calling members and two bots over 8
seeds)."""


def shares_for(entrants: int) -> tuple[int, ...]:
    """The shares paid for ``entrants`` players (:data:`PAYOUTS`)."""
    if entrants not in PAYOUTS:
        raise ParseError(f"a sit-and-go has 2 to 6 players, not {entrants}")
    return PAYOUTS[entrants]


def prizes(pool: int, shares: Sequence[int]) -> tuple[int, ...]:
    """The pool split by ``shares`` (percent, first place first, adding up to 100) into whole
    dollars: each ``pool * share // 100``, the remainder to the first place."""
    if pool < 0:
        raise ParseError(f"a prize pool is never negative: {pool}")
    if not shares or any(share <= 0 for share in shares) or sum(shares) != 100:
        raise ParseError(f"the shares must be positive and add up to 100: {list(shares)}")
    split = [pool * share // 100 for share in shares]
    split[0] += pool - sum(split)
    return tuple(split)


@dataclass
class Standings:
    """Who is out and in which place (1: the winner), hand after hand."""

    entrants: int
    places: dict[int, int] = field(default_factory=dict)
    """Seat → place, for the seats that are out (and the winner's, once there is one)."""

    def __post_init__(self) -> None:
        if self.entrants < 2:
            raise ParseError(f"a tournament needs two players, not {self.entrants}")

    @property
    def left(self) -> list[int]:
        """The seats still in, in seat order."""
        return [seat for seat in range(self.entrants) if seat not in self.places]

    @property
    def over(self) -> bool:
        """Whether a winner is known."""
        return len(self.places) == self.entrants

    def after_hand(self, before: Sequence[int], after: Sequence[int]) -> list[int]:
        """Record a hand: ``before`` and ``after`` are each seat's stack when it was dealt and
        when it ended. The seats that went out are given their places (and the last one left
        the first place); those seats, best place first."""
        if len(before) != self.entrants or len(after) != self.entrants:
            raise IllegalAction("one stack per seat, before and after")
        out = [seat for seat in self.left if after[seat] == 0]
        if not out:
            return []
        standing = len(self.left) - len(out)
        if standing < 1:
            raise IllegalAction("every player cannot go out in one hand")
        out.sort(key=lambda seat: (-before[seat], seat))
        for rank, seat in enumerate(out):
            self.places[seat] = standing + 1 + rank
        if standing == 1:
            self.places[self.left[0]] = 1
        return out

    def by_place(self) -> list[int]:
        """The seats in the order they finished (the winner first), once :attr:`over`."""
        if not self.over:
            raise IllegalAction("the tournament is not over")
        return sorted(self.places, key=self.places.__getitem__)

    def payouts(self, pool: int) -> dict[int, int]:
        """Seat → prize (the places paid only), once :attr:`over`."""
        split = prizes(pool, shares_for(self.entrants))
        return dict(zip(self.by_place(), split, strict=False))
