"""Players that choose a tile: the computer's strategy and two baselines to measure it by.

Each is a function of what the seat may know (:class:`View`) returning one of the legal
moves; drawing and passing need no choice (the rules force them). All are deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from casino.domino.rules import HAND_SIZE, End, HandState, Move, Turn, shuffled_deal
from casino.domino.tiles import HIGHEST, Tile

PER_NUMBER = HIGHEST + 2
"""How many tiles show each number (a double counts once): 8 halves, 7 tiles."""


@dataclass(frozen=True, slots=True)
class View:
    """What one seat sees: its tiles, the line, the other side's count and known gaps."""

    hand: tuple[Tile, ...]
    moves: tuple[Move, ...]
    ends: tuple[int, int] | None
    on_line: tuple[Tile, ...]
    their_count: int
    boneyard: int
    they_lack: frozenset[int]

    @classmethod
    def of(cls, state: HandState, seat: int) -> View:
        """``seat``'s view of ``state``."""
        return cls(
            tuple(state.hands[seat]),
            tuple(state.moves(seat)),
            state.ends,
            tuple(placed.tile for placed in state.line),
            len(state.hands[1 - seat]),
            len(state.boneyard),
            frozenset(state.lacks[1 - seat]),
        )


Chooser = Callable[[View], Move]


def _new_ends(view: View, move: Move) -> tuple[int, int]:
    if view.ends is None:
        return move.tile.low, move.tile.high
    left, right = view.ends
    if move.end is End.LEFT:
        return move.tile.other(left), right
    return left, move.tile.other(right)


def _unseen(view: View, number: int) -> int:
    """Tiles showing ``number`` neither on the line nor in this hand: the other side's or the
    boneyard's."""
    seen = sum(t.has(number) for t in view.on_line) + sum(t.has(number) for t in view.hand)
    return HIGHEST + 1 - seen


PIPS, EARLY_PIPS, DOUBLE = 0.6, 0.6, 3.0
"""Per pip, more per pip while the hand is full, and a bonus for a double: shed them early."""
HOLD, BLOCK, OUT, NONE_OUT = 2.0, 4.0, 1.2, 3.0
"""Per new end: per tile of that number kept, if the member drew or passed on it, less per
tile of it still out (scaled by how many of those the member likely holds), and a bonus when
none is out."""
DOMINO = 1000.0
"""Playing the last tile wins the hand."""


def score(view: View, move: Move) -> float:
    """How much the computer likes ``move``: heavy tiles and doubles early, ends it holds
    many of, ends the member drew or passed on, ends of which few tiles are still out."""
    tile = move.tile
    keep = [t for t in view.hand if t != tile]
    if not keep:
        return DOMINO
    early = len(view.hand) / HAND_SIZE
    value = tile.pips * (PIPS + EARLY_PIPS * early) + (DOUBLE if tile.is_double else 0.0)
    their_share = min(1.0, 2 * view.their_count / max(1, view.their_count + view.boneyard))
    for number in set(_new_ends(view, move)):
        unseen = _unseen(view, number)
        value += HOLD * sum(t.has(number) for t in keep)
        value += BLOCK if number in view.they_lack else 0.0
        value -= OUT * unseen * their_share
        value += NONE_OUT if unseen == 0 else 0.0
    return value


def ours(view: View) -> Move:
    """The computer's move: the best :func:`score` (the first of equals)."""
    return max(view.moves, key=lambda move: score(view, move))


def greedy(view: View) -> Move:
    """Baseline: the heaviest playable tile (the first of equals)."""
    return max(view.moves, key=lambda move: move.tile.pips)


def random_legal(rng: random.Random) -> Chooser:
    """Baseline: any legal move, uniformly."""
    return lambda view: rng.choice(view.moves)


def take_turn(state: HandState, seat: int, choose: Chooser) -> Turn:
    """Play ``seat``'s turn with ``choose``: draw if it must, pass if it must, else play."""
    drawn = tuple(state.draw(seat)) if state.can_draw(seat) else ()
    if state.can_pass(seat):
        state.pass_turn(seat)
        return Turn(drawn, None)
    move = choose(View.of(state, seat))
    state.play(seat, move.tile, move.end)
    return Turn(drawn, move)


def play_out(state: HandState, choosers: tuple[Chooser, Chooser]) -> None:
    """Play the hand to its end, each seat with its chooser."""
    while state.result is None:
        take_turn(state, state.turn, choosers[state.turn])


def head_to_head(mine: Chooser, theirs: Chooser, hands: int, seed: int) -> tuple[int, int, int]:
    """(won, lost, drawn) for ``mine`` against ``theirs`` over ``hands`` hands, hand ``i``
    dealt by ``random.Random(seed + i)`` with ``mine`` in seat ``i % 2``."""
    won = lost = drawn = 0
    for index in range(hands):
        state = HandState.start(shuffled_deal(random.Random(seed + index)))
        seat = index % 2
        play_out(state, (mine, theirs) if seat == 0 else (theirs, mine))
        winner = state.result.winner if state.result else None
        if winner is None:
            drawn += 1
        elif winner == seat:
            won += 1
        else:
            lost += 1
    return won, lost, drawn
