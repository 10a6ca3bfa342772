"""Five-card draw as the seed plays it: the table, its three rounds and the showdown (pure).

A :class:`Table` is a small state machine over :class:`Phase`:

1. ``FIRST_BET``: Player_1 opens (:meth:`Table.open`, between 1 and what Player_1 has left)
   or folds, which ends the game with no winner; each other active player then
   :meth:`~Table.call` s the same amount or :meth:`~Table.fold` s (no raises). A player who
   cannot cover the bet can only fold.
2. ``EXCHANGE``: every active player, in seat order, :meth:`~Table.exchange` s 0 to 3 cards;
   the kept cards stay in order and the replacements, from the same deck, are appended.
3. ``SECOND_BET``: as the first round, for the active players only.
4. ``SHOWDOWN``: :meth:`~Table.showdown` ranks the active hands, names the winner and pays
   the pot. ``Tiebreak.FIRST`` (the seed's solution) gives it to the first player holding the
   best category; ``Tiebreak.KICKERS`` compares whole hands by :func:`~casino.cards.rank_hand`
   and splits the pot on an exact tie (the odd chips go to the earliest seats).

Each action has a ``verify_…`` that raises :class:`~casino.errors.IllegalAction` with the
reason, and returns a frozen record of what happened. Chips are conserved: the banks and the
pot always add up to what the players brought; when Player_1 folds the pot stays where it is.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from casino.cards import Card, Category, Deck, HandValue, rank_hand
from casino.errors import IllegalAction, allowed

MIN_PLAYERS = 2
MAX_PLAYERS = 5
START_BANK = 1000
HAND_SIZE = 5
MAX_EXCHANGE = 3


class Phase(enum.Enum):
    """Where a game is."""

    FIRST_BET = "first betting round"
    EXCHANGE = "exchange round"
    SECOND_BET = "second betting round"
    SHOWDOWN = "showdown"
    OVER = "over"


class Tiebreak(enum.Enum):
    """How a showdown between hands of the same category is decided."""

    FIRST = "first"
    KICKERS = "kickers"


RANK_NAMES: dict[Category, str] = {
    Category.STRAIGHT_FLUSH: "a straight flush",
    Category.FOUR_OF_A_KIND: "a four of a kind",
    Category.FULL_HOUSE: "a full house",
    Category.FLUSH: "a flush",
    Category.STRAIGHT: "a straight",
    Category.THREE_OF_A_KIND: "a three of a kind",
    Category.TWO_PAIR: "a two pair",
    Category.ONE_PAIR: "a pair",
    Category.HIGH_CARD: "a Nothing",
}
"""A hand's rank as the game prints it: ``a pair`` and ``a Nothing`` are the seed's words."""


@dataclass
class Seat:
    """One player: a name, a bank, a hand, and whether the player is still in the game."""

    name: str
    bank: int
    hand: list[Card]
    active: bool = True


@dataclass(frozen=True)
class Bet:
    """A player put ``amount`` into the pot, which is now ``pot``; ``left`` is their bank."""

    seat: int
    name: str
    hand: tuple[Card, ...]
    amount: int
    pot: int
    left: int


@dataclass(frozen=True)
class Fold:
    """A player folded; ``left`` is their bank."""

    seat: int
    name: str
    left: int


@dataclass(frozen=True)
class Exchange:
    """A player discarded ``count`` cards and now holds ``hand``."""

    seat: int
    name: str
    count: int
    hand: tuple[Card, ...]


@dataclass(frozen=True)
class Holding:
    """An active player's hand at the showdown and its value."""

    seat: int
    name: str
    hand: tuple[Card, ...]
    value: HandValue

    @property
    def category(self) -> Category:
        """The hand's category (its rank in the seed's words: :data:`RANK_NAMES`)."""
        return self.value.category


@dataclass(frozen=True)
class Showdown:
    """Every active hand in seat order, the winners (one, unless a kickers tie) and shares."""

    holdings: tuple[Holding, ...]
    winners: tuple[Holding, ...]
    shares: tuple[int, ...]


def player_name(seat: int) -> str:
    """``Player_1`` for seat 0."""
    return f"Player_{seat + 1}"


class Table:
    """One game of five-card draw; see the module docstring."""

    def __init__(self, players: int, deck: Deck, banks: Sequence[int] = ()) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalAction(f"{players} players: the game takes {MIN_PLAYERS} to {MAX_PLAYERS}")
        if len(banks) > players or any(bank < 0 for bank in banks):
            raise IllegalAction("one bank of 0 or more chips per player at most")
        self._deck = deck
        self.dealt: list[Card] = []
        """Every card taken from the deck, in order (none is ever taken twice)."""
        amounts = [*banks, *[START_BANK] * (players - len(banks))]
        self.seats = [
            Seat(player_name(i), amounts[i], self._take(HAND_SIZE)) for i in range(players)
        ]
        self.pot = 0
        self.phase = Phase.FIRST_BET
        self.bet = 0
        """The amount to call in the current betting round (0 until Player_1 opens)."""
        self._to_act = 0
        self.showdown_result: Showdown | None = None

    # -- what may happen now ------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat that acts next, or ``None`` at the showdown and once the game is over."""
        if self.phase in (Phase.SHOWDOWN, Phase.OVER):
            return None
        return self._to_act

    @property
    def chips(self) -> int:
        """The banks and the pot together: constant through a game."""
        return self.pot + sum(seat.bank for seat in self.seats)

    def active(self) -> list[int]:
        """The seats still in the game, in order."""
        return [i for i, seat in enumerate(self.seats) if seat.active]

    def bet_limits(self) -> tuple[int, int]:
        """The smallest and the largest bet Player_1 may open with: 1 to what it has."""
        return 1, self.seats[0].bank

    def verify_open(self, amount: int) -> None:
        """Raise unless Player_1 may open a betting round with ``amount`` now."""
        self._verify_turn(0, (Phase.FIRST_BET, Phase.SECOND_BET))
        low, high = self.bet_limits()
        if not low <= amount <= high:
            raise IllegalAction(f"{amount} not between {low} and {high}")

    def can_open(self, amount: int) -> bool:
        """Whether :meth:`open` with ``amount`` is allowed now."""
        return allowed(self.verify_open, amount)

    def verify_call(self, seat: int) -> None:
        """Raise unless ``seat`` (not Player_1) may match the bet now."""
        self._verify_turn(seat, (Phase.FIRST_BET, Phase.SECOND_BET))
        if seat == 0:
            raise IllegalAction("Player_1 names the bet; the others match it")
        if self.seats[seat].bank < self.bet:
            raise IllegalAction(f"{self.seats[seat].name} cannot cover {self.bet}")

    def can_call(self, seat: int) -> bool:
        """Whether ``seat`` may match the bet now."""
        return allowed(self.verify_call, seat)

    def verify_fold(self, seat: int) -> None:
        """Raise unless ``seat`` may fold now."""
        self._verify_turn(seat, (Phase.FIRST_BET, Phase.SECOND_BET))

    def can_fold(self, seat: int) -> bool:
        """Whether ``seat`` may fold now."""
        return allowed(self.verify_fold, seat)

    def verify_exchange(self, seat: int, positions: Iterable[int]) -> None:
        """Raise unless ``seat`` may discard the cards at 0-based ``positions`` now."""
        self._verify_turn(seat, (Phase.EXCHANGE,))
        chosen = list(positions)
        if len(chosen) > MAX_EXCHANGE or len(set(chosen)) != len(chosen):
            raise IllegalAction(f"exchange at most {MAX_EXCHANGE} different cards")
        if any(not 0 <= p < HAND_SIZE for p in chosen):
            raise IllegalAction(f"positions are 1 to {HAND_SIZE}")

    def can_exchange(self, seat: int, positions: Iterable[int]) -> bool:
        """Whether ``seat`` may discard the cards at ``positions`` now."""
        return allowed(self.verify_exchange, seat, positions)

    def _verify_turn(self, seat: int, phases: tuple[Phase, ...]) -> None:
        if self.phase not in phases:
            raise IllegalAction(f"not during the {self.phase.value}")
        if seat != self.to_act:
            raise IllegalAction(f"it is {self.seats[self._to_act].name}'s turn")

    # -- actions --------------------------------------------------------------------------

    def open(self, amount: int) -> Bet:
        """Player_1 bets ``amount``; the others will match it or fold."""
        self.verify_open(amount)
        self.bet = amount
        return self._put_in(0)

    def call(self, seat: int) -> Bet:
        """``seat`` matches Player_1's bet."""
        self.verify_call(seat)
        return self._put_in(seat)

    def fold(self, seat: int) -> Fold:
        """``seat`` leaves the game; Player_1 folding ends it with no winner."""
        self.verify_fold(seat)
        player = self.seats[seat]
        player.active = False
        if seat == 0:
            self.phase = Phase.OVER
        else:
            self._advance(seat)
        return Fold(seat, player.name, player.bank)

    def exchange(self, seat: int, positions: Iterable[int]) -> Exchange:
        """``seat`` discards the cards at ``positions`` and draws as many from the deck."""
        chosen = list(positions)
        self.verify_exchange(seat, chosen)
        player = self.seats[seat]
        kept = [card for i, card in enumerate(player.hand) if i not in chosen]
        player.hand = kept + self._take(len(chosen))
        self._advance(seat)
        return Exchange(seat, player.name, len(chosen), tuple(player.hand))

    def showdown(self, tiebreak: Tiebreak = Tiebreak.FIRST) -> Showdown:
        """Rank the active hands, pick the winner(s) and give them the pot."""
        if self.phase is not Phase.SHOWDOWN:
            raise IllegalAction(f"not during the {self.phase.value}")
        holdings = tuple(
            Holding(i, self.seats[i].name, tuple(self.seats[i].hand), rank_hand(self.seats[i].hand))
            for i in self.active()
        )
        winners = best_holdings(holdings, tiebreak)
        shares = split_pot(self.pot, len(winners))
        for holding, share in zip(winners, shares, strict=True):
            self.seats[holding.seat].bank += share
        self.pot = 0
        self.phase = Phase.OVER
        self.showdown_result = Showdown(holdings, winners, shares)
        return self.showdown_result

    # -- bookkeeping ----------------------------------------------------------------------

    def _take(self, count: int) -> list[Card]:
        cards = self._deck.deal(count)
        self.dealt.extend(cards)
        return cards

    def _put_in(self, seat: int) -> Bet:
        player, amount = self.seats[seat], self.bet
        player.bank -= amount
        self.pot += amount
        self._advance(seat)
        return Bet(seat, player.name, tuple(player.hand), amount, self.pot, player.bank)

    def _advance(self, seat: int) -> None:
        """Move the turn past ``seat``; at the end of a round, on to the next phase."""
        later = [i for i in self.active() if i > seat]
        if later:
            self._to_act = later[0]
            return
        self._to_act = 0
        self.bet = 0
        following = {
            Phase.FIRST_BET: Phase.EXCHANGE,
            Phase.EXCHANGE: Phase.SECOND_BET,
            Phase.SECOND_BET: Phase.SHOWDOWN,
        }
        self.phase = following[self.phase]
        if self.phase is Phase.SECOND_BET and self.seats[0].bank == 0:
            self.phase = Phase.SHOWDOWN  # Player_1 has nothing left to bet: no second round


def best_holdings(holdings: Sequence[Holding], tiebreak: Tiebreak) -> tuple[Holding, ...]:
    """The winning holdings: the first of the best category, or every best hand (kickers)."""
    if tiebreak is Tiebreak.FIRST:
        best = max(holding.category for holding in holdings)
        return (next(h for h in holdings if h.category == best),)
    top = max(holding.value for holding in holdings)
    return tuple(holding for holding in holdings if holding.value == top)


def split_pot(pot: int, winners: int) -> tuple[int, ...]:
    """``pot`` in ``winners`` shares that differ by at most one chip, larger ones first."""
    share, odd = divmod(pot, winners)
    return tuple(share + (1 if i < odd else 0) for i in range(winners))
