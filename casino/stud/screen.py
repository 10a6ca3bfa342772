"""What the dealer shows while it plays: a live standings table, a plain log, a history file.

On a terminal the standings (avatar, stack, state) redraw in place, as the seed's Casino Day
screen does; anywhere else each event and each hand is one log line. ``--history FILE``
gets one JSON line per hand.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from casino.clock import Clock
from casino.stud.dealer import Observer, Seat

CLEAR = "\x1b[H\x1b[2J"


def standings(seats: list[Seat]) -> list[str]:
    """The standings table, best first: place, avatar, stack, and why a player left."""
    ordered = sorted(seats, key=lambda seat: (seat.left is not None, -seat.stack, seat.number))
    width = max([6, *(len(seat.avatar) for seat in seats)])
    lines = [f"{'#':>3}  {'player':<{width}}  {'stack':>6}"]
    for place, seat in enumerate(ordered, 1):
        note = f"  out: {seat.left}" if seat.left else ""
        lines.append(f"{place:>3}  {seat.avatar:<{width}}  {seat.stack:>6}{note}")
    return lines


def _safe(text: str) -> str:
    """``text`` that any terminal encoding can print (lone surrogates escaped)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class LogObserver:
    """One line per event and per hand."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def event(self, text: str) -> None:
        """Log ``text``."""
        self.out.write(_safe(text) + "\n")

    def hand_over(self, record: dict[str, Any], seats: list[Seat]) -> None:
        """Log who took the pot."""
        paid = ", ".join(
            f"{seats[int(n)].avatar} +{chips}" for n, chips in record["payouts"].items()
        )
        self.out.write(_safe(f"hand {record['hand']}: pot {record['pot']}: {paid}") + "\n")


class LiveScreen:
    """The standings, redrawn at most every ``interval`` seconds, with the last events."""

    def __init__(self, out: TextIO, clock: Clock, interval: float = 0.25) -> None:
        self.out = out
        self.clock = clock
        self.interval = interval
        self.events: list[str] = []
        self._last = float("-inf")

    def event(self, text: str) -> None:
        """Remember ``text`` for the bottom of the screen."""
        self.events = [*self.events[-4:], text]

    def hand_over(self, record: dict[str, Any], seats: list[Seat]) -> None:
        """Redraw if the last drawing is old enough."""
        if self.clock.now() - self._last < self.interval:
            return
        self._last = self.clock.now()
        lines = [f"three-card stud — hand {record['hand']}", "", *standings(seats), ""]
        self.out.write(CLEAR + _safe("\n".join([*lines, *self.events])) + "\n")
        self.out.flush()


class HistoryWriter:
    """One JSON line per hand."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def event(self, text: str) -> None:
        """Events are not history."""

    def hand_over(self, record: dict[str, Any], seats: list[Seat]) -> None:
        """Write the hand."""
        self.out.write(json.dumps(record, ensure_ascii=False) + "\n")


class Observers:
    """Several observers as one."""

    def __init__(self, *observers: Observer) -> None:
        self.observers = observers

    def event(self, text: str) -> None:
        """Tell every observer."""
        for observer in self.observers:
            observer.event(text)

    def hand_over(self, record: dict[str, Any], seats: list[Seat]) -> None:
        """Tell every observer."""
        for observer in self.observers:
            observer.hand_over(record, seats)
