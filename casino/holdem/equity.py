"""Hand equity: seeded Monte Carlo on the fast evaluator, and exact enumeration where cheap.

:func:`equity` estimates the share of the pot a hand wins against ``opponents`` unknown hands
(ties share), dealing the rest of the board and the opponents' cards at random from the
cards not seen. An opponent may be given a *range*: a minimum :func:`preflop_score`, so a
player who raised is assumed to hold a better-than-random hand (rejection sampling).

The inner loop is the evaluator's own arithmetic written out (:mod:`casino.cards.evaluator`
explains the keys): a showdown is a few additions and one dict look-up per player, and the
hero's key is shared by all the opponents of one deal. Cards are drawn by rejection on a
bit mask, which costs less than :meth:`random.Random.sample` for seven cards of fifty.

:func:`exact_ranged_equity` enumerates instead, with the same ranges, on the same arithmetic;
:func:`is_cheap` says where the bots use it (heads-up on the turn and river: at most 45,540
showdowns, 8 ms of CPU at most). :func:`exact_equity`, heads-up without ranges on the plain
:func:`~casino.cards.evaluator.evaluate7`, is the slow reference that checks them.
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


NO_FLOOR = -99.0
"""The floor of an opponent without a range: below every :func:`preflop_score`."""


def is_cheap(board: Sequence[int], opponents: int) -> bool:
    """Whether :func:`exact_ranged_equity` is cheap enough for a bot's decision: heads-up on
    the turn (46 river cards × at most 990 holdings: 45,540 showdowns, about 8 ms of CPU
    without a range, 1.5 ms with the bots' floor) or on the river (at most 990: under 1 ms).
    A second opponent multiplies the deals by about 900 (100 ms on the river), the flop's
    two cards to come by about 500: those spots keep Monte Carlo (300 deals: 0.4 to 2.5 ms).
    Figures: ``benchmarks/bench_holdem.py``."""
    return opponents == 1 and len(board) >= 4


def exact_ranged_equity(
    hero: Sequence[int], board: Sequence[int], opponents: int = 1, floors: Sequence[float] = ()
) -> float:
    """The hero's exact share of the pot against ``opponents`` hands with the same ranges as
    :func:`equity`: ``floors[i]`` (optional) is opponent ``i``'s minimum :func:`preflop_score`.

    Every deal of the unseen cards is enumerated: each opponent holding consistent with its
    floor and every runout of the board with none of their cards, each such deal weighted
    equally, ties sharing. (That is the posterior of a range: the holdings were dealt before
    the board. :func:`equity` deals the board first and rejects holdings after it, which
    weights a runout's holdings together; the two differ only slightly when a floor holds.)
    If no deal satisfies the floors (say, every hand above them uses a card the hero holds),
    the floors are dropped and every deal counts, as :func:`exact_equity` does.

    Its cost is the number of deals: cheap heads-up on the turn and river (:func:`is_cheap`),
    prohibitive much beyond. The inner loop is :func:`equity`'s arithmetic: one addition and
    one dict look-up per showdown off a flush.
    """
    if opponents < 1:
        return 1.0
    floor_of = list(floors)[:opponents] + [NO_FLOOR] * (opponents - len(floors))
    share = _enumerate(hero, board, floor_of)
    if share is None:
        share = _enumerate(hero, board, [NO_FLOOR] * opponents)
    assert share is not None  # some deal always exists without floors (52 cards are enough)
    return share


def _enumerate(hero: Sequence[int], board: Sequence[int], floor_of: list[float]) -> float | None:
    """:func:`exact_ranged_equity` with these floors, or None when no deal satisfies them."""
    evaluator.load_tables()
    keys = evaluator._KEYS
    values = evaluator._RANK_VALUES
    seen = set(hero) | set(board)
    deck = [card for card in range(52) if card not in seen]
    pairs = [(1 << a | 1 << b, keys[a] + keys[b], a, b) for a, b in itertools.combinations(deck, 2)]
    ranges = [
        [pair for pair in pairs if preflop_score(pair[2], pair[3]) >= floor] for floor in floor_of
    ]
    if not all(ranges):
        return None
    base = evaluator._SUIT_START + sum(keys[card] for card in board)
    total = 0.0
    count = 0
    for runout in itertools.combinations(deck, 5 - len(board)):
        used = 0
        full = base
        for card in runout:
            used |= 1 << card
            full += keys[card]
        cards = [*board, *runout]
        key = full + keys[hero[0]] + keys[hero[1]]
        mine = evaluate7([*hero, *cards]) if key & _FLUSH_BITS else values[key >> _RANK_SHIFT]
        showdowns = _heads_up if len(ranges) == 1 else _showdowns
        seat_total, seat_count = showdowns(mine, full, cards, ranges, used)
        total += seat_total
        count += seat_count
    return total / count if count else None


def _heads_up(
    mine: int, full: int, cards: list[int], ranges: list[list[tuple[int, int, int, int]]], used: int
) -> tuple[float, int]:
    """:func:`_showdowns` for one opponent (the bots' case), without its recursion."""
    values = evaluator._RANK_VALUES
    wins = ties = deals = 0
    for mask, pair_key, a, b in ranges[0]:
        if mask & used:
            continue
        key = full + pair_key
        theirs = evaluate7([a, b, *cards]) if key & _FLUSH_BITS else values[key >> _RANK_SHIFT]
        deals += 1
        if mine > theirs:
            wins += 1
        elif mine == theirs:
            ties += 1
    return wins + ties / 2, deals


def _showdowns(
    mine: int, full: int, cards: list[int], ranges: list[list[tuple[int, int, int, int]]], used: int
) -> tuple[float, int]:
    """The hero's pot shares summed over every deal of the opponents' holdings (of
    ``ranges``, disjoint from ``used`` and each other) on this full board, and their number."""
    values = evaluator._RANK_VALUES
    strengths: dict[int, int] = {}
    for mask, pair_key, a, b in {pair for held in ranges for pair in held}:
        if not mask & used:
            key = full + pair_key
            if key & _FLUSH_BITS:
                strengths[mask] = evaluate7([a, b, *cards])
            else:
                strengths[mask] = values[key >> _RANK_SHIFT]
    total = 0.0
    count = 0
    last = len(ranges) - 1

    def deal(seat: int, taken: int, best: int, ties: int) -> None:
        nonlocal total, count
        for mask, _, _, _ in ranges[seat]:
            if mask & taken:
                continue
            theirs = strengths[mask]
            if theirs > best:
                seat_best, seat_ties = theirs, 0
            elif theirs == best:
                seat_best, seat_ties = best, ties + 1
            else:
                seat_best, seat_ties = best, ties
            if seat == last:
                count += 1
                if seat_best == mine:
                    total += 1.0 / seat_ties
            else:
                deal(seat + 1, taken | mask, seat_best, seat_ties)

    deal(0, used, mine, 1)
    return total, count
