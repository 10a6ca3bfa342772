"""The member's side of the table: a match of hands against the computer, in a console.

Thin over the pure modules: :mod:`~casino.domino.rules` decides, :mod:`~casino.domino.strategy`
plays the computer, :mod:`~casino.domino.money` keeps the money, :mod:`~casino.domino.commands`
reads what is typed. Every message goes through the ``domino`` gettext catalog; the move clock
is the console's :meth:`~casino.shell.Console.read_within` on an injected clock.
"""

from __future__ import annotations

import contextlib
import gettext
import math
from collections.abc import Iterator
from dataclasses import dataclass

from casino.clock import WaitClock
from casino.domino import commands
from casino.domino.commands import Invalid, Play, Word
from casino.domino.money import STAKE, Ledger, settle_hand
from casino.domino.rules import COMPUTER, MEMBER, Deal, End, HandState, Move
from casino.domino.strategy import ours, take_turn
from casino.domino.tiles import Tile
from casino.shell import TIMED_OUT, Console, TimedOut

N_ = commands.N_

SAVE_CURSOR, RESTORE_CURSOR = "\x1b7", "\x1b8"


@dataclass(frozen=True)
class Table:
    """How the match is set: money, the move clock, and how it is shown."""

    bankroll: int = 100
    move_seconds: float = 15.0
    unicode: bool = False
    countdown: bool = False  # rewrite the clock every second (a terminal)
    pauses: bool = False  # a line "@S" is S seconds of silence (the scripted clock)


class _Quit(Exception):
    """Control flow, not an error: the member asked to leave (or the input ended)."""


class Session:
    """One match: hands until the member quits, someone cannot cover the stake, or the
    stacked deals run out; then the summary."""

    def __init__(
        self,
        console: Console,
        translations: gettext.NullTranslations,
        clock: WaitClock,
        deals: Iterator[Deal],
        table: Table,
    ) -> None:
        self.console = console
        self.tr = translations
        self.clock = clock
        self.deals = deals
        self.table = table
        self.ledger = Ledger.even(table.bankroll)

    # ------------------------------------------------------------ text

    def _(self, message: str, **values: object) -> str:
        return self.tr.gettext(message).format(**values)

    def _n(self, one: str, many: str, count: int, **values: object) -> str:
        return self.tr.ngettext(one, many, count).format(n=count, **values)

    def say(self, message: str, **values: object) -> None:
        """Write one translated line."""
        self.console.line(self._(message, **values))

    def tile(self, tile: Tile, left: int | None = None) -> str:
        """A tile as the console shows it."""
        return tile.glyph(left) if self.table.unicode else tile.ascii(left)

    def end_name(self, end: End) -> str:
        """``left``/``right`` in the member's language."""
        return self.tr.pgettext("end", end.value)

    # ------------------------------------------------------------ the match

    def run(self) -> None:
        """Play the match and print its summary."""
        self.say(
            N_(
                "CASINO-ROYAL dominoes: you against the computer, ${stake} a hand, "
                "{seconds} s a move (type help)."
            ),
            stake=STAKE,
            seconds=_seconds(self.table.move_seconds),
        )
        with contextlib.suppress(_Quit):
            self._hands()
        self._summary()

    def _hands(self) -> None:
        while True:
            deal = next(self.deals, None)
            if deal is None:
                self.say(N_("No stacked deals are left: the match is over."))
                return
            self._hand(deal)
            broke = self.ledger.broke()
            if broke is not None:
                self.say(
                    N_("You cannot cover ${stake}: the match is over.")
                    if broke == MEMBER
                    else N_("The computer cannot cover ${stake}: the match is over."),
                    stake=STAKE,
                )
                return
            if not self._another():
                return

    def _another(self) -> bool:
        while True:
            answer = self.console.ask(self._(N_("Another hand? (y/n) ")))
            while answer is not None and self._pause(answer):
                answer = self.console.read()
            if answer is None:
                self.console.line()
                return False
            choice = commands.parse_yes_no(answer)
            if choice is not None:
                return choice
            self.say(N_("Answer y or n."))

    def _summary(self) -> None:
        ledger = self.ledger
        self.console.line(
            self._n(
                N_("Match over after {n} hand: won {won}, lost {lost}, drawn {drawn}."),
                N_("Match over after {n} hands: won {won}, lost {lost}, drawn {drawn}."),
                ledger.hands,
                won=ledger.won,
                lost=ledger.lost,
                drawn=ledger.drawn,
            )
        )
        self.say(
            N_("Money: you ${member} ({net:+d}), the computer ${computer}."),
            member=ledger.bankrolls[MEMBER],
            net=ledger.net,
            computer=ledger.bankrolls[COMPUTER],
        )

    # ------------------------------------------------------------ one hand

    def _hand(self, deal: Deal) -> None:
        self.say(N_("--- Hand {number} ---"), number=self.ledger.hands + 1)
        for member, computer in deal.draws:
            self.say(
                N_("Drawing for the lead: you {mine} ({a}), the computer {theirs} ({b})."),
                mine=self.tile(member),
                a=member.pips,
                theirs=self.tile(computer),
                b=computer.pips,
            )
            if member.pips == computer.pips:
                self.say(N_("Equal totals: draw again."))
        self.say(N_("You lead.") if deal.opener == MEMBER else N_("The computer leads."))
        state = HandState.start(deal)
        while state.result is None:
            if state.turn == COMPUTER:
                self._computer(state)
            else:
                self._member(state)
        self._result(state)

    def _result(self, state: HandState) -> None:
        assert state.result is not None
        settle_hand(self.ledger, state.result, self.say)

    # ------------------------------------------------------------ the computer

    def _computer(self, state: HandState) -> None:
        turn = take_turn(state, COMPUTER, ours)
        if turn.drawn:
            self.console.line(
                self._n(
                    N_("The computer draws {n} tile from the boneyard."),
                    N_("The computer draws {n} tiles from the boneyard."),
                    len(turn.drawn),
                )
            )
        if turn.move is None:
            self.say(N_("The computer passes."))
        else:
            self._played(turn.move, state, N_("The computer plays {tile} on the {end}."))

    def _played(self, move: Move, state: HandState, message: str) -> None:
        placed = state.line[0] if move.end is End.LEFT else state.line[-1]
        self.say(message, tile=self.tile(placed.tile, placed.left), end=self.end_name(move.end))

    # ------------------------------------------------------------ the member

    def _member(self, state: HandState) -> None:
        self._show(state)
        start, prompt = self.clock.now(), True
        while state.turn == MEMBER and state.result is None:
            left = self.table.move_seconds - (self.clock.now() - start)
            answer = self._timed_read(max(left, 0.0), prompt)
            if answer is TIMED_OUT:
                self._timed_out(state)
                return
            if answer is None:
                self.console.line()
                raise _Quit
            prompt = not self._pause(answer)
            moved = prompt and self._command(state, answer)
            if moved and state.turn == MEMBER and state.result is None:  # drew: now play
                self._show(state)
                start = self.clock.now()

    def _pause(self, line: str) -> bool:
        """Whether ``line`` is the scripted clock's ``@S`` (never a command)."""
        return self.table.pauses and commands.pause_seconds(line) is not None

    def _timed_read(self, seconds: float, prompt: bool) -> str | TimedOut | None:
        width = len(str(_seconds(self.table.move_seconds)))
        shown = math.ceil(seconds)
        if prompt:
            label = self._(N_("Your move: "))
            self.console.write(f"[{shown:>{width}} s] {label}")

        def tick(left: int) -> None:
            if self.table.countdown and left != shown:
                self.console.write(f"{SAVE_CURSOR}\r[{left:>{width}} s]{RESTORE_CURSOR}")
                self.console.out.flush()

        self.console.out.flush()
        return self.console.read_within(seconds, self.clock, tick)

    def _command(self, state: HandState, line: str) -> bool:
        """Carry out one line; whether it was a move (a play, a draw or a pass)."""
        command = commands.parse_command(line)
        if isinstance(command, Invalid):
            self.say(command.message, word=command.word)
            return False
        if command is Word.HELP:
            self._help()
            return False
        if command is Word.QUIT:
            raise _Quit
        if command is Word.DRAW:
            return self._draw(state)
        if command is Word.PASS:
            return self._pass(state)
        assert isinstance(command, Play)
        return self._play(state, command)

    def _draw(self, state: HandState) -> bool:
        if not state.can_draw(MEMBER):
            self.say(
                N_("You cannot draw: a tile of yours fits.")
                if state.moves(MEMBER)
                else N_("You cannot draw: the boneyard is empty. Pass.")
            )
            return False
        drawn = state.draw(MEMBER)
        self.say(N_("You draw {tiles}."), tiles=" ".join(self.tile(t) for t in drawn))
        if state.can_pass(MEMBER):
            self.say(N_("Nothing fits and the boneyard is empty: pass."))
        return True

    def _pass(self, state: HandState) -> bool:
        if not state.can_pass(MEMBER):
            self.say(
                N_("You cannot pass: a tile of yours fits.")
                if state.moves(MEMBER)
                else N_("You cannot pass: draw from the boneyard first.")
            )
            return False
        state.pass_turn(MEMBER)
        self.say(N_("You pass."))
        return True

    def _play(self, state: HandState, command: Play) -> bool:
        hand = state.hands[MEMBER]
        if not 1 <= command.number <= len(hand):
            self.say(
                N_("There is no tile {word}: choose 1 to {count}."),
                word=command.text,
                count=len(hand),
            )
            return False
        tile = hand[command.number - 1]
        end = self._end(state, tile, command.end)
        if end is None:
            return False
        state.play(MEMBER, tile, end)
        self._played(Move(tile, end), state, N_("You play {tile} on the {end}."))
        return True

    def _end(self, state: HandState, tile: Tile, said: End | None) -> End | None:
        """Where ``tile`` goes, or ``None`` after saying why it cannot."""
        fits = state.fits(tile)
        ends = state.ends
        if not fits:
            assert ends is not None
            self.say(
                N_("{tile} fits neither end ({left} and {right})."),
                tile=self.tile(tile),
                left=ends[0],
                right=ends[1],
            )
            return None
        if said is None:
            if len(fits) == 2 and ends is not None and ends[0] != ends[1]:
                self.say(N_("{tile} fits both ends: say left or right."), tile=self.tile(tile))
                return None
            return fits[0]
        if ends is None or said in fits:
            return said
        self.say(
            N_("{tile} does not fit the left end ({number}).")
            if said is End.LEFT
            else N_("{tile} does not fit the right end ({number})."),
            tile=self.tile(tile),
            number=ends[0] if said is End.LEFT else ends[1],
        )
        return None

    def _timed_out(self, state: HandState) -> None:
        self.console.line()
        automatic = state.time_out(MEMBER)
        count = state.timeouts[MEMBER]
        if automatic is None:
            self.say(N_("Time is up for the third time in a row: you lose the hand."))
            return
        self.say(N_("Time is up ({count} of 3 in a row): an automatic move."), count=count)
        if automatic.drawn:
            self.say(N_("You draw {tiles}."), tiles=" ".join(self.tile(t) for t in automatic.drawn))
        if automatic.move is None:
            self.say(N_("You pass."))
        else:
            self._played(automatic.move, state, N_("You play {tile} on the {end}."))

    # ------------------------------------------------------------ the screen

    def _show(self, state: HandState) -> None:
        line = "".join(self.tile(p.tile, p.left) for p in state.line)
        self.say(N_("Line: {tiles}"), tiles=line or self._(N_("(empty)")))
        if state.ends is not None:
            self.say(
                N_("Open ends: left {left}, right {right}."),
                left=state.ends[0],
                right=state.ends[1],
            )
        self.console.line(
            self._n(
                N_("The computer holds {n} tile"),
                N_("The computer holds {n} tiles"),
                len(state.hands[COMPUTER]),
            )
            + " · "
            + self._n(N_("boneyard: {n} tile"), N_("boneyard: {n} tiles"), len(state.boneyard))
            + " · "
            + self._(
                N_("you ${member}, the computer ${computer}"),
                member=self.ledger.bankrolls[MEMBER],
                computer=self.ledger.bankrolls[COMPUTER],
            )
        )
        tiles = "  ".join(f"{i}:{self.tile(t)}" for i, t in enumerate(state.hands[MEMBER], 1))
        self.say(N_("Your tiles: {tiles}"), tiles=tiles)

    def _help(self) -> None:
        for line in help_lines(self.tr, self.table.move_seconds):
            self.console.line(line)


COMMANDS = (
    (N_("3 left, 3 right"), N_("play your tile 3 at that end (just 3 when only one end fits)")),
    (N_("draw"), N_("draw from the boneyard until a tile fits (only when none fits)")),
    (N_("pass"), N_("pass (only when nothing fits and the boneyard is empty)")),
    (N_("help"), N_("this list")),
    (N_("quit"), N_("leave the match (an unfinished hand is not played out)")),
)
"""The member's commands, (syntax, what it does): the in-game ``help`` and ``--help``."""
CLOCK_RULE = N_("Each move has {seconds} s; three turns in a row timed out lose the hand.")


def command_table(tr: gettext.NullTranslations) -> list[tuple[str, str]]:
    """:data:`COMMANDS` in the member's language."""
    return [(tr.gettext(syntax), tr.gettext(meaning)) for syntax, meaning in COMMANDS]


def help_lines(tr: gettext.NullTranslations, seconds: float) -> list[str]:
    """What ``help`` prints: the commands in a table, then the clock's rule."""
    table = command_table(tr)
    width = max(len(syntax) for syntax, _ in table)
    return [
        tr.gettext(N_("Commands:")),
        *(f"  {syntax:<{width}}   {meaning}" for syntax, meaning in table),
        tr.gettext(CLOCK_RULE).format(seconds=_seconds(seconds)),
    ]


def _seconds(seconds: float) -> str:
    """``15`` for 15.0, ``2.5`` for 2.5."""
    return f"{seconds:g}"
