"""A member's Hold'em hand, replayed step by step on a page written on the server
(``/hand/GAME?step=N``: Previous and Next are plain links, no script), and its PHH download.

The hand comes from its record (:class:`casino.holdem.record.HandRecord`). Step 0 is the
deal (the blinds posted), step N the table after the N-th action; what happened is said in
the words of the table's log (the ``holdem`` catalog, as :mod:`casino.web.holdemlog` says
them). The member sees what they saw at the table: their own hole cards throughout, the
others' only at the last step and only if shown at the showdown; every other card is face
down. Other words from the ``web`` catalog; every name escaped.
"""

from __future__ import annotations

from html import escape

from casino.cards.card import Card
from casino.holdem.engine import Hand
from casino.holdem.record import HandRecord
from casino.holdem.view import blind_posts
from casino.i18n import translator
from casino.web.holdemlog import line_text
from casino.web.pages import document, tr_of
from casino.web.words import fill, number

AMOUNT = ' class="amount"'
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def step_of(asked: str | None, record: HandRecord) -> int:
    """The step ``?step=`` asks for, kept between 0 and the last (the last if absent or not
    a whole number)."""
    last = len(record.actions)
    if asked is None or not asked.isdigit() or len(asked) > 6:
        return last
    return min(int(asked), last)


def hand_page(lang: str, game: int, record: HandRecord, viewer: str, step: int) -> str:
    """The page of hand ``game`` at ``step`` as ``viewer`` (a member's name) saw it."""
    tr = tr_of(lang)
    _ = tr.gettext
    states = record.steps()
    step = max(0, min(step, len(states) - 1))
    hand = states[step]
    last = step == len(states) - 1
    mine = record.seat_of(viewer)
    seen = ({mine} if mine is not None else set()) | (record.shown_seats(hand) if last else set())
    names = tuple(record.names)
    rows = "".join(
        _seat_row(lang, hand, seat, names[seat], seat == mine, seat in seen)
        for seat in hand.order_from(record.button)
    )
    heads = "".join(
        f'<th scope="col"{AMOUNT if k in (1, 2) else ""}>{escape(h)}</th>'
        for k, h in enumerate((_("Player"), _("Chips"), _("Bet"), _("Cards")))
    )
    board = "".join(card_html(index) for index in hand.board) or escape(_("none yet"))
    counter = fill(_("Step {step} of {steps}"), lang, step=step, steps=len(states) - 1)
    links = [
        _link(game, step - 1, _("Previous"), "prev") if step > 0 else "",
        _link(game, step + 1, _("Next"), "next") if not last else "",
    ]
    body = (
        f'<p id="step">{escape(counter)}</p>\n'
        f'<p id="said" class="said">{_said(lang, record, states, step)}</p>\n'
        f'<p id="board" class="replayed">{escape(_("Community cards"))}: {board}</p>\n'
        f'<table id="seats" class="games-table replayed">\n<thead><tr>{heads}</tr></thead>\n'
        f"<tbody>\n{rows}</tbody>\n</table>\n"
        f'<nav class="replayed-steps" aria-label="{escape(_("Steps"))}">{" ".join(links)}</nav>\n'
        f'<p><a href="/hand/{game}.phh" id="phh" class="button quiet" download>'
        f"{escape(_('Download (PHH)'))}</a> "
        f'<a href="/member" class="button quiet">{escape(_("Your page"))}</a></p>\n'
    )
    return document(lang, fill(_("Hand {number}"), lang, number=str(game)), body, wide=True)


def _said(lang: str, record: HandRecord, states: list[Hand], step: int) -> str:
    """What happened at ``step``: the blinds (step 0), the step's action, and at the end the
    showdown, in the table log's words."""
    tr = translator("holdem", lang)
    names = tuple(record.names)
    hand = states[step]
    if step == 0:
        lines = [line_text(tr, "BLINDS", (blind_posts(hand), names), lang)]
    else:
        action = hand.actions[step - 1]
        lines = [line_text(tr, "ACTION", (action, names[action.seat]), lang)]
    if hand.over:
        lines.append(line_text(tr, "SHOWDOWN", (hand, names), lang))
    return "<br>\n".join(escape(line) for text in lines for line in text.split("\n"))


def _seat_row(lang: str, hand: Hand, seat: int, name: str, mine: bool, seen: bool) -> str:
    _ = tr_of(lang).gettext
    who = escape(name) + (f" ({escape(_('you'))})" if mine else "")
    if hand.folded[seat]:
        cards = escape(_("folded"))
    elif seen:
        cards = "".join(card_html(index) for index in hand.hole[seat])
    else:
        cards = escape(_("face down"))
    mark = ' class="me"' if mine else ""
    return (
        f"<tr{mark}><td>{who}</td>"
        f'<td class="amount">{escape(number(hand.stacks[seat], lang))}</td>'
        f'<td class="amount">{escape(number(hand.bets[seat], lang))}</td>'
        f"<td>{cards}</td></tr>\n"
    )


def card_html(index: int) -> str:
    """A card as the pages draw it (its rank, its suit's sign; red for hearts, diamonds)."""
    card = Card.from_index(index)
    rank = "10" if card.rank.value == "T" else card.rank.value
    suit = card.suit.value
    red = " red" if suit in "DH" else ""
    return f'<span class="card{red}">{rank}<span class="suit">{SUITS[suit]}</span></span>'


def _link(game: int, step: int, text: str, rel: str) -> str:
    return f'<a href="/hand/{game}?step={step}" rel="{rel}" class="button">{escape(text)}</a>'
