"""Five-card draw at a console: Player_1 answers the questions, the rest is printed.

The shell is thin: :func:`run_game` asks for the number of players (unless it is given),
sets the table, and lets :func:`casino.draw.play.play` drive it, printing every record with
:func:`casino.draw.messages.event_lines` as it happens, so that output and questions come
in the seed's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino.cards import Deck
from casino.draw import messages
from casino.draw.play import Event, play
from casino.draw.rules import MAX_PLAYERS, MIN_PLAYERS, Table, Tiebreak
from casino.draw.strategy import Strategy, choose_discards
from casino.draw.validate import ask_character, ask_number, ask_positions
from casino.shell import Console

_BET, _FOLD = "Bb", "Ff"


@dataclass
class ConsolePlayer:
    """Player_1 at the console; ``choose`` asks for the exchange instead of using the
    computer players' rule (the seed's samples show no question for it)."""

    console: Console
    choose: bool = False

    def bet(self, table: Table) -> int | None:
        """Bet or fold; then the amount, from 1 to what Player_1 has left."""
        answer = ask_character(self.console, messages.BET_OR_FOLD_PROMPT, _BET + _FOLD)
        if answer in _FOLD:
            return None
        low, high = table.bet_limits()
        prompt = messages.bet_prompt(table.seats[0].name, high)
        return ask_number(self.console, prompt, low, high)

    def discards(self, table: Table) -> list[int]:
        """The positions to exchange: asked with ``choose``, else the computer's choice."""
        player = table.seats[0]
        if not self.choose:
            return choose_discards(player.hand)
        prompt = messages.exchange_prompt(player.name)
        return ask_positions(self.console, prompt, lambda chosen: table.can_exchange(0, chosen))


@dataclass(frozen=True)
class Settings:
    """How a game is set up from the command line."""

    players: int | None = None
    banks: Sequence[int] = ()
    choose: bool = False
    tiebreak: Tiebreak = Tiebreak.FIRST


def run_game(console: Console, deck: Deck, settings: Settings) -> Table:
    """Play one game on ``console`` with cards from ``deck``; return the table as it ended."""
    players = settings.players
    if players is None:
        players = ask_number(console, messages.PLAYERS_PROMPT, MIN_PLAYERS, MAX_PLAYERS)
    table = Table(players, deck, settings.banks[:players])

    def report(event: Event) -> None:
        for line in messages.event_lines(event):
            console.line(line)

    computers = [Strategy() for _ in range(players - 1)]
    play(table, ConsolePlayer(console, settings.choose), computers, report, settings.tiebreak)
    return table
