"""Show or muck: who turns their cards over at the end of a hand, when the rules let them choose.

A :class:`Showdown` is made from a hand that is over (:attr:`Hand.over`); the chips are already
paid by then (:meth:`Hand._finish` decides the pots from every live hand), so nothing here ever
moves a chip: it only says which cards the table sees. As the engine's actions, each choice has
a ``verify_…`` raising :class:`~casino.holdem.engine.Refused`, a ``can_…`` and the choice itself
returning a frozen :class:`Reveal`.

The rules (the usual card-room ones, see ``docs/holdem.md``):

- **Uncontested** (everybody else folded): the winner may show their two cards or not; not
  showing (a muck) is the default.
- **All-in showdown** (a live player put in every chip): every live hand is shown, no choice.
- **Showdown**: the first to show is the last aggressor of the final betting round (the last
  bet or raise after which only calls and folds came); when that round was checked through, the
  first live player clockwise from the button. Then clockwise. A player must show if they win a
  share of some pot, or if no hand shown so far beats theirs; otherwise (beaten by a hand
  already shown, winning nothing) they may muck, and mucking is the default.

Players who have no choice are shown at once: :attr:`Showdown.to_choose` is always a seat with
a real choice (``None``: everything is decided).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from casino.errors import IllegalAction, allowed
from casino.holdem.engine import Hand, Kind, Refused


class Choice(Enum):
    """What a player did with their cards at the end."""

    SHOW = "show"
    MUCK = "muck"


@dataclass(frozen=True, slots=True)
class Reveal:
    """One seat's cards at the end: shown (``cards``) or mucked (no cards); ``forced`` when
    the rules left no choice."""

    seat: int
    choice: Choice
    cards: tuple[int, ...]
    forced: bool


class Showdown:
    """The show-or-muck decisions of one finished hand, in the order the rules give."""

    def __init__(self, hand: Hand) -> None:
        if not hand.over:
            raise IllegalAction("the hand is not over")
        self.hand = hand
        self.reveals: list[Reveal] = []
        live = hand.live
        self.uncontested = len(live) == 1
        """Everybody else folded: the winner chooses whether to show."""
        self.all_in = not self.uncontested and any(
            hand.collected[seat] == hand.starting[seat] for seat in live
        )
        """A live player is all-in: every live hand is shown."""
        self.order = live if self.uncontested else _showing_order(hand)
        """The seats in the order they show or muck."""
        winners = {seat for award in hand.awards for seat in award.winners}
        self._winners = winners
        self._reveal_forced()

    # --- queries --------------------------------------------------------------------------

    @property
    def to_choose(self) -> int | None:
        """The seat whose choice it is (``None``: every seat is decided)."""
        decided = len(self.reveals)
        return self.order[decided] if decided < len(self.order) else None

    @property
    def over(self) -> bool:
        """Whether every seat is decided."""
        return self.to_choose is None

    @property
    def shown(self) -> list[int]:
        """The seats whose cards are shown so far, in the order they were shown."""
        return [r.seat for r in self.reveals if r.choice is Choice.SHOW]

    def must_show(self, seat: int) -> bool:
        """Whether the rules make ``seat`` show (at its turn): see the module docstring."""
        if self.uncontested:
            return False
        if self.all_in or seat in self._winners:
            return True
        mine = self.hand.strength(seat)
        return not any(self.hand.strength(other) > mine for other in self.shown)

    # --- verify / can / choose ------------------------------------------------------------

    def _chooser(self) -> int:
        seat = self.to_choose
        if seat is None:
            raise Refused("nobody is to show or muck")
        return seat

    def verify_show(self) -> None:
        """Raise :class:`IllegalAction` unless somebody is to choose (showing is always allowed)."""
        self._chooser()

    def verify_muck(self) -> None:
        """Raise :class:`IllegalAction` unless the seat to choose may muck."""
        if self.must_show(self._chooser()):
            raise Refused("cannot muck: your hand must be shown")

    def can_show(self) -> bool:
        """Whether :meth:`show` is legal now."""
        return allowed(self.verify_show)

    def can_muck(self) -> bool:
        """Whether :meth:`muck` is legal now."""
        return allowed(self.verify_muck)

    def show(self) -> Reveal:
        """The seat to choose shows their cards."""
        self.verify_show()
        return self._record(self._chooser(), Choice.SHOW, forced=False)

    def muck(self) -> Reveal:
        """The seat to choose mucks (uncontested: does not show)."""
        self.verify_muck()
        return self._record(self._chooser(), Choice.MUCK, forced=False)

    def default(self) -> Reveal:
        """What a seat that does not choose gets: a muck when allowed, else a show."""
        return self.muck() if self.can_muck() else self.show()

    def _record(self, seat: int, choice: Choice, forced: bool) -> Reveal:
        cards = tuple(self.hand.hole[seat]) if choice is Choice.SHOW else ()
        reveal = Reveal(seat, choice, cards, forced)
        self.reveals.append(reveal)
        self._reveal_forced()
        return reveal

    def _reveal_forced(self) -> None:
        """Show the seats that have no choice, up to the next seat that has one."""
        seat = self.to_choose
        while seat is not None and self.must_show(seat):
            self.reveals.append(Reveal(seat, Choice.SHOW, tuple(self.hand.hole[seat]), True))
            seat = self.to_choose


def last_aggressor(hand: Hand) -> int | None:
    """The seat that made the last bet or raise of the final betting round, or ``None`` when
    that round was checked through (read back from the end: only calls and folds follow the
    last aggression of a round, and a round without one is checks and folds)."""
    for action in reversed(hand.actions):
        if action.kind in (Kind.BET, Kind.RAISE):
            return action.seat
        if action.kind is Kind.CHECK:
            return None
    return None


def _showing_order(hand: Hand) -> list[int]:
    """The live seats clockwise, from the last aggressor (else the first after the button)."""
    live = hand.live
    first = last_aggressor(hand)
    if first is None or first not in live:
        return live
    start = live.index(first)
    return live[start:] + live[:start]
