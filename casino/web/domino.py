"""Dominoes for a browser member against the computer, with the 15-second move clock.

The page sends intentions (``{"type": "play", "tile": [3, 5], "end": "left"}``, ``draw``,
``pass``, ``next``); :class:`casino.domino.rules.HandState` decides. The clock is the
server's: when the member's seconds run out (``move_seconds``, on the injected clock) the
rules' automatic move is made, as in the terminal game; the page only draws the countdown.
Messages come from the terminal game's ``domino`` catalog.

**Money.** Each hand is a game of the store: $10 (:data:`STAKE`) from the member's wallet
and $10 from the house are held while it is played, and settled in one transaction: $20 to
the winner, or each their $10 back after a drawn hand. The member's bankroll the page shows
is their wallet's; the computer's is the match's own tally (it starts with the member's
wallet, as in the terminal game), its money being the house's.

**Leaving.** A member whose session ends (a log-out, an expired session, a new log-in)
leaves the match (:meth:`DominoGame.leave`): the hand under way is not dropped (nor voided
by the next start, which would return a losing member's stake) but played out at once as
the seed's clock would play it out, each of the member's turns timed out (the automatic
move; the third turn in a row timed out loses the hand), then settled, and the match ends.
Waiting out each 15 seconds would change nothing of the outcome, so nobody waits. A page
that only closes leaves nothing: the match and its clock go on while it is away.
"""

from __future__ import annotations

import asyncio
import gettext
import random
from collections.abc import Awaitable, Callable
from typing import Any

from casino.clock import Clock
from casino.domino.money import STAKE, Ledger, settle_hand
from casino.domino.rules import (
    COMPUTER,
    MEMBER,
    End,
    Finish,
    HandState,
    Move,
    Result,
    shuffled_deal,
)
from casino.domino.strategy import ours, take_turn
from casino.domino.tiles import Tile
from casino.errors import IllegalAction
from casino.i18n import translator
from casino.web.bank import Bank
from casino.web.guard import LOG
from casino.web.holdemlog import LOG_LINES
from casino.web.store import StoreError
from casino.web.words import DOMINO, fill, page_words

Send = Callable[[dict[str, Any]], Awaitable[None]]


def N_(message: str) -> str:
    """A message id of the ``domino`` catalog (translated when shown)."""
    return message


class DominoGame:
    """One member's match against the computer: hands until they stop coming back for more."""

    def __init__(
        self,
        name: str,
        lang: str,
        account: int,
        bank: Bank,
        clock: Clock,
        seed: int,
        move_seconds: float = 15.0,
        think: float = 0.6,
        table: str = "dominoes",
    ) -> None:
        self.name = name
        self.lang = lang
        self.account = account
        self.bank = bank
        self.table = table
        """The match's name in the store."""
        self.tr: gettext.NullTranslations = translator("domino", lang)
        self.words = page_words("domino", lang)
        self.clock = clock
        self.rng = random.Random(seed)
        self.move_seconds = move_seconds
        self.think = think
        self.ledger = Ledger.even(0)
        """The match's tally; the member's side is their wallet (see :meth:`wallet`)."""
        self.state: HandState | None = None
        self.send: Send | None = None
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.log: list[str] = []
        self.deadline: float | None = None
        self.refused = 0
        self.notice: str | None = None
        """Why no hand can start (a key of the page's words: ``broke``, ``held``), if so."""
        self.left = False
        """Whether the member left (:meth:`leave`): their turns time out at once."""
        self.game: int | None = None
        """The store's game of the hand under way (``None`` between hands)."""

    # --- messages ---------------------------------------------------------------------

    def say(self, message: str, **values: object) -> None:
        """Add a translated line to the log, its numbers and dollars written for the
        member's language (:func:`casino.web.words.fill`)."""
        self.log = [
            *self.log[-LOG_LINES + 1 :],
            fill(self.tr.gettext(message), self.lang, **values),
        ]

    def end_name(self, end: End) -> str:
        """``left``/``right`` in the member's language."""
        return self.tr.pgettext("end", end.value)

    async def show(self) -> None:
        """Send the member their view (a closed page: nothing)."""
        send = self.send
        if send is None:
            return
        try:
            await send(self.view())
        except (ConnectionError, RuntimeError):
            self.send = None

    def view(self) -> dict[str, Any]:
        """The member's tiles, the line, the computer's count, the legal moves, the clock."""
        state = self.state
        data: dict[str, Any] = {
            "type": "domino",
            "log": self.log,
            "bankrolls": list(self.ledger.bankrolls),
            "stake": STAKE,
            "over": state is None or state.result is not None,
            "seconds": None,
            "total": self.move_seconds,
            "lang": self.lang,
            "words": self.words,
            "notice": None if self.notice is None else self.words[self.notice],
        }
        if state is None:
            return data
        if state.result is not None:
            data["result"] = self.result_view(state.result)
        mine = state.turn == MEMBER and state.result is None
        data.update(
            hand=[[t.low, t.high] for t in state.hands[MEMBER]],
            line=[[p.left, p.right] for p in state.line],
            theirs=len(state.hands[COMPUTER]),
            boneyard=len(state.boneyard),
            turn="you" if mine else "computer",
            moves=[
                {
                    "tile": [m.tile.low, m.tile.high],
                    "end": m.end.value,
                    "label": self.end_name(m.end),
                }
                for m in (state.moves(MEMBER) if mine else [])
            ],
            can_draw=mine and state.can_draw(MEMBER),
            can_pass=mine and state.can_pass(MEMBER),
        )
        if mine and self.deadline is not None:
            data["seconds"] = max(0.0, self.deadline - self.clock.now())
        return data

    def result_view(self, result: Result) -> dict[str, Any]:
        """How the hand ended, for the page's overlay: who won and why, in words."""
        said = self.words
        winner = {MEMBER: "you", COMPUTER: "computer", None: None}[result.winner]
        if result.finish is Finish.BLOCKED:
            why = fill(
                said["why_blocked"],
                self.lang,
                member=result.pips[MEMBER],
                computer=result.pips[COMPUTER],
            )
        elif result.finish is Finish.TIMEOUTS:
            why = said["why_timeouts"]
        else:
            why = said["why_domino_you" if winner == "you" else "why_domino_them"]
        title = {"you": said["won"], "computer": said["lost"], None: said["tie"]}[winner]
        return {"winner": winner, "finish": result.finish.value, "title": title, "why": why}

    async def receive(self, message: Any) -> None:
        """A message from the page: queued for the member's turn, else refused and logged."""
        expected = self.state is None or self.state.result is not None
        kind = message.get("type") if isinstance(message, dict) else None
        moving = kind in ("play", "draw", "pass") and self.deadline is not None
        if moving or (kind == "next" and expected):
            self.inbox.put_nowait(message)
        else:
            await self.refuse("refused_turn", message)

    async def refuse(self, reason: str, message: Any) -> None:
        """Log it (``reason``: a key of :data:`casino.web.words.DOMINO`) and tell the page
        why in the member's language."""
        self.refused += 1
        english = DOMINO.get(reason, reason)
        LOG.warning("dominoes: refused from %r: %s: %.200r", self.name, english, message)
        if self.send is not None:
            try:
                await self.send({"type": "refused", "reason": self.words.get(reason, reason)})
            except (ConnectionError, RuntimeError):
                self.send = None

    # --- play -------------------------------------------------------------------------

    async def run(self) -> None:
        """Hands, each started by the member (``next``), until the computer cannot cover the
        stake. A member who cannot is told why (an empty wallet: the lobby's refill; chips
        at a Hold'em table: back when its hand ends) and may try again (``next``)."""
        try:
            self.ledger = Ledger.even(await self.bank.balance(self.account))
            await self.can_stake()
            while self.ledger.broke() != COMPUTER or self.ledger.hands == 0:
                await self.show()
                if not await self._next_hand():
                    return
                await self.play_staked()
            await self.show()
        except Exception:
            LOG.exception("dominoes for %r stopped", self.name)
            raise

    def leave(self) -> None:
        """The member left: the hand under way is played out with each of their turns timed
        out at once, and settled; then :meth:`run` ends (the module's *Leaving*)."""
        self.left = True
        self.send = None
        self.inbox.put_nowait(None)  # wakes a wait for a move or for the next hand

    async def _next_hand(self) -> bool:
        """Wait for the member's ``next`` (a closed page: for it to come back); ``False``
        once they left."""
        while not self.left:
            if (await self.inbox.get()) is not None:
                return True
        return False

    async def wallet(self) -> int:
        """The member's wallet, read again (the match's tally follows it; before the first
        hand the computer's side starts even with it)."""
        balance = await self.bank.balance(self.account)
        if self.ledger.hands == 0:
            self.ledger = Ledger.even(balance)
        self.ledger.bankrolls[MEMBER] = balance
        return balance

    async def can_stake(self) -> bool:
        """Whether the member's wallet covers the stake; if not, :attr:`notice` says why."""
        if await self.wallet() >= STAKE:
            self.notice = None
            return True
        held = await self.bank.call(self.bank.store.held, self.account)
        self.notice = "held" if held else "broke"
        return False

    async def play_staked(self) -> None:
        """One hand as a game of the store: both stakes held, settled to the winner."""
        stakes = {self.account: STAKE, self.bank.house: STAKE}
        try:
            if not await self.can_stake():
                raise StoreError("not enough money in the wallet")
            game = await self.bank.open("domino", self.table, stakes)
        except StoreError:
            await self.show()  # the wallet was spent at a table meanwhile: the page says so
            return
        self.game = game
        try:
            state = await self.play_hand()
        finally:
            self.game = None
        assert state.result is not None
        winner = state.result.winner
        if winner is None:
            payouts = stakes
        else:
            payouts = {self.account if winner == MEMBER else self.bank.house: 2 * STAKE}
        try:
            await self.bank.settle(game, payouts)
        except StoreError as error:  # voided meanwhile (another server's start): logged
            LOG.warning("dominoes for %r: hand %d not settled: %s", self.name, game, error)
        await self.show()

    async def play_hand(self) -> HandState:
        """One hand, the computer's turns after ``think`` seconds, the member's on the clock."""
        self.log = []
        self.say(N_("--- Hand {number} ---"), number=str(self.ledger.hands + 1))  # a name
        deal = shuffled_deal(self.rng)
        self.say(N_("You lead.") if deal.opener == MEMBER else N_("The computer leads."))
        state = self.state = HandState.start(deal)
        while state.result is None:
            if state.turn == COMPUTER:
                await self.show()
                if not self.left:
                    await self.clock.sleep(self.think)
                self.computer(state)
            else:
                await self.member(state)
        self.result(state)
        return state

    def computer(self, state: HandState) -> None:
        """The computer's turn, by the terminal game's strategy."""
        turn = take_turn(state, COMPUTER, ours)
        if turn.drawn:
            self.log.append(
                fill(
                    self.tr.ngettext(
                        "The computer draws {n} tile from the boneyard.",
                        "The computer draws {n} tiles from the boneyard.",
                        len(turn.drawn),
                    ),
                    self.lang,
                    n=len(turn.drawn),
                )
            )
        if turn.move is None:
            self.say(N_("The computer passes."))
        else:
            self.played(turn.move, state, N_("The computer plays {tile} on the {end}."))

    def played(self, move: Move, state: HandState, message: str) -> None:
        """Log a tile put on the line."""
        placed = state.line[0] if move.end is End.LEFT else state.line[-1]
        self.say(message, tile=placed.tile.ascii(placed.left), end=self.end_name(move.end))

    async def member(self, state: HandState) -> None:
        """The member's turn: their moves until the turn passes, or the clock runs out."""
        while not self.inbox.empty():
            self.inbox.get_nowait()
        self.deadline = self.clock.now() + self.move_seconds
        try:
            while state.turn == MEMBER and state.result is None:
                await self.show()
                try:
                    message = await self._next_move(self.deadline)
                except TimeoutError:
                    self.timed_out(state)
                    return
                if self.move(state, message):
                    if state.turn == MEMBER and state.result is None:  # drew: now play
                        self.deadline = self.clock.now() + self.move_seconds
                else:
                    await self.refuse("refused_move", message)
        finally:
            self.deadline = None

    async def _next_move(self, deadline: float) -> dict[str, Any]:
        """The member's next message by ``deadline``; :class:`TimeoutError` when it does not
        come in time, or at once when the member left."""
        remaining = max(0.0, deadline - self.clock.now())
        message = await self.clock.within(self._message(), remaining)
        if message is None:
            raise TimeoutError("the member left")
        return message

    async def _message(self) -> dict[str, Any] | None:
        """The next message of the page's, or ``None`` once the member left."""
        while not self.left:
            message = await self.inbox.get()
            if message is not None:
                return message
        return None

    def move(self, state: HandState, message: dict[str, Any]) -> bool:
        """Carry out the page's intention through the rules; ``False`` if they refuse it."""
        try:
            if message["type"] == "draw":
                drawn = state.draw(MEMBER)
                self.say(N_("You draw {tiles}."), tiles=" ".join(t.ascii() for t in drawn))
            elif message["type"] == "pass":
                state.pass_turn(MEMBER)
                self.say(N_("You pass."))
            else:
                low, high = (int(x) for x in message["tile"])
                if not (0 <= low <= 6 and 0 <= high <= 6):
                    return False
                move = Move(Tile(low, high), End(message["end"]))
                state.play(MEMBER, move.tile, move.end)
                self.played(move, state, N_("You play {tile} on the {end}."))
        except (IllegalAction, KeyError, TypeError, ValueError):
            return False
        return True

    def timed_out(self, state: HandState) -> None:
        """The rules' automatic move, which ends the turn (the third turn in a row timed out
        loses the hand)."""
        automatic = state.time_out(MEMBER)
        if automatic is None:
            self.say(N_("Time is up for the third time in a row: you lose the hand."))
            return
        count = state.timeouts[MEMBER]
        self.say(N_("Time is up ({count} of 3 in a row): an automatic move."), count=count)
        if automatic.drawn:
            self.say(N_("You draw {tiles}."), tiles=" ".join(t.ascii() for t in automatic.drawn))
        if automatic.move is None:
            self.say(N_("You pass."))
        else:
            self.played(automatic.move, state, N_("You play {tile} on the {end}."))

    def result(self, state: HandState) -> None:
        """Say how the hand ended and settle the stake."""
        assert state.result is not None
        settle_hand(self.ledger, state.result, self.say)
