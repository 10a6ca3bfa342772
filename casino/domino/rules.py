"""The rules of one hand of two-player dominoes, pure: who opens, the deal, the line of play,
the boneyard, the moves and how a hand ends.

A :class:`Deal` fixes every tile's place (shuffled with an injected :class:`random.Random`, or
stacked from a tiles file); :class:`HandState` then takes moves and refuses illegal ones with
:class:`~casino.errors.IllegalAction`. Seat 0 is the member, seat 1 the computer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from casino.domino.tiles import ALL_TILES, Tile, parse_tile
from casino.errors import IllegalAction, ParseError

MEMBER, COMPUTER = 0, 1
"""The two seats."""
HAND_SIZE = 7
"""Tiles dealt to each player."""
TIMEOUTS_TO_LOSE = 3
"""Consecutive turns timed out that lose the hand."""


class End(Enum):
    """The two open ends of the line of play."""

    LEFT = "left"
    RIGHT = "right"


class Finish(Enum):
    """How a hand ended."""

    DOMINO = "domino"  # a player played their last tile
    BLOCKED = "blocked"  # nobody could play: the lower pip total wins
    TIMEOUTS = "timeouts"  # three consecutive time-outs


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a hand: the winner (``None`` for a draw), how, and the pips left."""

    winner: int | None
    finish: Finish
    pips: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Deal:
    """Every tile's place for one hand.

    ``draws`` are the opening draws, (member's tile, computer's tile) each; all but the last
    are ties. ``order`` is the 28 tiles as dealt: 7 to the member, 7 to the computer, then the
    boneyard in the order it is drawn from.
    """

    draws: tuple[tuple[Tile, Tile], ...]
    order: tuple[Tile, ...]

    def __post_init__(self) -> None:
        if sorted(self.order) != list(ALL_TILES):
            raise ParseError("a deal must hold each of the 28 tiles exactly once")
        if not self.draws or any(a == b for a, b in self.draws):
            raise ParseError("the opening draws are two different tiles each")
        ties = [a.pips == b.pips for a, b in self.draws]
        if ties[-1] or not all(ties[:-1]):
            raise ParseError("only the last opening draw may have different totals")

    @property
    def opener(self) -> int:
        """The seat whose drawn tile had the higher total."""
        member, computer = self.draws[-1]
        return MEMBER if member.pips > computer.pips else COMPUTER


def shuffled_deal(rng: random.Random) -> Deal:
    """Draw for the opener (again on equal totals), put the tiles back, shuffle, deal."""
    pool = list(ALL_TILES)
    draws: list[tuple[Tile, Tile]] = []
    while True:
        rng.shuffle(pool)
        draws.append((pool[0], pool[1]))
        if pool[0].pips != pool[1].pips:
            break
    rng.shuffle(pool)
    return Deal(tuple(draws), tuple(pool))


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile on the line, as it lies: ``left`` half, ``right`` half."""

    tile: Tile
    left: int
    right: int


@dataclass(frozen=True, slots=True)
class Move:
    """Playing ``tile`` at ``end`` (the end does not matter for the opening tile)."""

    tile: Tile
    end: End


@dataclass(frozen=True, slots=True)
class Turn:
    """What a seat did on its turn: the tiles it drew, then its move (``None``: it passed)."""

    drawn: tuple[Tile, ...]
    move: Move | None


@dataclass
class HandState:
    """One hand in play. Mutated only through :meth:`play`, :meth:`draw`, :meth:`pass_turn`
    and :meth:`time_out`; each checks the move is legal and whose turn it is.

    ``timeouts`` counts, per seat, the turns in a row that ended by the clock; a turn the
    seat ends itself (a play or a pass) ends the run. A draw does not end the turn, so a
    turn in which the seat drew and then ran out of time has timed out."""

    hands: tuple[list[Tile], list[Tile]]
    boneyard: list[Tile]
    turn: int
    line: list[Placed] = field(default_factory=list)
    timeouts: list[int] = field(default_factory=lambda: [0, 0])
    lacks: tuple[set[int], set[int]] = field(default_factory=lambda: (set(), set()))
    result: Result | None = None

    @classmethod
    def start(cls, deal: Deal) -> HandState:
        """The hand as ``deal`` lays it out, the opener to play."""
        tiles = list(deal.order)
        hands = (tiles[:HAND_SIZE], tiles[HAND_SIZE : 2 * HAND_SIZE])
        return cls(hands, tiles[2 * HAND_SIZE :], deal.opener)

    # ------------------------------------------------------------ what is possible

    @property
    def ends(self) -> tuple[int, int] | None:
        """The open ends (left, right), or ``None`` before the opening tile."""
        if not self.line:
            return None
        return self.line[0].left, self.line[-1].right

    def fits(self, tile: Tile) -> list[End]:
        """The ends ``tile`` can be played at (both for the opening tile)."""
        ends = self.ends
        if ends is None:
            return [End.LEFT]
        return [end for end, number in zip(End, ends, strict=True) if tile.has(number)]

    def moves(self, seat: int) -> list[Move]:
        """Every legal play for ``seat``, in hand order, left end first."""
        return [Move(tile, end) for tile in self.hands[seat] for end in self.fits(tile)]

    def can_draw(self, seat: int) -> bool:
        """Whether ``seat`` must draw: nothing fits and the boneyard has tiles."""
        return bool(self.boneyard) and not self.moves(seat)

    def can_pass(self, seat: int) -> bool:
        """Whether ``seat`` may pass: nothing fits and the boneyard is empty."""
        return not self.boneyard and not self.moves(seat)

    def pips(self) -> tuple[int, int]:
        """The pip totals still in each player's hand."""
        return sum(t.pips for t in self.hands[0]), sum(t.pips for t in self.hands[1])

    # ------------------------------------------------------------ moves

    def play(self, seat: int, tile: Tile, end: End) -> Placed:
        """``seat`` plays ``tile`` at ``end``; the hand ends if it was their last tile."""
        self._check_turn(seat)
        if tile not in self.hands[seat]:
            raise IllegalAction(f"{tile.ascii()} is not in the hand")
        if self.line and end not in self.fits(tile):  # the opening tile goes at either
            raise IllegalAction(f"{tile.ascii()} does not fit the {end.value} end")
        placed = self._place(tile, end)
        self.timeouts[seat] = 0  # a turn ended by a move: the run of time-outs is over
        self.hands[seat].remove(tile)
        self.lacks[seat].difference_update((tile.low, tile.high))
        if not self.hands[seat]:
            self.result = Result(seat, Finish.DOMINO, self.pips())
        else:
            self._next()
        return placed

    def draw(self, seat: int) -> list[Tile]:
        """``seat`` draws from the boneyard until a tile fits or it is empty; the drawn tiles."""
        self._check_turn(seat)
        if not self.can_draw(seat):
            raise IllegalAction("drawing is allowed only when no tile fits")
        self.lacks[seat].update(self.ends or ())
        drawn: list[Tile] = []
        while self.boneyard and not self.moves(seat):
            drawn.append(self.boneyard.pop(0))
            self.hands[seat].append(drawn[-1])
        return drawn

    def pass_turn(self, seat: int) -> None:
        """``seat`` passes (nothing fits, the boneyard is empty)."""
        self._check_turn(seat)
        if not self.can_pass(seat):
            raise IllegalAction("passing is allowed only when nothing fits and none can be drawn")
        self.lacks[seat].update(self.ends or ())
        self.timeouts[seat] = 0  # a turn ended by a move: the run of time-outs is over
        self._next()

    def time_out(self, seat: int) -> Turn | None:
        """``seat``'s time ran out on this turn. The third turn in a row to time out loses
        the hand (``None``, no move is made). Otherwise the automatic move ends the turn (the
        seed: "se coloca automáticamente una ficha que pueda jugarse"): the first playable
        tile in hand order (left end first); when none fits, drawing until one does and
        playing it; a pass when the boneyard runs out first. A turn times out once at most:
        the automatic move always ends it."""
        self._check_turn(seat)
        streak = self.timeouts[seat] + 1
        if streak >= TIMEOUTS_TO_LOSE:
            self.timeouts[seat] = streak
            self.result = Result(1 - seat, Finish.TIMEOUTS, self.pips())
            return None
        turn = self.automatic(seat)
        self.timeouts[seat] = streak  # after the move, which would end the run
        return turn

    def automatic(self, seat: int) -> Turn:
        """Play ``seat``'s whole turn automatically (see :meth:`time_out`) and say what was
        done: the tiles drawn, then the tile played (``None``: a pass)."""
        drawn = tuple(self.draw(seat)) if self.can_draw(seat) else ()
        moves = self.moves(seat)
        if not moves:
            self.pass_turn(seat)
            return Turn(drawn, None)
        self.play(seat, moves[0].tile, moves[0].end)
        return Turn(drawn, moves[0])

    # ------------------------------------------------------------ internals

    def _check_turn(self, seat: int) -> None:
        if self.result is not None:
            raise IllegalAction("the hand is over")
        if seat != self.turn:
            raise IllegalAction("it is not that player's turn")

    def _place(self, tile: Tile, end: End) -> Placed:
        ends = self.ends
        if ends is None:
            placed = Placed(tile, tile.low, tile.high)
            self.line.append(placed)
        elif end is End.LEFT:
            placed = Placed(tile, tile.other(ends[0]), ends[0])
            self.line.insert(0, placed)
        else:
            placed = Placed(tile, ends[1], tile.other(ends[1]))
            self.line.append(placed)
        return placed

    def _next(self) -> None:
        """Hand the turn over, or end a blocked hand (lower pip total wins; equal: a draw)."""
        self.turn = 1 - self.turn
        if self.boneyard or self.moves(0) or self.moves(1):
            return
        member, computer = self.pips()
        winner = None if member == computer else (MEMBER if member < computer else COMPUTER)
        self.result = Result(winner, Finish.BLOCKED, (member, computer))


def parse_deals(text: str, source: str = "tiles file") -> list[Deal]:
    """The stacked deals of a tiles file: one per non-blank line (``#`` starts a comment),
    ``DRAWS / ORDER``: DRAWS are pairs of tiles (member's, computer's), all but the last pair
    of equal totals; ORDER is the 28 tiles as dealt (member 7, computer 7, then the boneyard in
    drawing order). A tile is written ``3-5``, ``3|5`` or ``[3|5]``."""
    deals: list[Deal] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.partition("#")[0].strip()
        if not line:
            continue
        try:
            draws, slash, order = line.partition("/")
            if not slash:
                raise ParseError("expected the opening draws, '/', then the 28 tiles")
            deals.append(_deal(draws.split(), order.split()))
        except ParseError as error:
            raise ParseError(f"{source}, line {number}: {error}") from None
    if not deals:
        raise ParseError(f"{source}: no deal in it")
    return deals


def _deal(draws: Sequence[str], order: Sequence[str]) -> Deal:
    if not draws or len(draws) % 2:
        raise ParseError("the opening draws come in pairs (member's tile, computer's tile)")
    tiles = [parse_tile(token) for token in draws]
    pairs = tuple((tiles[i], tiles[i + 1]) for i in range(0, len(tiles), 2))
    return Deal(pairs, tuple(parse_tile(token) for token in order))
