"""The rules of three-card stud that need no network: who acts first, who wins, who is paid.

Pure functions over cards and chip counts; :mod:`casino.stud.dealer` plays the hands with
them and :mod:`casino.stud.strategy` reasons with the same definitions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from casino.cards import Card, HandValue, Suit
from casino.cards.three import three_card_value

ANTE = 1
"""What every player puts in the pot before a hand."""


def showing_key(cards: Sequence[Card]) -> tuple[int, int, tuple[int, ...]]:
    """How good a player's up cards look, for who bets first: a pair beats no pair, then
    the highest card (rank, then suit), then the rest."""
    ranks = sorted([card.index // 4 + 2 for card in cards], reverse=True)  # rank-major index
    paired = int(len(set(ranks)) < len(ranks))
    return paired, max(card.index for card in cards), tuple(ranks)


def first_to_act(showing: Mapping[int, Sequence[Card]]) -> int:
    """The seat with the best up cards (one up card: simply the highest card)."""
    return max(showing, key=lambda seat: showing_key(showing[seat]))


def rotation(seats: Sequence[int], first: int) -> list[int]:
    """``seats`` in table order, starting at ``first``."""
    start = seats.index(first)
    return [*seats[start:], *seats[:start]]


def highest_spade_in_hole(holes: Mapping[int, Card]) -> int | None:
    """The seat whose hole card is the highest spade, or ``None`` if no hole card is a spade."""
    spades = [seat for seat, card in holes.items() if card.suit is Suit.SPADES]
    # Among spades the dense index goes up with the rank.
    return max(spades, key=lambda seat: holes[seat].index) if spades else None


@dataclass(frozen=True)
class Settlement:
    """How a pot is shared at the end of a hand."""

    winners: tuple[int, ...]
    """The seats with the best hand (several on a tie), in the order they acted."""
    spade: int | None
    """The seat with the highest spade in the hole, if any contender has a spade there."""
    payouts: dict[int, int]
    """Chips each seat receives (seats receiving nothing are absent)."""


def settle(pot: int, hands: Mapping[int, Sequence[Card]], order: Sequence[int]) -> Settlement:
    """Share ``pot`` among the contenders ``hands`` (seat → hole card first, then up cards).

    Half the pot (rounded down) goes to the highest spade in the hole, the rest (with the
    odd chip) to the best hand; with no spade in any contender's hole the best hand takes
    everything. Tied best hands split their part equally, the chips that do not divide going
    one each to the tied seats in ``order``.
    """
    contenders = [seat for seat in order if seat in hands]
    values: dict[int, HandValue] = {seat: three_card_value(hands[seat]) for seat in contenders}
    best = max(values.values())
    winners = tuple(seat for seat in contenders if values[seat] == best)
    spade = highest_spade_in_hole({seat: hands[seat][0] for seat in contenders})
    spade_part = pot // 2 if spade is not None else 0
    payouts: dict[int, int] = {}
    share, odd = divmod(pot - spade_part, len(winners))
    for place, seat in enumerate(winners):
        payouts[seat] = share + (1 if place < odd else 0)
    if spade is not None:
        payouts[spade] = payouts.get(spade, 0) + spade_part
    return Settlement(winners, spade, {seat: chips for seat, chips in payouts.items() if chips})
