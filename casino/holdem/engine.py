"""No-limit Texas Hold'em: one hand as a pure, saveable state machine.

:class:`Hand` holds everything about one deal: stacks, bets, hole cards (card indices 0..51,
as :attr:`casino.cards.Card.index`), the board, whose turn it is. It never prints, reads, or
draws a random number: the deck comes in already ordered. For each action there is a
``verify_…`` that raises :class:`~casino.errors.IllegalAction` with the reason, a ``can_…``,
and the action itself, which returns a frozen :class:`Action` record (pokerkit's shape).
Shells, bots and servers ask the hand (:meth:`Hand.legal`) and never re-check its rules.

Rules (the seed's, and the no-limit conventions it leaves open):

- An ante (:class:`~casino.holdem.rules.Rules`, 0 by default) is posted first by every player
  in the hand, all-in for less, straight into the pot (pokerkit's ``raw_antes``): it is not a
  bet, so it does not count toward a call; the pots and the uncalled part are worked out from
  everything put in, antes too (the same stacks as pokerkit, which returns an uncalled bet
  and pays a one-player side pot back).
- Seats are numbered clockwise. Players with no chips sit out. The small blind is the first
  seat after the button and the big blind the next (heads-up the button posts the small
  blind and acts first before the flop). A blind is posted in full or all-in for less.
- Cards are dealt from the top of the given deck, one at a time, starting at the seat after
  the button, two rounds; then three flop cards, the turn and the river (no burn cards, so a
  stacked deck file reads in dealing order).
- Minimum bet: the big blind. Minimum raise: the largest bet or raise increment so far in
  the round (at least the big blind). A player may always go all-in for less.
- A short all-in (less than a full raise) does not reopen the betting: a player who already
  acted may only call or fold, unless consecutive short all-ins add up to a full raise.
- A player may fold whenever it is their turn, also when a check is free: the seed lets the
  first to act on the flop "pasar, subir o retirarse" (pokerkit refuses such a fold as
  pointless; where they differ the seed wins, see ``docs/holdem.md``). Their chips stay in
  the pots for the others (a side pot whose players have all folded goes to the pot below).
- At the end the part of a bet nobody called goes back to its owner. Pots: one layer per
  distinct contribution, layers with the same eligible players merged (main pot first); each
  goes to the best hand among its eligible players. Players who win nothing muck first, as in
  pokerkit, so layers left with the same winners are split as one; a split gives the odd chips
  to the first winner clockwise from the button.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any

from casino.cards.evaluator import evaluate7
from casino.errors import IllegalAction, ParseError, allowed
from casino.holdem.rules import Rules


class Street(IntEnum):
    """The four betting rounds, and the end of the hand."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    OVER = 4


class Kind(Enum):
    """What a player did."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


class Refused(IllegalAction):
    """An action the rules do not allow now. ``template`` is an English message id and
    ``values`` its fields, so a shell can say why in the player's language."""

    def __init__(self, template: str, **values: int) -> None:
        super().__init__(template.format(**values))
        self.template = template
        self.values = values


@dataclass(frozen=True, slots=True)
class Action:
    """One action taken: ``paid`` chips went in, the seat's round bet is now ``to``."""

    seat: int
    kind: Kind
    paid: int
    to: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Legal:
    """What the player to act may do, with the amounts (``to`` totals for bet and raise)."""

    seat: int
    call: int
    """Chips a call costs (0: a check is legal instead)."""
    min_to: int
    """The smallest legal bet/raise total this round (0: no bet or raise is legal)."""
    max_to: int
    """The largest (all-in) bet/raise total this round (0: no bet or raise is legal)."""
    raising: bool
    """True when a bet is already in front (so an aggressive action is a raise)."""

    @property
    def can_check(self) -> bool:
        """Whether a check is legal."""
        return self.call == 0

    @property
    def can_bet_or_raise(self) -> bool:
        """Whether a bet or raise is legal."""
        return self.max_to > 0


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: its chips and the seats that may win it."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Award:
    """Chips a pot paid: ``shares[i]`` to ``winners[i]``; ``strength`` of the winning hand
    (``None`` when everybody else folded)."""

    pot: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    strength: int | None


@dataclass
class Hand:
    """One hand of no-limit hold'em, from blinds to awards. See the module docstring."""

    button: int
    small_blind: int
    big_blind: int
    starting: list[int]
    """Each seat's chips when the hand began (0: not in the hand)."""
    deck: list[int]
    """The cards not dealt yet, top first."""
    stacks: list[int] = field(default_factory=list)
    bets: list[int] = field(default_factory=list)
    folded: list[bool] = field(default_factory=list)
    hole: list[list[int]] = field(default_factory=list)
    board: list[int] = field(default_factory=list)
    street: Street = Street.PREFLOP
    to_act: int | None = None
    pending: list[int] = field(default_factory=list)
    """Seats that must still act this round, in order."""
    raise_size: int = 0
    acted: list[int] = field(default_factory=list)
    shorts: list[int] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    returned: list[int] = field(default_factory=list)
    """``[seat, chips]``: the part of a bet nobody called, given back before the pots."""
    collected: list[int] = field(default_factory=list)
    """Chips each seat put in the pot in rounds already closed (its ante too)."""
    ante: int = 0
    """The ante each player posted (all-in for less) before the blinds."""

    # --- set-up ---------------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        stacks: Sequence[int],
        button: int,
        rules: Rules | tuple[int, int],
        deck: Sequence[int],
    ) -> Hand:
        """Start a hand under ``rules`` (or the no-ante rules of a ``(small, big)`` pair):
        post the antes and the blinds and deal the hole cards from the top of ``deck``.

        ``stacks[i]`` is seat ``i``'s chips (0: an empty seat or a busted player, left out);
        at least two seats need chips. The button must be a seat in the hand.
        """
        if not isinstance(rules, Rules):
            small, big = rules
            if not 0 < small <= big:
                raise ParseError(f"blinds must be 0 < small <= big, not {small}/{big}")
            rules = Rules(small, big)
        small, big = rules.blinds
        if sum(1 for chips in stacks if chips > 0) < 2:
            raise IllegalAction("a hand needs at least two players with chips")
        if not 0 <= button < len(stacks) or stacks[button] <= 0:
            raise IllegalAction(f"the button {button} is not a seat in the hand")
        n = len(stacks)
        hand = cls(button, small, big, list(stacks), list(deck), ante=rules.ante)
        hand.stacks = list(stacks)
        hand.bets = [0] * n
        hand.collected = [0] * n
        hand.folded = [chips <= 0 for chips in stacks]
        hand.hole = [[] for _ in range(n)]
        order = hand.order_from(button)
        if len(hand.deck) < 2 * len(order) + 5:
            raise IllegalAction(f"the deck has {len(hand.deck)} cards, too few for this hand")
        for seat in order:
            paid = min(rules.ante, hand.stacks[seat])
            hand.stacks[seat] -= paid
            hand.collected[seat] += paid
        sb_seat, bb_seat = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
        hand._post(sb_seat, small)
        hand._post(bb_seat, big)
        for _ in range(2):
            for seat in order:
                hand.hole[seat].append(hand.deck.pop(0))
        first = order.index(bb_seat) + 1
        hand._open_round(order[first:] + order[:first])
        return hand

    def _post(self, seat: int, amount: int) -> None:
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.bets[seat] += paid

    @property
    def rules(self) -> Rules:
        """The rules this hand is played under."""
        return Rules(self.small_blind, self.big_blind, self.ante)

    def antes(self) -> list[int]:
        """What each seat posted as its ante (0 for seats not in the hand)."""
        return [min(self.ante, chips) for chips in self.starting]

    def order_from(self, seat: int) -> list[int]:
        """Seats in the hand (folded or not), clockwise, starting after ``seat``."""
        n = len(self.starting)
        return [(seat + k) % n for k in range(1, n + 1) if self.starting[(seat + k) % n] > 0]

    # --- queries --------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the hand has been decided and paid."""
        return self.street is Street.OVER

    @property
    def live(self) -> list[int]:
        """Seats still holding cards (not folded), clockwise from the seat after the button."""
        return [seat for seat in self.order_from(self.button) if not self.folded[seat]]

    def committed(self, seat: int) -> int:
        """Chips ``seat`` has put in this hand."""
        return self.collected[seat] + self.bets[seat]

    def pot_total(self) -> int:
        """All chips in the middle, bets of this round included."""
        return sum(self.collected) + sum(self.bets)

    def legal(self) -> Legal:
        """What the player to act may do; :class:`IllegalAction` if nobody is to act."""
        seat = self._actor()
        top = max(self.bets)
        call = min(top - self.bets[seat], self.stacks[seat])
        reason = self._raise_block(seat)
        if reason is not None:
            return Legal(seat, call, 0, 0, top > 0)
        most = self.stacks[seat] + self.bets[seat]
        least = min(top + max(self.raise_size, self.big_blind), most)
        return Legal(seat, call, least, most, top > 0)

    def _actor(self) -> int:
        if self.to_act is None:
            raise Refused("the hand is over" if self.over else "nobody is to act")
        return self.to_act

    def _raise_block(self, seat: int) -> str | None:
        """Why ``seat`` may not bet or raise now, or ``None`` if it may."""
        top = max(self.bets)
        call = top - self.bets[seat]
        if call < self.raise_size and call > 0:
            return "cannot raise: a short all-in cannot be raised"
        if self.shorts and sum(self.shorts) < self.raise_size and seat in self.acted:
            return "cannot raise: a short all-in does not reopen the betting"
        if self.stacks[seat] <= call:
            return "cannot raise: not enough chips"
        if not any(
            other != seat and not self.folded[other] and self.stacks[other] + self.bets[other] > top
            for other in range(len(self.stacks))
        ):
            return "cannot raise: every other player is all-in or folded"
        return None

    # --- verify / can / act ---------------------------------------------------------------

    def verify_fold(self) -> None:
        """Raise :class:`IllegalAction` unless somebody is to act: they may always fold (a
        free check too, as the seed allows)."""
        self._actor()

    def verify_check(self) -> None:
        """Raise :class:`IllegalAction` unless the player to act may check."""
        seat = self._actor()
        if max(self.bets) > self.bets[seat]:
            raise Refused("cannot check: {amount} to call", amount=max(self.bets) - self.bets[seat])

    def verify_call(self) -> None:
        """Raise :class:`IllegalAction` unless the player to act may call."""
        seat = self._actor()
        if max(self.bets) <= self.bets[seat]:
            raise Refused("nothing to call: check")

    def verify_bet_or_raise(self, to: int) -> None:
        """Raise :class:`IllegalAction` unless the player to act may bet or raise to ``to``."""
        seat = self._actor()
        reason = self._raise_block(seat)
        if reason is not None:
            raise Refused(reason)
        legal = self.legal()
        if to > legal.max_to:
            raise Refused("{amount} is more than the {most} you have", amount=to, most=legal.max_to)
        if to < legal.min_to:
            raise Refused(
                "the minimum is {least} (or all-in, {most})", least=legal.min_to, most=legal.max_to
            )

    def can_fold(self) -> bool:
        """Whether :meth:`fold` is legal now."""
        return allowed(self.verify_fold)

    def can_check(self) -> bool:
        """Whether :meth:`check` is legal now."""
        return allowed(self.verify_check)

    def can_call(self) -> bool:
        """Whether :meth:`call` is legal now."""
        return allowed(self.verify_call)

    def can_bet_or_raise(self, to: int | None = None) -> bool:
        """Whether a bet/raise (to ``to``, or to some amount) is legal now."""
        if to is None:
            return self.to_act is not None and self._raise_block(self.to_act) is None
        return allowed(self.verify_bet_or_raise, to)

    def fold(self) -> Action:
        """The player to act gives up the hand."""
        self.verify_fold()
        seat = self._actor()
        self.folded[seat] = True
        return self._done(Action(seat, Kind.FOLD, 0, self.bets[seat], False))

    def check(self) -> Action:
        """The player to act checks."""
        self.verify_check()
        seat = self._actor()
        return self._done(Action(seat, Kind.CHECK, 0, self.bets[seat], False))

    def call(self) -> Action:
        """The player to act calls (all-in for less if short)."""
        self.verify_call()
        seat = self._actor()
        paid = min(max(self.bets) - self.bets[seat], self.stacks[seat])
        self._pay(seat, paid)
        return self._done(Action(seat, Kind.CALL, paid, self.bets[seat], self.stacks[seat] == 0))

    def bet_or_raise(self, to: int) -> Action:
        """The player to act bets (no bet in front) or raises, making the round bet ``to``."""
        self.verify_bet_or_raise(to)
        seat = self._actor()
        top = max(self.bets)
        kind = Kind.RAISE if top > 0 else Kind.BET
        paid = to - self.bets[seat]
        self._pay(seat, paid)
        increment = to - top
        if increment >= self.raise_size:
            self.acted = []
        self.raise_size = max(self.raise_size, increment)
        if self.stacks[seat]:
            self.shorts = []
        else:
            self.shorts.append(increment)
        if sum(self.shorts) >= self.raise_size:
            self.shorts = []
        order = self.order_from(seat)
        self.pending = [s for s in order if s != seat and self._can_act(s)]
        return self._done(Action(seat, kind, paid, to, self.stacks[seat] == 0))

    def all_in(self) -> Action:
        """The player to act puts in every chip: a bet or raise if allowed, else a call."""
        seat = self._actor()
        if self._raise_block(seat) is None:
            return self.bet_or_raise(self.stacks[seat] + self.bets[seat])
        if self.can_call():
            return self.call()
        raise Refused("cannot go all-in: check or fold")

    def _pay(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bets[seat] += chips

    def _can_act(self, seat: int) -> bool:
        return not self.folded[seat] and self.stacks[seat] > 0

    def _effective_stack(self, seat: int) -> int:
        """What ``seat`` can still lose this hand: its chips, capped by what the deepest
        other live player has in front and behind (pokerkit's effective stack)."""
        if self.folded[seat]:
            return 0
        depths = sorted(self.stacks[s] + self.bets[s] for s in self.live)
        return min(self.stacks[seat], max(0, depths[-2] - self.bets[seat]))

    def _done(self, action: Action) -> Action:
        self.actions.append(action)
        if action.seat not in self.acted:
            self.acted.append(action.seat)
        if action.seat in self.pending:
            self.pending.remove(action.seat)
        self._advance()
        return action

    # --- rounds ---------------------------------------------------------------------------

    def _open_round(self, order: list[int]) -> None:
        """Start a betting round with ``order`` as the acting order."""
        self.pending = [seat for seat in order if self._effective_stack(seat) > 0]
        if len(self.pending) == 1 and self.bets[self.pending[0]] >= max(self.bets):
            self.pending = []  # the only player with chips has nobody to bet against
        self.raise_size = 0
        self.acted = []
        self.shorts = []
        self._advance()

    def _advance(self) -> None:
        """Give the turn to the next pending player, or close the round."""
        if len(self.live) == 1:
            self._finish()
            return
        if self.pending:
            self.to_act = self.pending[0]
            return
        self.to_act = None
        for seat, bet in enumerate(self.bets):
            self.collected[seat] += bet
            self.bets[seat] = 0
        if self.street is Street.RIVER:
            self._finish()
            return
        able = [seat for seat in self.live if self.stacks[seat] > 0]
        if len(able) <= 1:  # nobody left to bet against: run the board out
            self._finish()
            return
        self.street = Street(self.street + 1)
        count = 3 if self.street is Street.FLOP else 1
        self.board += self.deck[:count]
        del self.deck[:count]
        self._open_round(self.order_from(self.button))

    # --- showdown -------------------------------------------------------------------------

    def pots(self, contenders: Sequence[int] | None = None, bets: bool = True) -> list[Pot]:
        """The main pot and side pots, from everybody's chips in (bets of this round too).

        A pot's eligible seats are the ``contenders`` (default: every seat still holding
        cards) who put in at least its level; neighbouring pots with the same eligible seats
        are one pot. A level whose players have all folded (a fold when a check was free can
        leave one) goes to the pot below it. ``bets=False`` leaves out the bets of the round
        being played (the pots as they stand in the middle of the table).
        """
        n = len(self.stacks)
        put = [self.committed(seat) if bets else self.collected[seat] for seat in range(n)]
        alive = set(self.live if contenders is None else contenders)
        pots: list[Pot] = []
        previous = 0
        order = self.order_from(self.button)
        for level in sorted(set(put)):
            amount = sum(min(chips, level) - min(chips, previous) for chips in put)
            eligible = tuple(s for s in order if s in alive and put[s] >= level)
            if not eligible and pots:  # its players all folded: dead chips for the pot below
                eligible = pots[-1].eligible
            while pots and pots[-1].eligible == eligible:
                amount += pots.pop().amount
            if amount:
                pots.append(Pot(amount, eligible))
            previous = level
        return pots

    def strength(self, seat: int) -> int:
        """The evaluator strength of ``seat``'s best five (needs the full board)."""
        return evaluate7(self.hole[seat] + self.board)

    def _finish(self) -> None:
        """Pay every pot and end the hand."""
        self.to_act = None
        self.pending = []
        if len(self.live) > 1 and len(self.board) < 5:
            need = 5 - len(self.board)
            self.board += self.deck[:need]
            del self.deck[:need]
        for seat, bet in enumerate(self.bets):
            self.collected[seat] += bet
            self.bets[seat] = 0
        self._return_uncalled()
        pots = self.pots(self._winners())
        for index, pot in enumerate(pots):
            self.awards.append(self._award(index, pot))
        for award in self.awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                self.stacks[seat] += share
        self.street = Street.OVER

    def _return_uncalled(self) -> None:
        """Give the biggest contributor back what nobody else matched."""
        ranked = sorted(range(len(self.collected)), key=self.collected.__getitem__)
        top, second = ranked[-1], ranked[-2]
        excess = self.collected[top] - self.collected[second]
        if excess > 0:
            self.collected[top] -= excess
            self.stacks[top] += excess
            self.returned = [top, excess]

    def _winners(self) -> list[int]:
        """The seats that win a share of some pot (losers muck, as pokerkit kills their
        hands: pots then split between the same winners are split as one)."""
        winners: set[int] = set()
        for pot in self.pots():
            if len(pot.eligible) == 1:
                winners.update(pot.eligible)
                continue
            strengths = {seat: self.strength(seat) for seat in pot.eligible}
            best = max(strengths.values())
            winners.update(seat for seat, value in strengths.items() if value == best)
        return [seat for seat in self.live if seat in winners]

    def _award(self, index: int, pot: Pot) -> Award:
        if len(pot.eligible) == 1:
            return Award(index, pot.amount, pot.eligible, (pot.amount,), None)
        strengths = {seat: self.strength(seat) for seat in pot.eligible}
        best = max(strengths.values())
        winners = tuple(seat for seat in pot.eligible if strengths[seat] == best)
        share, odd = divmod(pot.amount, len(winners))
        shares = tuple(share + (odd if k == 0 else 0) for k in range(len(winners)))
        return Award(index, pot.amount, winners, shares, best)

    @property
    def shown(self) -> list[int]:
        """Seats whose cards are shown at the end (more than one player reached showdown)."""
        return self.live if self.over and len(self.live) > 1 else []

    # --- saving ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The hand as plain JSON-able data (:meth:`from_dict` reads it back)."""
        data: dict[str, Any] = {name: copy.deepcopy(getattr(self, name)) for name in _PLAIN_FIELDS}
        if self.ante:  # saved only when there is one: a no-ante hand saves as it always did
            data["ante"] = self.ante
        data["street"] = int(self.street)
        data["actions"] = [[a.seat, a.kind.value, a.paid, a.to, a.all_in] for a in self.actions]
        data["awards"] = [
            [a.pot, a.amount, list(a.winners), list(a.shares), a.strength] for a in self.awards
        ]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        """A hand saved by :meth:`to_dict`; :class:`ParseError` if ``data`` is not one."""
        try:
            plain = {name: copy.deepcopy(data[name]) for name in _PLAIN_FIELDS}
            hand = cls(**plain, ante=int(data.get("ante", 0)))
            hand.street = Street(data["street"])
            hand.actions = [
                Action(int(s), Kind(k), int(p), int(t), bool(a))
                for s, k, p, t, a in data["actions"]
            ]
            hand.awards = [
                Award(int(p), int(m), tuple(w), tuple(s), g) for p, m, w, s, g in data["awards"]
            ]
        except (KeyError, TypeError, ValueError) as error:
            raise ParseError(f"not a saved hand: {error}") from None
        return hand


_PLAIN_FIELDS = (
    "returned",
    "button",
    "small_blind",
    "big_blind",
    "starting",
    "deck",
    "stacks",
    "bets",
    "folded",
    "hole",
    "board",
    "to_act",
    "pending",
    "raise_size",
    "acted",
    "shorts",
    "collected",
)
