"""The seed's strategy for Double Bonus 10/7: its 34-line list, applied literally (pure).

:func:`advise` looks up every way to play a five-card deal on the list and plays the highest
one, returning the held positions *and* the :class:`Rule` (list line) that fired. The seed's
definitions:

- *high card*: Jack, Queen, King or Ace (an ace is high in an ace-low draw too);
- *outside straight*: four consecutive ranks that can be completed at either end (``789T``,
  ``2345``); every other four-card straight draw is *inside* (``679T``, ``A234``, ``JQKA``);
- *straight flush draws* of three cards (three suited cards within five ranks), with *gaps*
  the ranks missing between the lowest and the highest card:
  type 1 when high cards ≥ gaps (except ace-low and 234); type 2 with one gap, or two gaps
  and one high card, or ace-low, or 234; type 3 with two gaps and no high card.

Where one line matches two sets of cards (a paired rank inside a straight draw), the higher
ranks are kept, and of two cards of one rank the rightmost; both choices are worth the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from casino.cards import Card, Category, rank_hand

_TEN, _JACK, _QUEEN, _KING, _ACE = 10, 11, 12, 13, 14


class Rule(Enum):
    """A line of the seed's strategy list, best first; the value is the seed's wording."""

    MADE_TOP = "Straight flush, four of a kind, royal flush"
    ROYAL_4 = "4 to a royal flush"
    THREE_ACES = "Three aces"
    MADE_HAND = "Straight, flush, full house"
    TRIPS = "Three of a kind (except aces)"
    STRAIGHT_FLUSH_4 = "4 to a straight flush"
    TWO_PAIR = "Two pair"
    HIGH_PAIR = "High pair"
    FLUSH_4 = "4 to a flush"
    ROYAL_3 = "3 to a royal flush"
    OUTSIDE_4 = "4 to an outside straight"
    LOW_PAIR = "Low pair"
    AKQJ_UNSUITED = "AKQJ unsuited"
    STRAIGHT_FLUSH_3_TYPE_1 = "3 to a straight flush (type 1)"
    INSIDE_4_HIGH_3 = "4 to an inside straight with 3 high cards"
    QJ_SUITED = "QJ suited"
    FLUSH_3_HIGH_2 = "3 to a flush with 2 high cards"
    SUITED_HIGH_2 = "2 suited high cards"
    INSIDE_4_HIGH_2 = "4 to an inside straight with 2 high cards"
    STRAIGHT_FLUSH_3_TYPE_2 = "3 to a straight flush (type 2)"
    INSIDE_4_HIGH_1 = "4 to an inside straight with 1 high card"
    KQJ_UNSUITED = "KQJ unsuited"
    JT_SUITED = "JT suited"
    QJ_UNSUITED = "QJ unsuited"
    FLUSH_3_HIGH_1 = "3 to a flush with 1 high card"
    QT_SUITED = "QT suited"
    STRAIGHT_FLUSH_3_TYPE_3 = "3 to a straight flush (type 3)"
    KQ_KJ_UNSUITED = "KQ, KJ unsuited"
    ACE = "Ace"
    KT_SUITED = "KT suited"
    JACK_QUEEN_KING = "Jack, Queen or King"
    INSIDE_4_HIGH_0 = "4 to an inside straight with no high cards"
    FLUSH_3_HIGH_0 = "3 to a flush with no high cards"
    DISCARD = "Discard everything"

    @property
    def line(self) -> int:
        """The rule's line number in the seed's list (1 is best)."""
        return _LINES[self]

    def __str__(self) -> str:
        return f"{self.line}. {self.value}"


_LINES = {rule: number for number, rule in enumerate(Rule, start=1)}


@dataclass(frozen=True, slots=True)
class Advice:
    """What to hold: 0-based positions into the dealt hand, and the rule that chose them."""

    held: tuple[int, ...]
    rule: Rule

    def cards(self, hand: Sequence[Card]) -> tuple[Card, ...]:
        """The held cards of ``hand``."""
        return tuple(hand[position] for position in self.held)


class _Deal:
    """The facts about a five-card deal that the rules look at."""

    __slots__ = ("_draws", "by_count", "by_rank", "by_suit", "category", "ranks", "suits")

    def __init__(self, hand: Sequence[Card]) -> None:
        self.category = rank_hand(hand).category
        self.ranks = [card.rank.number for card in hand]
        self.suits = [card.suit for card in hand]
        self.by_rank: dict[int, list[int]] = {}
        self.by_suit: dict[object, list[int]] = {}
        for position, card in enumerate(hand):
            self.by_rank.setdefault(self.ranks[position], []).append(position)
            self.by_suit.setdefault(card.suit, []).append(position)
        self.by_count: dict[int, list[int]] = {}
        for rank in sorted(self.by_rank, reverse=True):
            self.by_count.setdefault(len(self.by_rank[rank]), []).append(rank)
        self._draws: list[_StraightDraw] | None = None

    def rightmost(self, rank: int) -> int:
        """The last position holding ``rank``."""
        return self.by_rank[rank][-1]

    def of_count(self, count: int) -> list[int]:
        """Ranks held exactly ``count`` times, highest first."""
        return self.by_count.get(count, [])

    def straight_draws(self) -> list[_StraightDraw]:
        """Every four-card straight draw of the deal, best ranks first (computed once)."""
        if self._draws is None:
            self._draws = _straight_draws(self)
        return self._draws

    def high_count(self, positions: Sequence[int]) -> int:
        """How many of ``positions`` hold high cards."""
        return sum(1 for position in positions if self.ranks[position] >= _JACK)

    def suited(self, size: int) -> Iterator[list[int]]:
        """Each suit's positions, for suits held exactly ``size`` times."""
        return (ps for ps in self.by_suit.values() if len(ps) == size)

    def suited_with(self, *ranks: int) -> tuple[int, ...] | None:
        """Positions of one card of each of ``ranks``, all of one suit, if the deal has them."""
        for positions in self.by_suit.values():
            found = [p for p in positions if self.ranks[p] in ranks]
            if len(found) == len(ranks) and len({self.ranks[p] for p in found}) == len(ranks):
                return tuple(found)
        return None

    def unsuited(self, *ranks: int) -> tuple[int, ...] | None:
        """Positions of one card of each of ``ranks`` (suits not all alike), if present."""
        if not all(rank in self.by_rank for rank in ranks):
            return None
        held = tuple(sorted(self.rightmost(rank) for rank in ranks))
        return held if len({self.suits[p] for p in held}) > 1 else None


_Matcher = Callable[[_Deal], tuple[int, ...] | None]
"""A rule's test: the positions it keeps, or None when the rule does not apply."""


def _window_of(ranks: frozenset[int]) -> int | None:
    """The low end of a five-rank window holding all ``ranks`` (1 for ace-low), or None."""
    if max(ranks) - min(ranks) <= 4:
        return min(ranks)
    if _ACE in ranks:
        low = {1 if rank == _ACE else rank for rank in ranks}
        if max(low) <= 5:
            return 1
    return None


@dataclass(frozen=True, slots=True)
class _StraightDraw:
    """Four distinct ranks within five: outside or inside, with their high-card count."""

    positions: tuple[int, ...]
    outside: bool
    high: int
    order: tuple[int, ...]  # ranks high to low, to prefer the higher of two draws


def _straight_draws(deal: _Deal) -> list[_StraightDraw]:
    """Every four-card straight draw of the deal, best ranks first."""
    draws = []
    for ranks in combinations(sorted(deal.by_rank), 4):
        low = _window_of(frozenset(ranks))
        if low is None:
            continue
        outside = ranks[3] - ranks[0] == 3 and ranks[3] <= _KING  # not A234, not JQKA
        positions = tuple(sorted(deal.rightmost(rank) for rank in ranks))
        high = sum(1 for rank in ranks if rank >= _JACK)
        draws.append(_StraightDraw(positions, outside, high, tuple(reversed(ranks))))
    return sorted(draws, key=lambda draw: draw.order, reverse=True)


def straight_flush_3_type(ranks: Sequence[int]) -> int | None:
    """The seed's type (1, 2, 3) of three suited ``ranks`` as a straight flush draw, or None."""
    distinct = frozenset(ranks)
    if len(distinct) != 3:
        return None
    low = _window_of(distinct)
    if low is None:
        return None
    if (low == 1 and _ACE in distinct) or distinct == {2, 3, 4}:
        return 2
    gaps = max(distinct) - min(distinct) - 2
    high = sum(1 for rank in distinct if rank >= _JACK)
    if high >= gaps:
        return 1
    return 2 if gaps == 1 or high == 1 else 3


def _made_top(deal: _Deal) -> tuple[int, ...] | None:
    if deal.category is Category.STRAIGHT_FLUSH:
        return (0, 1, 2, 3, 4)
    quads = deal.of_count(4)
    return tuple(deal.by_rank[quads[0]]) if quads else None


def _royal(size: int) -> _Matcher:
    def match(deal: _Deal) -> tuple[int, ...] | None:
        for positions in deal.by_suit.values():
            royal = [p for p in positions if deal.ranks[p] >= _TEN]
            if len(royal) == size:
                return tuple(royal)
        return None

    return match


def _three_aces(deal: _Deal) -> tuple[int, ...] | None:
    aces = deal.by_rank.get(_ACE, [])
    return tuple(aces) if len(aces) == 3 else None


def _made_hand(deal: _Deal) -> tuple[int, ...] | None:
    return (0, 1, 2, 3, 4) if deal.category in _MADE_HANDS else None


_MADE_HANDS = frozenset({Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE})


def _trips(deal: _Deal) -> tuple[int, ...] | None:
    trips = deal.of_count(3)
    return tuple(deal.by_rank[trips[0]]) if trips else None


def _straight_flush_4(deal: _Deal) -> tuple[int, ...] | None:
    for positions in deal.suited(4):
        if _window_of(frozenset(deal.ranks[p] for p in positions)) is not None:
            return tuple(positions)
    return None


def _two_pair(deal: _Deal) -> tuple[int, ...] | None:
    pairs = deal.of_count(2)
    if len(pairs) < 2:
        return None
    return tuple(sorted(deal.by_rank[pairs[0]] + deal.by_rank[pairs[1]]))


def _pair(high: bool) -> _Matcher:
    def match(deal: _Deal) -> tuple[int, ...] | None:
        for rank in deal.of_count(2):
            if (rank >= _JACK) == high:
                return tuple(deal.by_rank[rank])
        return None

    return match


def _flush_4(deal: _Deal) -> tuple[int, ...] | None:
    return next((tuple(positions) for positions in deal.suited(4)), None)


def _straight(outside: bool, high: int | None = None) -> _Matcher:
    def match(deal: _Deal) -> tuple[int, ...] | None:
        for draw in deal.straight_draws():
            if draw.outside == outside and (high is None or draw.high == high):
                return draw.positions
        return None

    return match


def _straight_flush_3(kind: int) -> _Matcher:
    def match(deal: _Deal) -> tuple[int, ...] | None:
        found = []
        for positions in deal.by_suit.values():
            for three in combinations(positions, 3):
                ranks = [deal.ranks[p] for p in three]
                if straight_flush_3_type(ranks) == kind:
                    found.append((sorted(ranks, reverse=True), three))
        return max(found)[1] if found else None

    return match


def _flush_3(high: int) -> _Matcher:
    def match(deal: _Deal) -> tuple[int, ...] | None:
        for positions in deal.suited(3):
            if deal.high_count(positions) == high:
                return tuple(positions)
        return None

    return match


def _suited(*ranks: int) -> _Matcher:
    return lambda deal: deal.suited_with(*ranks)


def _suited_high_2(deal: _Deal) -> tuple[int, ...] | None:
    for positions in deal.by_suit.values():
        high = [p for p in positions if deal.ranks[p] >= _JACK]
        if len(high) == 2:
            return tuple(high)
    return None


def _unsuited(*ranks: int) -> _Matcher:
    return lambda deal: deal.unsuited(*ranks)


def _kq_kj_unsuited(deal: _Deal) -> tuple[int, ...] | None:
    return deal.unsuited(_KING, _QUEEN) or deal.unsuited(_KING, _JACK)


def _single(*ranks: int) -> _Matcher:
    def match(deal: _Deal) -> tuple[int, ...] | None:
        present = [rank for rank in ranks if rank in deal.by_rank]
        return (deal.rightmost(max(present)),) if present else None

    return match


def _discard(deal: _Deal) -> tuple[int, ...]:
    return ()


_RULES: tuple[tuple[Rule, _Matcher], ...] = (
    (Rule.MADE_TOP, _made_top),
    (Rule.ROYAL_4, _royal(4)),
    (Rule.THREE_ACES, _three_aces),
    (Rule.MADE_HAND, _made_hand),
    (Rule.TRIPS, _trips),
    (Rule.STRAIGHT_FLUSH_4, _straight_flush_4),
    (Rule.TWO_PAIR, _two_pair),
    (Rule.HIGH_PAIR, _pair(high=True)),
    (Rule.FLUSH_4, _flush_4),
    (Rule.ROYAL_3, _royal(3)),
    (Rule.OUTSIDE_4, _straight(outside=True)),
    (Rule.LOW_PAIR, _pair(high=False)),
    (Rule.AKQJ_UNSUITED, _unsuited(_ACE, _KING, _QUEEN, _JACK)),
    (Rule.STRAIGHT_FLUSH_3_TYPE_1, _straight_flush_3(1)),
    (Rule.INSIDE_4_HIGH_3, _straight(outside=False, high=3)),
    (Rule.QJ_SUITED, _suited(_QUEEN, _JACK)),
    (Rule.FLUSH_3_HIGH_2, _flush_3(high=2)),
    (Rule.SUITED_HIGH_2, _suited_high_2),
    (Rule.INSIDE_4_HIGH_2, _straight(outside=False, high=2)),
    (Rule.STRAIGHT_FLUSH_3_TYPE_2, _straight_flush_3(2)),
    (Rule.INSIDE_4_HIGH_1, _straight(outside=False, high=1)),
    (Rule.KQJ_UNSUITED, _unsuited(_KING, _QUEEN, _JACK)),
    (Rule.JT_SUITED, _suited(_JACK, _TEN)),
    (Rule.QJ_UNSUITED, _unsuited(_QUEEN, _JACK)),
    (Rule.FLUSH_3_HIGH_1, _flush_3(high=1)),
    (Rule.QT_SUITED, _suited(_QUEEN, _TEN)),
    (Rule.STRAIGHT_FLUSH_3_TYPE_3, _straight_flush_3(3)),
    (Rule.KQ_KJ_UNSUITED, _kq_kj_unsuited),
    (Rule.ACE, _single(_ACE)),
    (Rule.KT_SUITED, _suited(_KING, _TEN)),
    (Rule.JACK_QUEEN_KING, _single(_JACK, _QUEEN, _KING)),
    (Rule.INSIDE_4_HIGH_0, _straight(outside=False, high=0)),
    (Rule.FLUSH_3_HIGH_0, _flush_3(high=0)),
    (Rule.DISCARD, _discard),
)
"""The list, best first: each rule with the matcher that finds the cards it keeps."""


def advise(hand: Sequence[Card]) -> Advice:
    """The seed strategy's play for a five-card deal: the highest rule that matches."""
    if len(hand) != 5:
        raise ValueError(f"a deal is five cards, not {len(hand)}")
    deal = _Deal(hand)
    for rule, match in _RULES:
        held = match(deal)
        if held is not None:
            return Advice(tuple(sorted(held)), rule)
    raise AssertionError("the last rule always matches")  # pragma: no cover


def seed_hold(hand: Sequence[Card]) -> tuple[int, ...]:
    """Just the positions :func:`advise` holds (the shape the exact analyzer's strategies take,
    ``casino videopoker analyze --strategy seed``)."""
    return advise(hand).held
