"""Computer players: decisions from equity, pot odds and position, in three styles.

A bot takes its equity against the players still in the hand exactly where that is cheap
(heads-up on the turn and river: :func:`casino.holdem.equity.is_cheap`, by
:func:`~casino.holdem.equity.exact_ranged_equity`, drawing no random number) and by seeded
Monte Carlo elsewhere (:func:`casino.holdem.equity.equity`); an opponent who has bet or
raised this hand is assumed to hold a better-than-random hand (a floor on the preflop
score). It compares the equity with its fair share (one in the number of players), with
the pot odds of a call, and with its style's thresholds; late position lowers the bar to
bet; now and then it bluffs. Every decision goes through the engine's own actions, so a bot
can never act illegally.

Styles (:data:`STYLES`): ``tight`` (tight-aggressive), ``loose`` (loose-aggressive, bluffs
more) and ``station`` (a calling station: calls a lot, rarely raises, never bluffs). The
baselines ``caller`` (always check or call) and ``random`` exist to measure them against.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from casino.holdem.engine import Action, Hand, Kind, Street
from casino.holdem.equity import equity, exact_ranged_equity, is_cheap


@dataclass(frozen=True)
class Style:
    """How a computer player turns equity into actions."""

    name: str
    play: float
    """Fair-share multiple of equity needed to call a bet at all (before pot odds)."""
    value: float
    """Fair-share multiple of equity at which it bets or raises for value."""
    margin: float
    """Equity above the pot odds it wants before calling."""
    bluff: float
    """Chance of betting without the hand when checked to (and of a semi-bluff raise)."""
    size: float
    """Bet size as a fraction of the pot."""


STYLES: dict[str, Style] = {
    "tight": Style("tight", play=0.9, value=1.45, margin=0.04, bluff=0.08, size=0.75),
    "loose": Style("loose", play=0.6, value=1.25, margin=-0.02, bluff=0.2, size=0.9),
    "station": Style("station", play=0.35, value=1.8, margin=-0.1, bluff=0.0, size=0.5),
}
"""The computer players' styles, by the name ``--styles`` takes."""

SAMPLES = 300
"""Monte Carlo deals per decision (where equity is not exact: :func:`is_cheap`)."""


def _floors(hand: Hand, seat: int) -> list[float]:
    """The preflop-score floor of each opponent still in: raisers hold better hands."""
    aggressive = {a.seat for a in hand.actions if a.kind in (Kind.BET, Kind.RAISE)}
    return [8.0 if other in aggressive else -99.0 for other in hand.live if other != seat]


def _late(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` acts last or next to last after the flop."""
    return seat in hand.order_from(hand.button)[-2:]


def decide(hand: Hand, style: Style, rng: random.Random, samples: int = SAMPLES) -> Action:
    """Play the turn of the player to act in ``style``; returns the engine's record.

    ``samples`` is the Monte Carlo deals where the equity is not exact (:func:`is_cheap`)."""
    legal = hand.legal()
    seat = legal.seat
    opponents = len(hand.live) - 1
    floors = _floors(hand, seat)
    if is_cheap(hand.board, opponents):
        share = exact_ranged_equity(hand.hole[seat], hand.board, opponents, floors)
    else:
        share = equity(hand.hole[seat], hand.board, opponents, samples, rng, floors)
    strength = share * (opponents + 1)
    pot = hand.pot_total()
    value = style.value - (0.15 if _late(hand, seat) else 0.0)
    if legal.can_bet_or_raise and strength >= value:
        return hand.bet_or_raise(_size(hand, style, rng))
    if legal.call == 0:
        if legal.can_bet_or_raise and rng.random() < style.bluff:
            return hand.bet_or_raise(_size(hand, style, rng))
        return hand.check()
    odds = legal.call / (pot + legal.call)
    if strength >= style.play and share >= odds + style.margin:
        return hand.call()
    if hand.street is Street.PREFLOP and legal.call <= hand.big_blind and strength >= style.play:
        return hand.call()
    if legal.can_bet_or_raise and rng.random() < style.bluff / 3:
        return hand.bet_or_raise(_size(hand, style, rng))
    return hand.fold()


def _size(hand: Hand, style: Style, rng: random.Random) -> int:
    """A bet or raise total: the style's share of the pot over the current bet, clamped."""
    legal = hand.legal()
    top = max(hand.bets)
    wanted = top + int(hand.pot_total() * style.size * rng.uniform(0.8, 1.2))
    wanted -= wanted % hand.big_blind
    return max(legal.min_to, min(legal.max_to, wanted))


def always_call(hand: Hand, rng: random.Random) -> Action:
    """The baseline that checks or calls everything."""
    return hand.check() if hand.legal().can_check else hand.call()


def random_player(hand: Hand, rng: random.Random) -> Action:
    """The baseline that picks uniformly among fold (when facing a bet), check/call and a
    bet/raise of a random legal size."""
    legal = hand.legal()
    options = ["passive"]
    if legal.call:
        options.append("fold")
    if legal.can_bet_or_raise:
        options.append("raise")
    choice = rng.choice(options)
    if choice == "fold":
        return hand.fold()
    if choice == "raise":
        return hand.bet_or_raise(rng.randint(legal.min_to, legal.max_to))
    return always_call(hand, rng)


Player = Callable[[Hand, random.Random], Action]
"""A computer player: given the hand (its turn) and a random source, act."""


def player_of(name: str, samples: int = SAMPLES) -> Player:
    """The computer player called ``name``: a style of :data:`STYLES`, ``caller`` or
    ``random``; :class:`KeyError` for anything else."""
    if name == "caller":
        return always_call
    if name == "random":
        return random_player
    style = STYLES[name]
    return lambda hand, rng: decide(hand, style, rng, samples)
