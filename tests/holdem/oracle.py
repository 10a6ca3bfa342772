"""Random play, and a replay of it through pokerkit, the independent engine tests judge by.

:func:`random_hand` plays one hand with seeded random legal actions (random all-ins and
"disconnects", which fold). :func:`pokerkit_stacks` replays the same cards and actions in
pokerkit's ``State`` and returns its final stacks in our seat numbering. pokerkit is a
test-only dependency (the ``test`` extra): it is imported when :func:`pokerkit_stacks` runs,
never by the game.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from casino.cards.card import Card
from casino.holdem.engine import Action, Hand, Kind
from casino.holdem.rules import Rules


def random_stacks(rng: random.Random, seats: int, big_blind: int) -> list[int]:
    """Stacks for ``seats`` players: mostly deep, sometimes a few blinds or less."""
    stacks = []
    for _ in range(seats):
        roll = rng.random()
        if roll < 0.15:
            stacks.append(rng.randint(1, 3 * big_blind))
        elif roll < 0.5:
            stacks.append(rng.randint(3 * big_blind, 30 * big_blind))
        else:
            stacks.append(rng.randint(30 * big_blind, 300 * big_blind))
    return stacks


def random_action(hand: Hand, rng: random.Random, free_folds: bool = False) -> Action:
    """One random legal action by the player to act; with ``free_folds``, sometimes a fold
    when a check is free (the seed allows it, pokerkit does not: never replay those in
    :func:`pokerkit_stacks`)."""
    legal = hand.legal()
    roll = rng.random()
    if roll < 0.04:  # a disconnect: checked or folded
        return hand.check() if legal.can_check else hand.fold()
    if roll < 0.12 and (legal.call or free_folds):
        return hand.fold()
    if roll < 0.18 and (legal.call or legal.can_bet_or_raise):
        return hand.all_in()
    if roll < 0.45 and legal.can_bet_or_raise:
        if rng.random() < 0.5:
            return hand.bet_or_raise(legal.min_to)
        return hand.bet_or_raise(rng.randint(legal.min_to, legal.max_to))
    return hand.check() if legal.can_check else hand.call()


def random_hand(
    rng: random.Random,
    seats: int,
    blinds: Rules | tuple[int, int] = (5, 10),
    free_folds: bool = False,
) -> Hand:
    """A whole hand of ``seats`` players under ``blinds`` (the rules, or a blinds pair) with
    random stacks, cards and legal actions (folds when a check is free too, with ``free_folds``)."""
    stacks = random_stacks(rng, seats, Rules.of(blinds).big_blind)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = Hand.deal(stacks, rng.randrange(seats), blinds, deck)
    while not hand.over:
        random_action(hand, rng, free_folds)
    return hand


def _text(index: int) -> str:
    card = Card.from_index(index)
    return card.rank.value + card.suit.value.lower()


def pokerkit_state(hand: Hand) -> Any:
    """A fresh pokerkit ``State`` for ``hand``'s stacks, antes (every player's, pokerkit's
    ``raw_antes`` as one number) and blinds, antes and blinds posted, in the order
    ``hand.order_from(hand.button)`` (pokerkit's player 0 is our first seat after the button;
    heads-up that is the big blind, as pokerkit seats it)."""
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    order = hand.order_from(hand.button)
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    return NoLimitTexasHoldem.create_state(
        automations,
        False,
        hand.ante,
        (hand.small_blind, hand.big_blind),
        hand.big_blind,
        tuple(hand.starting[seat] for seat in order),
        len(order),
        mode=Mode.CASH_GAME,
    )


def pokerkit_stacks(hand: Hand) -> list[int]:
    """Replay ``hand`` (over) in pokerkit; its final stacks, indexed by our seats."""
    order = hand.order_from(hand.button)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = pokerkit_state(hand)
        for seat in order:
            state.deal_hole("".join(_text(card) for card in hand.hole[seat]))
        board = iter(hand.board)
        for action in hand.actions:
            _deal_board(state, board)
            _act(state, action)
        _deal_board(state, board)
    stacks = list(hand.starting)
    for index, seat in enumerate(order):
        stacks[seat] = state.stacks[index]
    return stacks


def _deal_board(state: Any, board: Any) -> None:
    while state.can_deal_board():
        count = 3 if not state.board_cards else 1
        state.deal_board("".join(_text(next(board)) for _ in range(count)))


def _act(state: Any, action: Action) -> None:
    if action.kind is Kind.FOLD:
        state.fold()
    elif action.kind in (Kind.CHECK, Kind.CALL):
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(action.to)
