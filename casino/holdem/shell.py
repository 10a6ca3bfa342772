"""The terminal table: you (or several humans, hot-seat) against the computer players.

The loop deals a hand, lets each player act in turn — a human through a command line, a
computer player through :mod:`casino.holdem.bots` — prints every action, street and
showdown for everyone, and shows hole cards only to the human whose turn it is. With more
than one human at the keyboard the screen is cleared between seats and the next player
presses Enter before their cards appear. End of input is ``salir``: nothing is lost.
"""

from __future__ import annotations

import gettext
import random
from dataclasses import dataclass, field

from casino.cards.card import parse_cards
from casino.errors import IllegalAction, ParseError
from casino.holdem.bots import Player, player_of
from casino.holdem.commands import BadCommand, Verb, parse_command, perform
from casino.holdem.engine import Action, Hand, Refused
from casino.holdem.helptext import HELP as HELP
from casino.holdem.helptext import localize_help as localize_help
from casino.holdem.rules import Rules
from casino.holdem.table import Seat, Table, shuffled_deck
from casino.holdem.view import (
    action_text,
    blind_posts,
    blinds_text,
    legal_text,
    showdown_text,
    street_text,
    table_text,
)
from casino.net.names import computer_name
from casino.shell import Console

CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""Hot-seat between players: cursor home, clear the screen and the scrollback (``ESC[3J``), so
the previous player's hole cards are not one scroll away."""
"""ANSI: clear the screen and go home (hot-seat, between two humans)."""

BOT_NAMES = tuple(
    computer_name(name)
    for name in ("Ana", "Bruno", "Carla", "Diego", "Elena", "Fabio", "Gala", "Hugo")
)
"""The computer players' names, each marked as the computer's (``Ana (bot)``: see
:mod:`casino.net.names`), so that no person's name is refused for colliding with them."""
STYLE_CYCLE = ("tight", "loose", "station")


@dataclass
class Settings:
    """A local game's options (``casino holdem``'s command line)."""

    players: int = 4
    stack: int = 1000
    stacks: tuple[int, ...] = ()
    """Chips per seat when they differ (``--stack 1000,300,150``); else ``stack`` each."""
    rules: Rules = field(default_factory=Rules)
    """Blinds and ante (``--blinds``, ``--ante``)."""
    seed: int | None = None
    decks: list[list[int]] = field(default_factory=list)
    """Stacked tops of deck, one per hand, from ``--deck-file``."""
    humans: int = 1
    styles: tuple[str, ...] = ()
    hands: int | None = None


class Quit(Exception):
    """Control flow, not an error: a human typed ``salir``/``quit`` or the input ended."""


class LocalGame:
    """One sitting at the terminal table."""

    def __init__(self, settings: Settings, console: Console, tr: gettext.NullTranslations):
        self.settings = settings
        self.console = console
        self.tr = tr
        master = random.Random(settings.seed)
        self.deck_rng = random.Random(master.getrandbits(64))
        self.bot_rng = random.Random(master.getrandbits(64))
        self.names = self._names()
        self.bots: dict[int, Player] = {}
        styles = settings.styles or STYLE_CYCLE
        for seat in range(settings.humans, settings.players):
            self.bots[seat] = player_of(styles[(seat - settings.humans) % len(styles)])
        chips = settings.stacks or (settings.stack,) * settings.players
        seats = [Seat(name, chips[seat]) for seat, name in enumerate(self.names)]
        self.table = Table(seats, settings.rules)
        self.shown_to: int | None = None
        self.you = 0 if settings.humans == 1 else None
        """The seat spoken to in the second person: the one human ("Tú"); hot-seat players
        are named ("Jugador 1") and spoken of like everybody else."""

    def _names(self) -> list[str]:
        _ = self.tr.gettext
        if self.settings.humans == 1:
            humans = [_("You")]
        else:
            humans = [
                _("Player {number}").format(number=k) for k in range(1, self.settings.humans + 1)
            ]
        return humans + list(BOT_NAMES[: self.settings.players - self.settings.humans])

    # --- the sitting ----------------------------------------------------------------------

    def run(self) -> int:
        """Play hands until a human quits, the humans are out, or one player is left."""
        _ = self.tr.gettext
        self.say(
            _("Texas Hold'em: {players} players, {stack} chips each, blinds {small}/{big}.").format(
                players=self.settings.players,
                stack="/".join(str(seat.chips) for seat in self.table.seats)
                if self.settings.stacks
                else self.settings.stack,
                small=self.settings.rules.small_blind,
                big=self.settings.rules.big_blind,
            )
        )
        if self.settings.rules.ante:
            self.say(_("Every player antes {ante}.").format(ante=self.settings.rules.ante))
        self.say(_("Type help for the commands."))
        try:
            while self._more_hands():
                self.play_hand()
        except Quit:
            pass
        self._summary()
        return 0

    def _more_hands(self) -> bool:
        limit = self.settings.hands
        humans_in = any(self.table.seats[s].playing for s in range(self.settings.humans))
        return (
            not self.table.finished and humans_in and (limit is None or self.table.number < limit)
        )

    def _summary(self) -> None:
        _ = self.tr.gettext
        self.say(_("Game over. Chips:"))
        for seat in self.table.seats:
            self.say(f"  {seat.name}: {seat.chips}")

    def say(self, text: str) -> None:
        """Print one line for everybody at the table."""
        self.console.line(text)

    # --- a hand -----------------------------------------------------------------------------

    def next_deck(self) -> list[int]:
        """The next hand's deck: a stacked top from the deck file, the rest shuffled."""
        deck = shuffled_deck(self.deck_rng)
        if self.table.number < len(self.settings.decks):
            top = self.settings.decks[self.table.number]
            deck = top + [card for card in deck if card not in top]
        return deck

    def play_hand(self) -> None:
        """Deal, bet every street, show down, settle."""
        _ = self.tr.gettext
        hand = self.table.start_hand(self.next_deck())
        self.shown_to = None  # a new hand: the next human's cards wait for a hand-over
        self.say("")
        self.say(
            _("--- Hand {number} · button: {name} ---").format(
                number=self.table.number, name=self.names[hand.button]
            )
        )
        self._announce_blinds(hand)
        while not hand.over:
            board = len(hand.board)
            seat = hand.to_act
            assert seat is not None
            action = self.bots[seat](hand, self.bot_rng) if seat in self.bots else self.ask(seat)
            self.say(action_text(action, self.names[seat], self.tr, you=seat == self.you))
            self._announce_board(hand, board)
        for line in showdown_text(hand, self.names, self.tr, you=self.you):
            self.say(line)
        self.table.settle()
        for index, chair in enumerate(self.table.seats):
            if hand.starting[index] and not chair.playing:
                self.say(_("{name} is out of chips and leaves the table.").format(name=chair.name))

    def _announce_blinds(self, hand: Hand) -> None:
        for line in blinds_text(blind_posts(hand), self.names, self.tr):
            self.say(line)

    def _announce_board(self, hand: Hand, before: int) -> None:
        for size in (3, 4, 5):
            if before < size <= len(hand.board):
                self.say(street_text(hand.board, size, self.tr))

    # --- a human's turn ---------------------------------------------------------------------

    def ask(self, seat: int) -> Action:
        """Read commands from the human in ``seat`` until one is a legal play."""
        hand = self.table.hand
        assert hand is not None
        self._hand_over_keyboard(seat)
        for line in table_text(self.table, seat, self.names, self.tr, you=self.you):
            self.say(line)
        while True:
            self.say(legal_text(hand.legal(), self.tr))
            text = self.console.ask("> ")
            if text is None:
                raise Quit
            try:
                intent = parse_command(text)
                if intent.verb is Verb.QUIT:
                    raise Quit
                if intent.verb is Verb.HELP:
                    self._help()
                    continue
                return perform(hand, intent)
            except BadCommand as error:
                self._refuse(error.template, error.values)
            except Refused as error:
                self._refuse(error.template, {k: str(v) for k, v in error.values.items()})
            except IllegalAction as error:  # pragma: no cover - every refusal is a Refused
                self.say(str(error))

    def _refuse(self, template: str, values: dict[str, str]) -> None:
        _ = self.tr.gettext
        self.say(_("Not allowed: {reason}").format(reason=_(template).format(**values)))

    def _help(self) -> None:
        _ = self.tr.gettext
        for line in _(HELP).splitlines():
            self.say(line)

    def _hand_over_keyboard(self, seat: int) -> None:
        """Hot-seat: clear the screen and wait for the next human before showing cards."""
        if self.settings.humans < 2 or self.shown_to == seat:
            return
        _ = self.tr.gettext
        self.console.write(CLEAR)
        prompt = _("{name}, your turn: press Enter (nobody else looking).").format(
            name=self.names[seat]
        )
        if self.console.ask(prompt + " ") is None:
            raise Quit
        self.shown_to = seat


def parse_deck_file(text: str) -> list[list[int]]:
    """A deck file: one line per hand, the top of that hand's deck in dealing order (hole
    cards one at a time from the seat after the button, then flop, turn, river); blank lines
    and ``#`` comments are skipped. :class:`~casino.errors.ParseError` on a bad card or a
    card twice in one line."""
    decks = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            cards = [card.index for card in parse_cards(line)]
        except ParseError as error:
            raise ParseError(f"line {number}: {error}") from None
        if len(set(cards)) != len(cards) or len(cards) > 52:
            raise ParseError(f"line {number}: a card appears twice")
        decks.append(cards)
    return decks
