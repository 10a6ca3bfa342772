"""Hand equity: seeded Monte Carlo on the fast evaluator, and exact enumeration to check it.

:func:`equity` estimates the share of the pot a hand wins against ``opponents`` unknown hands
(ties share), dealing the rest of the board and the opponents' cards at random from the
cards not seen. An opponent may be given a *range*: a minimum :func:`preflop_score`, so a
player who raised is assumed to hold a better-than-random hand (rejection sampling).

The inner loop is the evaluator's own arithmetic written out (:mod:`casino.cards.evaluator`
explains the keys): a showdown is a few additions and one dict look-up per player, and the
hero's key is shared by all the opponents of one deal. Cards are drawn by rejection on a
bit mask, which costs less than :meth:`random.Random.sample` for seven cards of fifty.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from casino.cards import evaluator
from casino.cards.evaluator import evaluate7

_RANK_SHIFT = 16
_FLUSH_BITS = 0x8888


def preflop_score(first: int, second: int) -> float:
    """Bill Chen's formula for two hole cards (indices): about -1 (7-2 offsuit) to 20 (aces)."""
    high, low = max(first >> 2, second >> 2), min(first >> 2, second >> 2)
    score = (10.0, 8.0, 7.0, 6.0)[12 - high] if high >= 9 else (high + 2) / 2
    if high == low:
        return max(5.0, score * 2)
    if first & 3 == second & 3:
        score += 2
    gap = high - low - 1
    score -= (0, 1, 2, 4, 5, 5, 5, 5, 5, 5, 5, 5)[min(gap, 11)] if gap < 4 else 5
    if gap <= 1 and high < 10:
        score += 1
    return score


def equity(
    hero: Sequence[int],
    board: Sequence[int],
    opponents: int,
    samples: int,
    rng: random.Random,
    floors: Sequence[float] = (),
) -> float:
    """The hero's estimated share of the pot against ``opponents`` hands, from ``samples``
    deals. ``floors[i]`` (optional) is opponent ``i``'s minimum :func:`preflop_score`."""
    if opponents < 1 or samples < 1:
        return 1.0
    evaluator.load_tables()
    keys = evaluator._KEYS
    values = evaluator._RANK_VALUES
    seen = set(hero) | set(board)
    deck = [card for card in range(52) if card not in seen]
    size = len(deck)
    deck_keys = [keys[card] for card in deck]
    missing = 5 - len(board)
    base = evaluator._SUIT_START + sum(keys[card] for card in board)
    hero_base = base + keys[hero[0]] + keys[hero[1]]
    floor_of = list(floors) + [-99.0] * (opponents - len(floors))
    ranged = any(floor > -99 for floor in floor_of)
    rnd = rng.random
    total = 0.0
    for _ in range(samples):
        taken = 0
        extra = 0
        for _ in range(missing):
            position = int(rnd() * size)
            while taken >> position & 1:
                position = int(rnd() * size)
            taken |= 1 << position
            extra += deck_keys[position]
        dealt = taken
        key = hero_base + extra
        if key & _FLUSH_BITS:
            mine = evaluate7([*hero, *board, *_picked(deck, dealt)])
        else:
            mine = values[key >> _RANK_SHIFT]
        best, ties = mine, 1
        for opponent in range(opponents):
            while True:
                a = int(rnd() * size)
                b = int(rnd() * size)
                if a == b or taken >> a & 1 or taken >> b & 1:
                    continue
                if ranged and preflop_score(deck[a], deck[b]) < floor_of[opponent]:
                    continue
                break
            taken |= 1 << a | 1 << b
            key = base + extra + deck_keys[a] + deck_keys[b]
            if key & _FLUSH_BITS:
                theirs = evaluate7([deck[a], deck[b], *board, *_picked(deck, dealt)])
            else:
                theirs = values[key >> _RANK_SHIFT]
            if theirs > best:
                best, ties = theirs, 0
            elif theirs == best:
                ties += 1
        if best == mine:
            total += 1.0 / ties
    return total / samples


def _picked(deck: list[int], mask: int) -> list[int]:
    """The cards of ``deck`` at the positions set in ``mask``."""
    return [card for position, card in enumerate(deck) if mask >> position & 1]


def exact_equity(hero: Sequence[int], board: Sequence[int]) -> float:
    """The hero's exact share of the pot heads-up against a random hand, by enumerating
    every opponent holding and every runout (meant for turn and river spots)."""
    seen = set(hero) | set(board)
    deck = [card for card in range(52) if card not in seen]
    total = 0.0
    count = 0
    for runout in itertools.combinations(deck, 5 - len(board)):
        full = [*board, *runout]
        mine = evaluate7([*hero, *full])
        rest = [card for card in deck if card not in runout]
        for a, b in itertools.combinations(rest, 2):
            theirs = evaluate7([a, b, *full])
            total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            count += 1
    return total / count
