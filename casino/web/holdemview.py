"""What the members of a Hold'em table for browsers (:mod:`casino.web.holdem`) are shown and
told: the table's log (:mod:`casino.web.holdemlog`), each member's view as JSON (their own
hole cards only), the winners, the raise presets, and a refusal in the member's language."""

from __future__ import annotations

import gettext
from typing import Any

from casino.cards.card import Card
from casino.cards.evaluator import best_five
from casino.holdem.engine import Hand, Legal
from casino.holdem.names import hand_name
from casino.holdem.view import (
    action_text,
)
from casino.i18n import translator
from casino.web.guard import LOG
from casino.web.holdemlog import LOG_LINES, LogLine, Said, amount_of
from casino.web.holdemseats import Member, SeatedTable
from casino.web.words import TABLE_NAME, fill, page_words

WATCH_NOTICE = "You are watching table {number}: no hole cards are shown before the showdown."
"""What a watcher is told (``notice``)."""
HEADING = "Texas Hold'em · Table {number}"
"""The table page's title (its heading on a narrow screen: ``TABLE_NAME`` alone)."""


class ShownTable(SeatedTable):
    """A table as its members see it: their views, the log, what each is told."""

    # --- messages ---------------------------------------------------------------------

    async def refuse(self, member: Member, template: str, message: Any, **values: Any) -> None:
        """Tell the member why, in their language, and log it."""
        self.refused += 1
        LOG.warning(
            "table %d: refused from %r: %s: %.200r", self.number, member.name, template, message
        )
        reason = fill(member.tr.gettext(template), member.lang, **values)
        await self.tell(member, {"type": "refused", "reason": reason})

    async def tell(self, member: Member, data: dict[str, Any]) -> None:
        """Send to the member's page (a closed page: dropped)."""
        send = member.send
        if send is None:
            return
        try:
            await send(data)
        except (ConnectionError, RuntimeError):
            if member.watching:
                self.unwatch(member)
            else:
                self.leave(member, send)

    async def show_all(self, but: Member | None = None) -> None:
        """Every member's view, and every watcher's (``but``: one who is asked to act next,
        and shown the table with their options at once). One after the other: a send only
        queues the view (:class:`casino.web.guard.Outbox`), it never waits for the member."""
        for member in [*self.everyone, *self.watchers]:
            if member is not but:
                await self.show(member)

    async def show(self, member: Member) -> None:
        """The member's view of the table."""
        await self.tell(member, self.view(member))

    def say(self, template: str, *values: Any) -> None:
        """Add a line to the table's log: a message id and its fields, translated per view."""
        self.log = [*self.log[-LOG_LINES + 1 :], LogLine(template, values)]
        self.seq += 1

    def view(self, member: Member) -> dict[str, Any]:
        """What ``member`` may see: their own hole cards, the board, stacks, their options (a
        watcher: no hole cards but those shown at the showdown, no options)."""
        tr = member.tr
        web = translator("web", member.lang)
        hand = self.table.hand
        said = self.said(tr, member.lang)
        seats = []
        shown = self.shown_seats()
        for index, seat in enumerate(self.table.seats):
            entry: dict[str, Any] = {"name": seat.name, "chips": self._chips(index), "seat": index}
            if hand is not None and hand.starting[index]:
                cards = hand.hole[index]
                mine = self.owners[index] == member.account and not member.watching
                visible = mine or index in shown  # a watcher: the showdown's cards only
                entry.update(
                    chips=hand.stacks[index],
                    bet=hand.bets[index],
                    folded=hand.folded[index],
                    button=index == hand.button,
                    turn=index == hand.to_act and not hand.over,
                    cards=[_card(c) for c in cards] if visible else [None] * len(cards),
                )
                if index in said.last:
                    entry["last"] = said.last[index]
            entry["human"] = index in self.members
            entry["mine"] = index == member.seat
            seats.append(entry)
        data: dict[str, Any] = {
            "type": "state",
            "table": self.number,
            "heading": fill(web.gettext(HEADING), member.lang, number=self.number),
            "table_name": fill(web.gettext(TABLE_NAME), member.lang, number=self.number),
            "you": None if member.watching else member.seat,
            "watching": member.watching,
            "watchers": len(self.watchers),
            "free": self.free_seat() is not None,
            "hand": self.table.number,
            "seq": self.seq,
            "seats": seats,
            "board": [] if hand is None else [_card(c) for c in hand.board],
            "pot": 0 if hand is None or hand.over else hand.pot_total(),  # paid: none left
            "log": said.log,
            "legal": None,
            "lang": member.lang,
            "words": page_words("holdem", member.lang),
            "actor": None if hand is None or hand.over else hand.to_act,
            "clock": None,
            "winners": said.winners,
            "notice": self.notice(member),
            "can_start": (
                not self.go.is_set() and member.seat in self.members and self.can_play(member)
            ),
            "sitting_out": member.sitting_out,
        }
        if self.waiting is not None and self.deadline is not None:
            late = self.clock.now() - self.deadline  # over 0: the time bank is being spent
            data["clock"] = {
                "seat": self.waiting,
                "seconds": max(0.0, -late),
                "total": self.settings.timeout,
                "bank": max(0.0, self.banked - max(0.0, late)),
                "banking": late >= 0 and self.banked > 0,
            }
        showdown = self.showdown
        data["choice"] = None
        if showdown is not None and self.waiting == member.seat == showdown.to_choose:
            data["choice"] = {"muck": showdown.can_muck(), "deadline": self.settings.timeout}
        if hand is not None and not hand.over and self.waiting == member.seat:
            legal = hand.legal()
            data["legal"] = {
                "call": legal.call,
                "min_to": legal.min_to,
                "max_to": legal.max_to,
                "raising": legal.raising,
                "deadline": self.settings.timeout,
                "presets": _presets(hand, legal),
            }
        return data

    def shown_seats(self) -> set[int]:
        """The seats whose cards everybody sees: after a showdown, every live hand, or with
        show or muck (:attr:`showdown`) the hands shown so far."""
        hand = self.table.hand
        if hand is None or not hand.over:
            return set()
        if self.showdown is not None and self.showdown.hand is hand:
            return set(self.showdown.shown)
        return set(hand.shown)

    def _chips(self, index: int) -> int:
        """The chips seat ``index`` shows out of a hand: a member's, what their wallet lets
        them sit with (never a computer player's stack they were seated over, nor the nothing
        staked for a member who sits the hand out: issue 44's ``0 chips``)."""
        member = self.members.get(index) or self.arriving.get(index)
        chips = self.table.seats[index].chips
        if member is None or (self.owners[index] == member.account and not member.sitting_out):
            return chips
        if member.wallet is None:  # (not read yet: none shown)
            return 0
        return min(member.wallet, self.settings.stack)

    def said(self, tr: gettext.NullTranslations, lang: str) -> Said:
        """The parts of a view in ``lang`` that are the same for every member: worked out
        once for each state of the table (its ``seq``, the hand and its actions) and
        language, not once per member's view."""
        hand = self.table.hand
        state = (
            self.seq,
            self.table.number,
            -1 if hand is None else len(hand.actions),
            hand is not None and hand.over,
            -1 if self.showdown is None else len(self.showdown.reveals),
        )
        if state != self.said_state:
            self.said_state, self.said_in = state, {}
        said = self.said_in.get(lang)
        if said is None:
            last = {a.seat: a for a in hand.actions} if hand is not None else {}
            said = self.said_in[lang] = Said(
                [line.text(tr, lang) for line in self.log],
                {seat: self._last_said(action, tr, lang) for seat, action in last.items()},
                [] if hand is None or not hand.over else _winners(hand, tr, self.shown_seats()),
            )
        return said

    @staticmethod
    def _last_said(action: Any, tr: gettext.NullTranslations, lang: str) -> str:
        """A seat's last action as its seat shows it (without the log's ``- ``)."""
        return action_text(action, "", tr, amount=amount_of(lang))[2:]

    def notice(self, member: Member) -> str | None:
        """What the member is waiting for, in their language (``None``: nothing)."""
        web = translator("web", member.lang)
        if member.watching:
            return fill(
                web.gettext(WATCH_NOTICE),
                member.lang,
                number=self.number,
            )
        if member.seat in self.arriving:
            return web.gettext("You are seated for the next hand.")
        if not self.go.is_set() and member.wallet == 0 and not member.sitting_out:
            return web.gettext("Your wallet is empty: you sit out.")  # (no start to press)
        if not self.go.is_set():
            return fill(
                web.gettext("Waiting for players: {seated} of {wait} seated."),
                member.lang,
                seated=len(self.everyone),
                wait=self.settings.wait,
            )
        if member.sitting_out:
            return web.gettext("You sit out from the next hand.")
        if self.table.seats[member.seat].chips == 0 and not self.dealing:
            return web.gettext("Your wallet is empty: you sit out.")
        return None


def _presets(hand: Hand, legal: Legal) -> dict[str, int]:
    """The raise slider's presets (``half``: ½ pot, ``full``: pot, ``max``: all-in) as totals
    to raise to, each one the engine says is legal now (a pot raise: the call, then the pot
    after it)."""
    if not legal.can_bet_or_raise:
        return {}
    top = max(hand.bets)
    after_call = hand.pot_total() + legal.call
    wanted = {"half": top + after_call // 2, "full": top + after_call, "max": legal.max_to}
    presets = {}
    for key, to in wanted.items():
        to = min(max(to, legal.min_to), legal.max_to)
        if hand.can_bet_or_raise(to):
            presets[key] = to
    return presets


def _winners(
    hand: Hand, tr: gettext.NullTranslations, shown: set[int] | None = None
) -> list[dict[str, Any]]:
    """Who won what at the end of ``hand``: each winner of a pot, the chips, and at a
    showdown (``shown``: the seats shown, by default every live hand) the winning five cards
    and the hand's name in ``tr``'s language (an uncontested winner: no hand named)."""
    winners = []
    if shown is None:
        shown = set(hand.shown)
    if len(hand.live) < 2:
        shown = set()
    for award in hand.awards:
        for seat, share in zip(award.winners, award.shares, strict=True):
            entry: dict[str, Any] = {"seat": seat, "amount": share, "pot": award.pot}
            if seat in shown:  # a showdown (a pot only the winner could win has no strength)
                entry["hand"] = hand_name(hand.strength(seat), tr)
                entry["five"] = [_card(c) for c in best_five(hand.hole[seat] + hand.board)]
            winners.append(entry)
    return winners


def _card(index: int) -> str:
    card = Card.from_index(index)
    return f"{card.rank.value}{card.suit.value}"
