"""A finished hand as Poker Hand History (PHH, the pokerkit authors' format), as TOML text.

Players are numbered ``p1``.. from the first seat after the button (pokerkit's order; heads-up
p1 is the big blind, as pokerkit seats it). Hole cards are dealt one ``d dh`` line per player,
the board as ``d db`` lines before the first action of its street (or at the end of an all-in
run-out), and every player still in at a showdown shows (``sm``) in pokerkit's order: the
river's last bettor first, else p1. A fold when a check is free (the seed allows it) is written
``f`` as well: pokerkit (0.7.4 and later, in the cash-game mode its ``HandHistory`` loads in)
takes it with a warning. Hole cards a viewer never saw can be written ``????`` (``hidden``),
which pokerkit replays as unknown cards. Standard library only.
"""

from __future__ import annotations

from collections.abc import Collection

from casino.cards.card import Card
from casino.holdem.engine import Action, Hand, Kind, Street

_STREET_CARDS = {Street.FLOP: (0, 3), Street.TURN: (3, 4), Street.RIVER: (4, 5)}


def _card(index: int) -> str:
    card = Card.from_index(index)
    return card.rank.value + card.suit.value.lower()


def _cards(indices: list[int]) -> str:
    return "".join(_card(index) for index in indices)


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _array(items: list[str]) -> str:
    return "[" + ", ".join(items) + "]"


def phh_actions(hand: Hand, hidden: Collection[int] = ()) -> list[str]:
    """The PHH action lines of ``hand`` (over); the hole cards of the ``hidden`` seats are
    dealt as ``????`` (those shown at the showdown are still shown there)."""
    order = hand.order_from(hand.button)
    label = {seat: f"p{index + 1}" for index, seat in enumerate(order)}
    lines = [
        f"d dh {label[seat]} {'????' if seat in hidden else _cards(hand.hole[seat])}"
        for seat in order
    ]
    streets = _action_streets(hand)
    dealt = Street.PREFLOP
    river_aggressor: int | None = None
    for action, street in zip(hand.actions, streets, strict=True):
        while dealt < street:
            dealt = Street(dealt + 1)
            lines.append(_board_line(hand, dealt))
        if street is Street.RIVER and action.kind in (Kind.BET, Kind.RAISE):
            river_aggressor = action.seat
        lines.append(f"{label[action.seat]} {_verb(action)}")
    live = [seat for seat in order if not hand.folded[seat]]
    if len(live) > 1:
        while dealt < Street.RIVER and len(hand.board) > _STREET_CARDS[Street(dealt + 1)][0]:
            dealt = Street(dealt + 1)
            lines.append(_board_line(hand, dealt))
        start = live.index(river_aggressor) if river_aggressor in live else 0
        for seat in live[start:] + live[:start]:
            lines.append(f"{label[seat]} sm {_cards(hand.hole[seat])}")
    return lines


def _board_line(hand: Hand, street: Street) -> str:
    first, last = _STREET_CARDS[street]
    return f"d db {_cards(hand.board[first:last])}"


def _verb(action: Action) -> str:
    if action.kind is Kind.FOLD:
        return "f"
    if action.kind in (Kind.CHECK, Kind.CALL):
        return "cc"
    return f"cbr {action.to}"


def _action_streets(hand: Hand) -> list[Street]:
    """The street of each action: a new street starts when a round's bets restart at 0
    (``to`` falls, or a check/bet/fold follows a closed round); worked out by replaying."""
    replay = Hand.deal(hand.starting, hand.button, hand.rules, dealing_order(hand))
    streets = []
    for action in hand.actions:
        streets.append(replay.street)
        apply_action(replay, action.kind, action.to)
    return streets


def dealing_order(hand: Hand) -> list[int]:
    """The whole deck ``hand`` was dealt from, top first (hole cards, board, the rest)."""
    order = hand.order_from((hand.button) % len(hand.starting))
    deck: list[int] = []
    for round_ in range(2):
        deck.extend(hand.hole[seat][round_] for seat in order)
    return deck + list(hand.board) + list(hand.deck)


def apply_action(hand: Hand, kind: Kind, to: int) -> Action:
    """Play again on ``hand`` an action of its kind (``to``: a bet or raise's round total), as
    a replay of a finished hand does (PHH's streets, a hand record)."""
    if kind is Kind.FOLD:
        return hand.fold()
    if kind is Kind.CHECK:
        return hand.check()
    if kind is Kind.CALL:
        return hand.call()
    return hand.bet_or_raise(to)


def to_phh(hand: Hand, players: list[str] | None = None, hidden: Collection[int] = ()) -> str:
    """``hand`` (over) as PHH TOML text; ``players`` names by seat (optional); the ``hidden``
    seats' hole cards written ``????``."""
    order = hand.order_from(hand.button)
    blinds = [hand.small_blind, hand.big_blind] + [0] * (len(order) - 2)
    finishing = [hand.stacks[seat] for seat in order]
    lines = [
        'variant = "NT"',
        f"antes = {_array([str(hand.ante)] * len(order))}",
        f"blinds_or_straddles = {_array([str(chips) for chips in blinds])}",
        f"min_bet = {hand.big_blind}",
        f"starting_stacks = {_array([str(hand.starting[seat]) for seat in order])}",
        f"actions = {_array([_string(line) for line in phh_actions(hand, hidden)])}",
    ]
    if players is not None:
        lines.append(f"players = {_array([_string(players[seat]) for seat in order])}")
    lines.append(f"finishing_stacks = {_array([str(chips) for chips in finishing])}")
    return "\n".join(lines) + "\n"
