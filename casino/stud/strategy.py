"""Our player's strategy: odds from every visible card, bets sized by value and by risk.

For each decision the strategy counts the unseen cards by rank (52 minus its own cards and
every up card it has seen this hand) and computes, by enumeration over those ranks,

- the chance its final hand beats each opponent's (an opponent's unknown cards are its hole
  card and, before the second up card, its next up card); exact after the second up card,
  and before it exact but for the one card our own next card takes from the opponent's
  deck. Opponents are combined as if independent. Facing a bet, the opponent that is worst
  for us is assumed to hold a pair already (a player who bets usually does);
- the chance its hole card is the highest spade in the hole among the players still in, or
  that nobody holds a spade there (then the hand winner takes the whole pot): exact.

Together these give its *equity*: the share of the final pot it expects. It calls when the
equity pays for the price, raises when its equity beats a fair share by a margin, probes
with $1 when nobody has bet against one or two opponents, and never commits to one hand
more than a Kelly-style fraction of its stack: surviving longest is the goal, and a 70 %
favourite that bets everything is out three times in ten.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from casino.cards import FULL_DECK, Card, Suit
from casino.cards.three import three_card_strength
from casino.stud.protocol import MAX_RAISE, Action, Bet, BetRequest, Fold, legal_range

RANKS = range(2, 15)


@dataclass(frozen=True)
class Odds:
    """What the strategy knows about its chances in the hand."""

    win: float
    """Chance of the best poker hand (a tie counts half)."""
    spade: float
    """Chance of the highest spade in the hole among the players still in."""
    no_spade: float
    """Chance that no player still in holds a spade in the hole."""
    opponents: int

    @property
    def equity(self) -> float:
        """The expected share of the final pot."""
        if self.spade > 0:
            return 0.5 * self.win + 0.5 * self.spade
        return self.win * (0.5 + 0.5 * self.no_spade)


_RANK_OF = [card.rank.number for card in FULL_DECK]
_SPADE = [card.suit is Suit.SPADES for card in FULL_DECK]


def _unseen_counts(seen: set[int]) -> tuple[list[int], int, list[int]]:
    """Unseen cards per rank number (index 0..14), their total, and unseen spade ranks;
    ``seen``: the :attr:`Card.index` of every card seen."""
    counts = [0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    spades = set(RANKS)
    for index in seen:
        rank = _RANK_OF[index]
        counts[rank] -= 1
        if _SPADE[index]:
            spades.discard(rank)
    return counts, 52 - len(seen), sorted(spades)


Getter = Callable[[list[int]], tuple[int, ...]]


def _getter(indices: list[int]) -> Getter:
    """``counts → tuple(counts[i] for i in indices)``, at C speed."""
    if len(indices) == 1:
        return lambda counts: (counts[indices[0]],)
    return operator.itemgetter(*indices)


_TWICE, _PAIR, _ONE = 15, 30, 45
"""Where :func:`_factors` puts twice each count, the pairs of each rank, and a 1."""


_DOUBLED = [2 * count for count in range(5)]
_ORDERED_PAIRS = [count * (count - 1) for count in range(5)]


def _factors(counts: list[int]) -> list[int]:
    """What a way's count is a product of, by index: the unseen cards of rank ``r`` (at
    ``r``), twice that (at ``_TWICE + r``), the ordered pairs of them (at ``_PAIR + r``), 1."""
    return [
        *counts,
        *map(_DOUBLED.__getitem__, counts),
        *map(_ORDERED_PAIRS.__getitem__, counts),
        1,
    ]


@dataclass(frozen=True, eq=False)  # one per (shown, strong), hashed by identity
class _Ways:
    """Every way an opponent showing some cards can finish, sorted by final strength, each
    counted as the product of two of the :func:`_factors` of the unseen cards.

    Before the second up card the two unknown ranks come in either order with the same
    final hand: the pair ``first <= second`` stands for both (twice the count), which halves
    the work and changes no running count at a change of strength (the only counts read)."""

    values: list[int]
    left: Getter
    """Each way's first factor."""
    right: Getter
    """Each way's second factor."""
    hidden: Getter | None = None
    """Each way's count from the :func:`_hidden_counts` (which every opponent showing one
    card shares), where they hold it."""


@functools.cache
def _ways(shown: tuple[int, ...], strong: bool) -> _Ways:
    """The ways for an opponent showing ``shown``; ``strong``: only those in which what it
    holds now (hole and up cards) has a pair."""
    ways: list[tuple[int, int, int]]  # (strength, first factor, second factor)
    if len(shown) == 2:  # its hole card, of any rank
        ways = [
            (three_card_strength(shown[0], shown[1], rank), rank, _ONE)
            for rank in RANKS
            if not strong or len({rank, *shown}) < 3
        ]
    elif strong:  # a hole card of the rank it shows, then its next up card
        pair = shown[0]
        ways = [
            (three_card_strength(pair, pair, rank), *((pair, rank) if rank != pair else _two(rank)))
            for rank in RANKS
        ]
    else:  # a hole card and a next up card, in either order
        ways = [
            (three_card_strength(shown[0], first, second), _TWICE + first, second)
            if first < second
            else (three_card_strength(shown[0], first, first), *_two(first))
            for first in RANKS
            for second in RANKS
            if first <= second
        ]
    ways.sort()
    left, right = _getter([way[1] for way in ways]), _getter([way[2] for way in ways])
    hidden = None
    if len(shown) == 1 and not strong:
        hidden = _getter([_HIDDEN.index(way[1:]) for way in ways])
    return _Ways([way[0] for way in ways], left, right, hidden)


_HIDDEN = [
    (_TWICE + first, second) if first < second else (_PAIR + first, _ONE)
    for first in RANKS
    for second in RANKS
    if first <= second
]
"""The factors of every way an opponent's two unknown cards can be (a hole card and a next
up card, either order), the same for each card it shows."""
_HIDDEN_LEFT = _getter([pair[0] for pair in _HIDDEN])
_HIDDEN_RIGHT = _getter([pair[1] for pair in _HIDDEN])


def _hidden_counts(factors: list[int]) -> list[int]:
    """The count of each of :data:`_HIDDEN`, given the :func:`_factors` of the unseen cards
    (worked out once a decision for all the opponents showing one card)."""
    return list(map(operator.mul, _HIDDEN_LEFT(factors), _HIDDEN_RIGHT(factors)))


def _two(rank: int) -> tuple[int, int]:
    """The factors of two unknown cards both of ``rank``: its ordered pairs, times 1."""
    return _PAIR + rank, _ONE


def _running_counts(ways: _Ways, factors: list[int], hidden: list[int] | None = None) -> list[int]:
    """How many ways finish at each strength or below: a 0 first, then one running count per
    way of ``ways``, given the :func:`_factors` of the unseen cards (and their
    :func:`_hidden_counts`, if worked out)."""
    if hidden is not None and ways.hidden is not None:
        weights: Iterable[int] = ways.hidden(hidden)
    else:
        weights = map(operator.mul, ways.left(factors), ways.right(factors))
    return list(itertools.accumulate(weights, initial=0))


@functools.cache  # bounded: the ways of each shown card(s), against each set of our hands
def _places(ways: _Ways, mine: tuple[int, ...]) -> tuple[Getter, Getter]:
    """Where each of ``mine`` falls among the sorted strengths of ``ways``: getters of the
    running counts (as :func:`_running_counts` gives them) of the ways below it and of the
    ways up to it (a tie). They depend on no count, so they are worked out once."""
    below = [bisect.bisect_left(ways.values, value) for value in mine]
    upto = [bisect.bisect_right(ways.values, value) for value in mine]
    return _getter(below), _getter(upto)


def _beat_chances(
    shown: tuple[int, ...],
    strong: bool,
    mine: tuple[int, ...],
    factors: list[int],
    hidden: list[int] | None = None,
) -> list[float]:
    """The chance that each of ``mine`` beats an opponent showing ``shown`` (``strong``: that
    holds a pair now), a tie counting half, given the :func:`_factors` of the unseen cards
    (and their :func:`_hidden_counts`, if worked out)."""
    ways = _ways(shown, strong)
    running = _running_counts(ways, factors, hidden)
    total = running[-1]
    if not total:
        return [1.0] * len(mine)
    below, upto = _places(ways, mine)
    ties = map(operator.add, below(running), upto(running))
    return list(map(operator.truediv, ties, itertools.repeat(2 * total)))


def hand_odds(request: BetRequest, seen_before: Sequence[Card] = ()) -> Odds:
    """The odds for ``request``; ``seen_before``: up cards seen earlier in the hand."""
    rank = _RANK_OF
    mine = [rank[card.index] for card in request.cards]
    opponents = list(request.table)
    if request.up in opponents:
        opponents.remove(request.up)
    seen = {card.index for cards in (request.cards, seen_before, *request.table) for card in cards}
    counts, total, spades = _unseen_counts(seen)
    shown = [[rank[card.index] for card in cards] for cards in opponents]
    win = _win_chance(mine, shown, counts, total, request.to_match > 0)
    spade, no_spade = _spade_chances(request.hole, spades, total, len(opponents))
    return Odds(win, spade, no_spade, len(opponents))


def _win_chance(
    mine: list[int], opponents: list[list[int]], counts: list[int], total: int, facing: bool
) -> float:
    """Chance of the best hand; ``facing`` a bet: one opponent (the worst case for us) is
    assumed to hold a pair already, as a player who bets usually does.

    Each distinct opponent (by the ranks it shows) is scored against all our outcomes at
    once; the products and the sum are taken in the order of the plain formula
    ``sum(weight * prod(beats) * min(strong / beat))`` so the result is the same float."""
    if not opponents:
        return 1.0
    if len(mine) == 3:
        weights = [1.0]
        ours: tuple[int, ...] = (three_card_strength(mine[0], mine[1], mine[2]),)
    else:  # each rank still unseen as our third card
        ranks = counts[2:]
        weights = [count / total for count in ranks if count]
        ours = tuple(itertools.compress(_outcomes(mine[0], mine[1]), ranks))
    keys = [tuple(shown) for shown in opponents]
    scores = _scores_for(counts, ours)
    plain = [scores.plain(key) for key in keys]
    beats = map(math.prod, zip(*plain, strict=True))  # per outcome
    terms = map(operator.mul, weights, beats)  # the sum left to right, as ``+=`` takes it
    if not facing:
        return functools.reduce(operator.add, terms, 0.0)
    worst = map(min, zip(*[scores.ratios(key) for key in keys], strict=True))
    return functools.reduce(operator.add, map(operator.mul, terms, worst), 0.0)


class _Scores:
    """Each opponent's beat chances (by the ranks it shows) against our outcomes, for one
    set of unseen counts: each distinct opponent is scored once a decision, and a player
    asked again in the same round (after a raise: the same cards seen) scores none again."""

    def __init__(self, counts: tuple[int, ...], ours: tuple[int, ...]) -> None:
        self.state = (counts, ours)
        self._factors = _factors(list(counts))
        self._hidden: list[int] | None = None
        self._plain: dict[tuple[int, ...], list[float]] = {}
        self._ratios: dict[tuple[int, ...], list[float]] = {}

    def plain(self, key: tuple[int, ...]) -> list[float]:
        """The chance that each of our outcomes beats an opponent showing ``key``."""
        found = self._plain.get(key)
        if found is None:
            if len(key) == 1 and self._hidden is None:
                self._hidden = _hidden_counts(self._factors)
            ours, factors = self.state[1], self._factors
            found = self._plain[key] = _beat_chances(key, False, ours, factors, self._hidden)
        return found

    def ratios(self, key: tuple[int, ...]) -> list[float]:
        """Each outcome's chance against that opponent holding a pair now, over its plain
        chance (0 where the plain chance is 0)."""
        found = self._ratios.get(key)
        if found is None:
            strong = _beat_chances(key, True, self.state[1], self._factors)
            pairs = zip(strong, self.plain(key), strict=True)
            found = self._ratios[key] = [pair / beat if beat else 0.0 for pair, beat in pairs]
        return found


_LAST_SCORES = [_Scores((), ())]
"""The scores of the last decision (see :class:`_Scores`)."""


def _scores_for(counts: list[int], ours: tuple[int, ...]) -> _Scores:
    """The last decision's scores if they are for ``counts`` and ``ours``, else new ones
    (kept for the next decision)."""
    state = (tuple(counts), ours)
    last = _LAST_SCORES[0]
    if last.state != state:
        last = _LAST_SCORES[0] = _Scores(*state)
    return last


@functools.cache
def _outcomes(first: int, second: int) -> tuple[int, ...]:
    """The strength of ``first``, ``second`` and each rank of :data:`RANKS` as the third
    card (our possible final hands before the second up card, worked out once a pair)."""
    return tuple(three_card_strength(first, second, rank) for rank in RANKS)


def _spade_chances(
    hole: Card, spades: list[int], total: int, opponents: int
) -> tuple[float, float]:
    """(chance ours is the highest spade in the hole, chance nobody has one)."""
    if opponents == 0:
        return (1.0, 0.0) if hole.suit is Suit.SPADES else (0.0, 1.0)
    if _SPADE[hole.index]:  # ``spades`` is sorted: those above ours are at its end
        higher = len(spades) - bisect.bisect_right(spades, _RANK_OF[hole.index])
        return _none_among(total, higher, opponents), 0.0
    return 0.0, _none_among(total, len(spades), opponents)


def _none_among(total: int, marked: int, draws: int) -> float:
    """Chance that ``draws`` cards from ``total`` include none of ``marked`` given ones."""
    if draws > total:
        return 0.0
    return math.comb(total - marked, draws) / math.comb(total, draws)


class Strategy:
    """Our player: exact odds, expected-value calls, risk-capped raises."""

    def __init__(
        self,
        margin: float = 0.12,
        max_raises: int = 3,
        floor: int = 3,
        steal: int = 1,
        steal_against: int = 2,
        kelly: float = 0.5,
        call_share: float = 1.0,
    ) -> None:
        self.call_share = call_share
        self.kelly = kelly
        self.margin = margin
        self.max_raises = max_raises
        self.floor = floor
        self.steal = steal
        self.steal_against = steal_against
        self._hand: tuple[Card, Card] | None = None
        self._seen: list[Card] = []
        self._raises = 0
        self._committed = 0

    def decide(self, request: BetRequest) -> Action:
        """A legal reply to ``bet1``/``bet2``."""
        self._track(request)
        allowed = legal_range(request.stack, request.to_match)
        if not allowed:
            return Fold()
        odds = hand_odds(request, self._seen)
        amount = self._amount(request, odds)
        if amount is None:
            return Fold() if request.to_match else Bet(0)
        amount = max(allowed.start, min(amount, allowed.stop - 1))
        if amount > request.to_match:
            self._raises += 1
        self._committed += amount
        return Bet(amount)

    def _track(self, request: BetRequest) -> None:
        key = (request.hole, request.up[0])
        if key != self._hand:
            self._hand, self._seen, self._raises, self._committed = key, [], 0, 0
        if request.round == 1:
            self._seen = [cards[0] for cards in request.table]

    def _amount(self, request: BetRequest, odds: Odds) -> int | None:
        """What to bet this turn, or ``None`` to fold."""
        equity, to_match, pot = odds.equity, request.to_match, request.pot
        budget = request.stack + self._committed
        edge = equity * (odds.opponents + 1) - 1
        # Kelly-style: one hand may cost at most this share of what we had at its start.
        share = self.kelly * max(0.0, edge) / max(1, odds.opponents)
        cap = max(self.floor, budget * min(1.0, share))
        if to_match:
            call_limit = max(cap, budget * equity * self.call_share)
            if equity * (pot + to_match) < to_match or self._committed + to_match > call_limit:
                return None
        if self._raises >= self.max_raises:
            return to_match
        if edge <= self.margin:
            steal = to_match == 0 and odds.opponents <= self.steal_against
            return self.steal if steal else to_match
        raise_by = min(MAX_RAISE, math.ceil(MAX_RAISE * min(1.0, edge)))
        return to_match + max(0, min(raise_by, int(cap) - self._committed - to_match))
