"""A finished hand as a record: enough to keep it, replay it step by step and export it.

:class:`HandRecord` is a frozen value built from the engine's finished :class:`Hand`
(:meth:`HandRecord.of`): the seats' names and starting stacks, the button, the blinds and
ante, the deck it was dealt from (top first), every action in order (seat, kind, round total)
and the final stacks. :meth:`HandRecord.dumps` / :meth:`HandRecord.loads` write and read it as
JSON (the round trip is exact); :meth:`HandRecord.replay` deals it again through the engine
and plays the actions (so a record the engine would not have played is refused, never
shown); :meth:`HandRecord.steps` gives the hand after each action (what a page steps
through); :meth:`HandRecord.phh` writes it as PHH (:mod:`casino.holdem.phh`) for one viewer,
the hole cards they never saw written ``????``. Pure and standard library only.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from casino.errors import IllegalAction, ParseError
from casino.holdem.engine import Action, Hand, Kind
from casino.holdem.phh import apply_action, dealing_order, to_phh
from casino.holdem.rules import Rules

__all__ = ["HandRecord"]
VERSION = 1
"""The record's JSON format (``"v"``): a later format reads this one or refuses it."""


@dataclass(frozen=True)
class HandRecord:
    """One finished hand (see the module)."""

    names: tuple[str, ...]
    """Each seat's player (empty seats too: their starting stack is 0)."""
    starting: tuple[int, ...]
    button: int
    blinds: tuple[int, int]
    ante: int
    deck: tuple[int, ...]
    """The card indices the hand was dealt from, top first."""
    actions: tuple[tuple[int, str, int], ...]
    """``(seat, kind, to)``: the :class:`Kind` value and the seat's round bet after it."""
    finishing: tuple[int, ...]
    revealed: tuple[int, ...] | None = None
    """The seats shown at the end where the table let its players show or muck (the web's
    ``--show-muck``), in the order shown; ``None``: every hand the rules show was shown."""

    @classmethod
    def of(
        cls,
        hand: Hand,
        names: list[str] | tuple[str, ...],
        revealed: tuple[int, ...] | None = None,
    ) -> HandRecord:
        """The record of ``hand`` (over), its seats played by ``names``; ``revealed``: the
        seats shown at a show-or-muck end (see :attr:`revealed`)."""
        if not hand.over:
            raise IllegalAction("the hand is not over")
        if len(names) != len(hand.starting):
            raise IllegalAction("one name per seat")
        return cls(
            tuple(str(name) for name in names),
            tuple(hand.starting),
            hand.button,
            (hand.small_blind, hand.big_blind),
            hand.ante,
            tuple(dealing_order(hand)),
            tuple((a.seat, a.kind.value, a.to) for a in hand.actions),
            tuple(hand.stacks),
            revealed,
        )

    # --- saving ---------------------------------------------------------------------------

    def dumps(self) -> str:
        """The record as JSON text (:meth:`loads` reads it back equal)."""
        data = {
            "v": VERSION,
            "names": list(self.names),
            "starting": list(self.starting),
            "button": self.button,
            "blinds": list(self.blinds),
            "ante": self.ante,
            "deck": list(self.deck),
            "actions": [list(action) for action in self.actions],
            "finishing": list(self.finishing),
        }
        if self.revealed is not None:
            data["revealed"] = list(self.revealed)
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def loads(cls, text: str) -> HandRecord:
        """A record written by :meth:`dumps`; :class:`ParseError` (one line) for anything
        else, a record the engine does not replay to its own final stacks included."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("v") != VERSION:
                raise ParseError("not a hand record of this version")
            small, big = (_whole(x) for x in data["blinds"])
            record = cls(
                tuple(_text(name) for name in data["names"]),
                tuple(_whole(x) for x in data["starting"]),
                _whole(data["button"]),
                (small, big),
                _whole(data["ante"]),
                tuple(_whole(x) for x in data["deck"]),
                tuple((_whole(s), _kind(k), _whole(t)) for s, k, t in data["actions"]),
                tuple(_whole(x) for x in data["finishing"]),
                _revealed(data.get("revealed")),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ParseError(f"not a hand record: {error}") from None
        final = record.replay()
        if not final.over or tuple(final.stacks) != record.finishing:
            raise ParseError("not a hand record: it does not replay to its final stacks")
        return record

    # --- replaying ------------------------------------------------------------------------

    def deal(self) -> Hand:
        """The hand as dealt: blinds and antes posted, nobody has acted."""
        rules = Rules(self.blinds[0], self.blinds[1], self.ante)
        try:
            return Hand.deal(list(self.starting), self.button, rules, list(self.deck))
        except (IllegalAction, ParseError) as error:
            raise ParseError(f"not a hand record: {error}") from None

    def steps(self) -> list[Hand]:
        """The hand as dealt, then after each action (``len(actions) + 1`` hands)."""
        hand = self.deal()
        states = [copy.deepcopy(hand)]
        for seat, kind, to in self.actions:
            _play(hand, seat, kind, to)
            states.append(copy.deepcopy(hand))
        return states

    def replay(self) -> Hand:
        """The hand played again to its end (:class:`ParseError` if the engine refuses an
        action of the record)."""
        hand = self.deal()
        for seat, kind, to in self.actions:
            _play(hand, seat, kind, to)
        return hand

    # --- who and what ---------------------------------------------------------------------

    def seat_of(self, name: str) -> int | None:
        """The seat ``name`` played in this hand (``None``: they did not play it)."""
        for seat, (who, chips) in enumerate(zip(self.names, self.starting, strict=True)):
            if who == name and chips > 0:
                return seat
        return None

    def seen_by(self, seat: int | None) -> set[int]:
        """The seats whose hole cards the player at ``seat`` saw: their own, and those shown
        at the showdown (``None``: a viewer who played no seat sees only those)."""
        return self.shown_seats() | ({seat} if seat is not None else set())

    def shown_seats(self, final: Hand | None = None) -> set[int]:
        """The seats whose cards everybody saw at the end: :attr:`revealed` where the players
        chose, else those the rules show at the showdown (``final``: this record already
        replayed, so it is not replayed again)."""
        if self.revealed is not None:
            return set(self.revealed)
        return set((final if final is not None else self.replay()).shown)

    def phh(self, viewer: str | None = None) -> str:
        """The hand as PHH text for ``viewer`` (a name): the hole cards they never saw are
        ``????``; ``None``: every card shown (the house's copy)."""
        final = self.replay()
        seats = [seat for seat, chips in enumerate(self.starting) if chips > 0]
        hidden: set[int] = set()
        if viewer is not None:
            mine = self.seat_of(viewer)
            hidden = set(seats) - self.shown_seats(final) - ({mine} if mine is not None else set())
        return to_phh(final, list(self.names), hidden)


def _play(hand: Hand, seat: int, kind: str, to: int) -> Action:
    """Play one recorded action on ``hand``; :class:`ParseError` if it is not that seat's
    turn or the engine refuses it."""
    if hand.to_act != seat:
        raise ParseError(f"not a hand record: seat {seat} acts out of turn")
    try:
        action = apply_action(hand, Kind(kind), to)
    except IllegalAction as error:
        raise ParseError(f"not a hand record: {error}") from None
    if action.kind.value != kind or action.to != to:
        raise ParseError(f"not a hand record: seat {seat}'s {kind} replays differently")
    return action


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a name")
    return value


def _kind(value: Any) -> str:
    if value not in {kind.value for kind in Kind}:
        raise ValueError(f"{value!r} is not an action")
    return str(value)


def _revealed(value: Any) -> tuple[int, ...] | None:
    """A record's ``revealed`` seats as saved (absent: ``None``)."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise TypeError("revealed is a list of seats")
    return tuple(_whole(x) for x in value)
