"""The video poker commands, shared by the interactive and the debug shell.

Commands (the seed's): ``b [i]`` bet, ``$`` credit, ``d`` deal, ``h [i…]`` hold, ``a``
advice, ``s`` statistics. Messages are the course's (``player is betting 5``, ``player's
hand 2H KH 2S JS 6D``, ``player wins with a FULL HOUSE and his credit is 10045``, …).
A command at the wrong moment, an unknown word, or arguments a command does not take print
``<word>: illegal command`` and change nothing; a bad bet prints ``b: illegal amount`` and
bad hold positions ``h: illegal position``.

A cmd-file is a token stream (spaces, tabs, newlines, CRLF alike): :func:`group_commands`
makes each token that does not read as a number start a command and gives it the number
tokens that follow as its arguments — ``b d h 1 3 $ b 10`` is ``b``, ``d``, ``h 1 3``,
``$``, ``b 10``. A stray word (``x``) is a command of its own and is reported as illegal.
Numbers are ASCII digits and are read by :mod:`casino.numbers` (bounded: a 5,000-digit bet
is an illegal amount, not a crash).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence

from casino.cards import Card, format_cards
from casino.errors import ParseError
from casino.numbers import is_digits, parse_int
from casino.shell import Command, CommandTable, Console
from casino.videopoker.game import BadAmount, BadPositions, Machine, Outcome, WrongMoment
from casino.videopoker.paytable import PayTable
from casino.videopoker.stats import render_table

Advisor = Callable[[Sequence[Card], PayTable, int], tuple[int, ...]]
"""Which cards to hold (0-based positions) for a deal, a pay table and a bet."""

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)", re.ASCII)


def group_commands(tokens: Iterable[str]) -> Iterator[Command]:
    """Commands from a token stream: each word with the number tokens that follow it."""
    word: str | None = None
    args: list[str] = []
    for token in tokens:
        if word is not None and _NUMBER.fullmatch(token):
            args.append(token)
            continue
        if word is not None:
            yield Command(word, " ".join(args))
        word, args = token, []
    if word is not None:
        yield Command(word, " ".join(args))


def echo(command: Command) -> str:
    """The command as debug mode echoes it, single-spaced: ``h 1 3``."""
    return " ".join([command.word, *command.args])


def hand_message(hand: Sequence[Card]) -> str:
    """``player's hand 2H KH 2S JS 6D``."""
    return f"player's hand {format_cards(tuple(hand))}"


def outcome_message(outcome: Outcome) -> str:
    """The result line of a finished hand."""
    if outcome.won:
        return f"player wins with a {outcome.line.value} and his credit is {outcome.credit}"
    return f"player loses and his credit is {outcome.credit}"


def advice_message(held: Sequence[int]) -> str:
    """``player should hold cards 1 4`` (1-based), or ``player should discard everything``."""
    if not held:
        return "player should discard everything"
    return "player should hold cards " + " ".join(str(position + 1) for position in held)


class VideoPokerCommands:
    """The command table of one machine: each handler applies a command and prints."""

    def __init__(self, machine: Machine, console: Console, advisor: Advisor) -> None:
        self.machine = machine
        self.console = console
        self.advisor = advisor
        self.table = CommandTable(unknown=self._illegal)
        for word, handler in {
            "b": self._bet,
            "$": self._credit,
            "d": self._deal,
            "h": self._hold,
            "a": self._advice,
            "s": self._statistics,
        }.items():
            self.table.register(word, handler)

    def run(self, command: Command) -> None:
        """Apply one command."""
        self.table.dispatch(command)

    def _illegal(self, command: Command, what: str = "command") -> None:
        self.console.line(f"{command.word}: illegal {what}")

    def _bet(self, command: Command) -> None:
        args = command.args
        if self.machine.in_hand:
            self._illegal(command)
            return
        try:
            if len(args) > 1:
                raise BadAmount(command.rest)
            amount = self.machine.place_bet(parse_int(args[0]) if args else None)
        except (BadAmount, ParseError):
            self._illegal(command, "amount")
        else:
            self.console.line(f"player is betting {amount}")

    def _credit(self, command: Command) -> None:
        if command.args:
            self._illegal(command)
        else:
            self.console.line(f"player's credit is {self.machine.credit}")

    def _deal(self, command: Command) -> None:
        try:
            if command.args:
                raise WrongMoment(command.rest)
            hand = self.machine.deal()
        except WrongMoment:
            self._illegal(command)
        else:
            self.console.line(hand_message(hand))

    def _hold(self, command: Command) -> None:
        args = command.args
        if not self.machine.in_hand:
            self._illegal(command)
            return
        try:
            if not all(is_digits(arg) for arg in args):
                raise BadPositions(command.rest)
            outcome = self.machine.hold(parse_int(arg) - 1 for arg in args)
        except BadPositions:
            self._illegal(command, "position")
        else:
            self.console.line(hand_message(outcome.hand))
            self.console.line(outcome_message(outcome))

    def _advice(self, command: Command) -> None:
        machine = self.machine
        if command.args or not machine.in_hand:
            self._illegal(command)
            return
        self.console.line(advice_message(self.advisor(machine.hand, machine.table, machine.bet)))

    def _statistics(self, command: Command) -> None:
        if command.args:
            self._illegal(command)
            return
        for line in render_table(self.machine.stats, self.machine.credit):
            self.console.line(line)
