"""How casino's computer players play five-card draw (pure, deterministic).

**Discards** (:func:`choose_discards`), first rule that applies:

1. a straight or better: stand pat;
2. a pair, two pair or three of a kind: keep the cards that pair, exchange the rest;
3. four cards of one suit: exchange the fifth;
4. four in a row open at both ends (``5 6 7 8``, ``10 J Q K``; not ``A 2 3 4`` or
   ``J Q K A``): exchange the fifth;
5. otherwise keep the two highest cards and exchange three.

**Betting** (:meth:`Strategy.calls`): a hand is worth :func:`equity`, the estimated chance
that it beats one opponent at the showdown (before the exchange: what it is expected to
become). Against ``k`` opponents still in the game the chance to win is ``equity ** k``. The
player calls when that chance pays for the bet out of the pot it can expect (the pot, the
bet, and the bets of the players still to act) with a margin that grows with the size of
the bet relative to the player's bank: a bet of half the bank needs a half better price.

The figures in :data:`FINAL_SHARE` and :data:`DRAW_GAIN` were measured once (200,000 hands
from ``random.Random(1)``, drawn by these discard rules; :func:`measure_final_shares` does
the first) and are fixed here, so the players need no simulation at play time.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from casino.cards import Card, Category, Deck, rank_hand
from casino.draw.rules import MAX_EXCHANGE, Phase, Table

FINAL_SHARE: dict[Category, float] = {
    Category.HIGH_CARD: 0.26155,
    Category.ONE_PAIR: 0.49987,
    Category.TWO_PAIR: 0.13014,
    Category.THREE_OF_A_KIND: 0.07523,
    Category.STRAIGHT: 0.01074,
    Category.FLUSH: 0.0082,
    Category.FULL_HOUSE: 0.01172,
    Category.FOUR_OF_A_KIND: 0.00248,
    Category.STRAIGHT_FLUSH: 0.00006,
}
"""How often a hand drawn by :func:`choose_discards` ends in each category."""

_BELOW = {c: sum(FINAL_SHARE[b] for b in Category if b < c) for c in Category}

DRAW_GAIN: dict[str, float] = {
    "nothing": 0.145,
    "pair": 0.079,
    "four to a flush": 0.135,
    "four in a row": 0.109,
}
"""What the exchange adds on average to :func:`final_equity` (measured as above); the other
hands keep about what they have."""


def measure_final_shares(hands: int, rng: random.Random) -> dict[Category, float]:
    """How often each category ends a hand dealt from a shuffled deck and drawn to by
    :func:`choose_discards`, over ``hands`` hands (how :data:`FINAL_SHARE` was found)."""
    counts: Counter[Category] = Counter()
    for _ in range(hands):
        deck = Deck.shuffled(rng)
        hand = deck.deal(5)
        discards = choose_discards(hand)
        kept = [card for i, card in enumerate(hand) if i not in discards]
        counts[rank_hand(kept + deck.deal(len(discards))).category] += 1
    return {category: counts[category] / hands for category in Category}


class ComputerPlayer(Protocol):
    """What a computer player decides: to match the bet or fold, and what to exchange."""

    def calls(self, table: Table, seat: int) -> bool:
        """Whether ``seat`` matches the current bet (it can cover it)."""

    def discards(self, hand: Sequence[Card]) -> list[int]:
        """The 0-based positions of the cards to exchange (at most three)."""


def choose_discards(hand: Sequence[Card]) -> list[int]:
    """The positions to exchange by the rules in the module docstring."""
    category = rank_hand(hand).category
    if category >= Category.STRAIGHT:
        return []
    if category >= Category.ONE_PAIR:
        counts = Counter(card.rank for card in hand)
        return [i for i, card in enumerate(hand) if counts[card.rank] == 1]
    kind = draw_kind(hand)
    if kind == "four to a flush":
        suit = Counter(card.suit for card in hand).most_common(1)[0][0]
        return [i for i, card in enumerate(hand) if card.suit is not suit]
    outsider = _open_ended_outsider(hand)
    if outsider is not None:
        return [outsider]
    by_rank = sorted(range(len(hand)), key=lambda i: hand[i].rank.number)
    return sorted(by_rank[:MAX_EXCHANGE])


def _open_ended_outsider(hand: Sequence[Card]) -> int | None:
    """The position of the card outside four in a row open at both ends, if there is one."""
    numbers = [card.rank.number for card in hand]
    for low in range(2, 11):  # 2-3-4-5 .. 10-J-Q-K: an ace or the next card completes it
        run = set(range(low, low + 4))
        if run <= set(numbers):
            return next(i for i, n in enumerate(numbers) if n not in run)
    return None


def final_equity(hand: Sequence[Card]) -> float:
    """The chance that ``hand``, as it is, beats one opponent's hand after the exchange.

    The hands of lower categories, and the hand's own category in proportion to its leading
    rank (a pair of aces beats most pairs); this is within 0.05 of the measured figure on
    average.
    """
    value = rank_hand(hand)
    share = FINAL_SHARE[value.category] * (value.ranks[0] - 1.5) / 13
    return _BELOW[value.category] + share


def equity(hand: Sequence[Card], drawn: bool) -> float:
    """The estimated chance that ``hand`` beats one opponent at the showdown: as it is once
    ``drawn``, or with what the exchange is expected to add before it."""
    now = final_equity(hand)
    return now if drawn else min(1.0, now + DRAW_GAIN.get(draw_kind(hand), 0.0))


def draw_kind(hand: Sequence[Card]) -> str:
    """Which of :data:`DRAW_GAIN`'s kinds of hand ``hand`` is (``made`` for the others)."""
    category = rank_hand(hand).category
    if category >= Category.TWO_PAIR:
        return "made"
    if category is Category.ONE_PAIR:
        return "pair"
    if max(Counter(card.suit for card in hand).values()) == len(hand) - 1:
        return "four to a flush"
    if _open_ended_outsider(hand) is not None:
        return "four in a row"
    return "nothing"


class Strategy:
    """casino's computer player: see the module docstring."""

    def calls(self, table: Table, seat: int) -> bool:
        """Whether the chance to win pays for the bet, with a margin for its size."""
        player = table.seats[seat]
        opponents = len(table.active()) - 1
        win = equity(player.hand, table.phase is Phase.SECOND_BET) ** opponents
        still_to_act = len([i for i in table.active() if i > seat])
        expected_pot = table.pot + table.bet * (1 + still_to_act)
        margin = 1 + table.bet / max(player.bank, 1)
        return win * expected_pot >= table.bet * margin

    def discards(self, hand: Sequence[Card]) -> list[int]:
        """:func:`choose_discards`."""
        return choose_discards(hand)


class AlwaysBet:
    """A benchmark opponent: matches every bet it can cover, and discards as casino does."""

    def calls(self, table: Table, seat: int) -> bool:
        """Always."""
        return True

    def discards(self, hand: Sequence[Card]) -> list[int]:
        """:func:`choose_discards`."""
        return choose_discards(hand)


class RandomPlayer:
    """A benchmark opponent: bets or folds at even odds, and exchanges random cards."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def calls(self, table: Table, seat: int) -> bool:
        """Heads or tails."""
        return self._rng.random() < 0.5

    def discards(self, hand: Sequence[Card]) -> list[int]:
        """0 to 3 positions chosen at random."""
        count = self._rng.randint(0, MAX_EXCHANGE)
        return sorted(self._rng.sample(range(len(hand)), count))
