"""The player's commands, in Spanish or English, and how each one reaches the engine.

One parser serves the terminal table, hot-seat play and the network table's line protocol:
``pasar``/``check``, ``ir``/``call``, ``apostar N``/``bet N``, ``subir N``/``raise N`` (to a
total of N this round), ``todo``/``allin``, ``retirarse``/``fold``, ``ayuda``/``help``,
``salir``/``quit``. Words are accepted in both languages whatever language is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from casino.errors import ParseError
from casino.holdem.engine import Action, Hand, Refused
from casino.numbers import parse_int


class Verb(Enum):
    """What a command asks for."""

    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "allin"
    FOLD = "fold"
    HELP = "help"
    QUIT = "quit"


WORDS: dict[str, Verb] = {
    "pasar": Verb.CHECK,
    "check": Verb.CHECK,
    "ir": Verb.CALL,
    "call": Verb.CALL,
    "apostar": Verb.BET,
    "bet": Verb.BET,
    "subir": Verb.RAISE,
    "raise": Verb.RAISE,
    "todo": Verb.ALL_IN,
    "allin": Verb.ALL_IN,
    "all-in": Verb.ALL_IN,
    "retirarse": Verb.FOLD,
    "fold": Verb.FOLD,
    "ayuda": Verb.HELP,
    "help": Verb.HELP,
    "salir": Verb.QUIT,
    "quit": Verb.QUIT,
}
"""Every command word, in both languages."""


@dataclass(frozen=True)
class Intent:
    """A parsed command: the verb and, for bet and raise, the total it asks for."""

    verb: Verb
    amount: int = 0


class BadCommand(ParseError):
    """A line that is not a command. ``template``/``values`` as :class:`Refused`."""

    def __init__(self, template: str, **values: str) -> None:
        values = {key: _printable(value) for key, value in values.items()}
        super().__init__(template.format(**values))
        self.template = template
        self.values = values


def _printable(text: str) -> str:
    """``text`` to echo back: at most 40 characters, control and undecodable ones as ``?``."""
    return "".join(char if char.isprintable() else "?" for char in text[:40])


def parse_command(line: str) -> Intent:
    """The command on ``line``; :class:`BadCommand` saying what is wrong."""
    words = line.strip().lower().split()
    if not words:
        raise BadCommand("type a command (help lists them)")
    verb = WORDS.get(words[0])
    if verb is None:
        raise BadCommand("unknown command: {word}", word=words[0])
    if verb in (Verb.BET, Verb.RAISE):
        if len(words) != 2:
            raise BadCommand("{word} needs one amount, for example: {word} 40", word=words[0])
        try:
            amount = parse_int(words[1])
        except ParseError:
            raise BadCommand("not an amount: {text}", text=words[1]) from None
        if amount < 1:
            raise BadCommand("not an amount: {text}", text=words[1])
        return Intent(verb, amount)
    if len(words) != 1:
        raise BadCommand("{word} takes no amount", word=words[0])
    return Intent(verb)


def perform(hand: Hand, intent: Intent) -> Action:
    """Carry out a play intent for the player to act; :class:`Refused` with the reason."""
    if intent.verb is Verb.CHECK:
        return hand.check()
    if intent.verb is Verb.CALL:
        return hand.call()
    if intent.verb is Verb.FOLD:
        return hand.fold()
    if intent.verb is Verb.ALL_IN:
        return hand.all_in()
    if intent.verb is Verb.BET and max(hand.bets) > 0:
        raise Refused("there is a bet already: raise")
    if intent.verb is Verb.RAISE and max(hand.bets) == 0:
        raise Refused("there is no bet to raise: bet")
    if intent.verb in (Verb.BET, Verb.RAISE):
        return hand.bet_or_raise(intent.amount)
    raise Refused("not a play")


def whole_number(text: str) -> int:
    """``text`` as a whole number (the strict shared parser; :class:`ParseError` if not).
    The one place Hold'em imports it from."""
    return parse_int(text)
