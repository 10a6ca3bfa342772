"""The members' pages, written on the server: the lobby, register, log in, the member's page.

Every word comes from the ``web`` gettext catalog (``casino/locale/es/LC_MESSAGES/web.po``;
English is the message ids), in the member's language; every amount is written for it
(:func:`casino.web.words.money`: ``1250 US$``, ``$1,250``; a ``${field}`` of a message is
dollars) and every name and number is put in with :func:`html.escape`. A bankroll is a
``<data id="balance" value="1250">``: its value the whole number, its text the money. No
inline script or style (the Content-Security-Policy forbids them): the pages use
``casino.css`` and plain forms, each carrying the CSRF token.
"""

from __future__ import annotations

import gettext
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from casino.i18n import LANGUAGES, translator
from casino.web.chat import Line
from casino.web.store import HistoryEntry, Member
from casino.web.words import TABLE_NAME, fill, money, number

LANGUAGE_NAMES = {"es": "Español", "en": "English"}


def tr_of(lang: str) -> gettext.NullTranslations:
    """The ``web`` catalog in ``lang``."""
    return translator("web", lang)


FAN = "".join(
    f'<span class="card{" red" if suit in "♥♦" else ""}">{rank}'
    f'<span class="suit">{suit}</span></span>'
    for rank, suit in [("A", "♠"), ("K", "♥"), ("Q", "♦"), ("J", "♣")]
)
"""Four cards fanned over the felt: the members' pages' picture of a casino (decoration)."""
DOMINO_ICON = (
    '<svg class="icon" viewBox="0 0 22 42" aria-hidden="true">'
    '<rect class="face" x="1" y="1" width="20" height="40" rx="3"/>'
    '<line class="split" x1="3" y1="21" x2="19" y2="21"/>'
    '<circle class="pip" cx="6" cy="6" r="2"/><circle class="pip" cx="16" cy="16" r="2"/>'
    '<circle class="pip" cx="11" cy="11" r="2"/><circle class="pip" cx="6" cy="26" r="2"/>'
    '<circle class="pip" cx="16" cy="36" r="2"/><circle class="pip" cx="16" cy="26" r="2"/>'
    '<circle class="pip" cx="6" cy="36" r="2"/></svg>'
)
"""A three-four tile, the dominoes button's picture."""
HOLDEM_ICON = (
    '<span class="icon cards" aria-hidden="true"><span class="card">A<span class="suit">♠</span>'
    '</span><span class="card red">A<span class="suit">♥</span></span></span>'
)
"""A pair of aces, the Hold'em button's picture."""


def document(
    lang: str, title: str, body: str, *, wide: bool = False, scripts: Sequence[str] = ()
) -> str:
    """A whole page: the bar of every page (the casino, back to the lobby; the other
    language), a felt card fanned with four cards, its ``title`` and ``body`` (``wide``: a
    card as wide as a table of games needs; ``scripts``: the static files it runs)."""
    _ = tr_of(lang).gettext
    languages = " · ".join(
        f'<a href="?lang={code}" hreflang="{code}" lang="{code}">{LANGUAGE_NAMES[code]}</a>'
        for code in LANGUAGES
        if code != lang
    )
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)} · CASINO-ROYAL</title>\n"
        '<link rel="stylesheet" href="/static/casino.css">\n'
        + "".join(f'<script src="/static/{name}" defer></script>\n' for name in scripts)
        + '</head>\n<body class="members">\n'
        f'<header class="bar"><a href="/" class="brand">CASINO-ROYAL</a>\n'
        f'<nav class="languages" aria-label="{escape(_("Language"))}">{languages}</nav></header>\n'
        f'<main class="lobby{" wide" if wide else ""}">\n'
        f'<div class="fan" aria-hidden="true">{FAN}</div>\n'
        f"<h1>{escape(title)}</h1>\n{body}</main>\n</body>\n</html>\n"
    )


@dataclass(frozen=True)
class TableRow:
    """A Hold'em table as the lobby lists it."""

    number: int
    blinds: tuple[int, int]
    seats: int
    members: tuple[str, ...]
    """The members seated (the other seats are computer players')."""
    stake: int
    """The most a member sits down with (their wallet, up to this)."""
    watchers: int = 0
    """The pages watching the table now."""
    buy_in: int | None = None
    """A sit-and-go's buy-in (``None``: a cash table)."""
    closed: bool = False
    """A sit-and-go under way: nobody sits down."""


@dataclass(frozen=True)
class Money:
    """A member's money as the lobby shows it: what they can spend, and what is at a table."""

    wallet: int
    held: int
    refill: int
    """What the house's refill gives an empty wallet (0: not now, see ``refill_at``)."""
    refill_at: float | None = None
    """When the next refill is allowed (UTC seconds), if not now."""


def _csrf(token: str) -> str:
    return f'<input type="hidden" name="csrf" value="{escape(token)}">\n'


def lobby(
    lang: str,
    csrf: str,
    member: Member | None,
    *,
    money_of: Money | None = None,
    tables: Sequence[TableRow] = (),
    leaders: Sequence[tuple[Member, int]] = (),
    ended: bool = False,
    chat: Sequence[Line] = (),
) -> str:
    """The lobby: who is logged in, their money (to spend, at a table), the tables to choose
    from and the games, the members' wallets, the lobby's chat (its last lines ``chat``);
    or the way to log in or register (``ended``: saying that the last session ended)."""
    _ = tr_of(lang).gettext
    if member is None:
        notice = f'<p id="ended" role="status">{escape(_(SESSION_ENDED))}</p>\n' if ended else ""
        welcome = escape(_("Members play here: log in, or register to get your bankroll."))
        body = (
            f"{notice}<p>{welcome}</p>\n"
            '<p class="choices">'
            f'<a href="/login" id="login" class="button">{escape(_("Log in"))}</a> '
            f'<a href="/register" id="register" class="button quiet">{escape(_("Register"))}</a>'
            "</p>\n"
        )
        return document(lang, "CASINO-ROYAL", body)
    cash = money_of or Money(member.balance, 0, 0)
    who = fill(
        escape(_("Logged in as {name} · bankroll ${balance}")),
        lang,
        name=f'<b id="who">{escape(member.name)}</b>',
        balance=_balance(member.balance, lang),
    )
    body = (
        f'<p class="who">{who}</p>\n{_at_table(lang, cash)}{_broke(lang, csrf, cash)}'
        f'<form method="post" action="/join" id="lobby" class="games">\n{_csrf(csrf)}'
        f'<button type="submit" id="sit" name="game" value="holdem">{HOLDEM_ICON}'
        "<span>Texas Hold'em</span></button>\n"
        f'<button type="submit" id="dominoes" name="game" value="domino">{DOMINO_ICON}'
        f"<span>{escape(_('Dominoes'))}</span></button>\n</form>\n"
        f"{_tables(lang, csrf, tables)}{_wallets(lang, member, leaders)}{_chat(lang, chat)}"
        f'<p><a href="/member" id="member">{escape(_("Your page: bankroll, history"))}</a></p>\n'
        f'<form method="post" action="/logout">\n{_csrf(csrf)}'
        f'<button type="submit" id="logout" class="quiet">{escape(_("Log out"))}</button>\n'
        "</form>\n"
    )
    scripts = ("page.js", "chat.js", "lobby.js")
    return document(lang, "CASINO-ROYAL", body, wide=bool(tables), scripts=scripts)


def _chat(lang: str, lines: Sequence[Line]) -> str:
    """The lobby's chat box with its last lines (each name and text escaped; ``chat.js``
    draws the same box on the tables' pages, from the socket)."""
    _ = tr_of(lang).gettext
    items = "".join(
        f'\n<li data-id="{line.id}" data-member="{line.member}"><b class="speaker">'
        f'{escape(line.name)}</b> <span class="said">{escape(line.text)}</span></li>'
        for line in lines
    )
    say = escape(_("Say something"))
    return (
        '<section id="chat" class="chat" aria-labelledby="chat-title">\n'
        f'<h2 id="chat-title" data-chat-word="chat">{escape(_("Chat"))}</h2>\n'
        f'<ol id="chat-lines" class="chat-lines" aria-live="polite" '
        f'data-empty="{escape(_("Nobody has said anything yet."))}">{items}</ol>\n'
        '<p id="chat-muted" class="chat-muted" hidden></p>\n<form id="chat-form" class="chat-form">'
        f'<input id="chat-text" maxlength="200" autocomplete="off" aria-label="{say}" '
        f'placeholder="{say}"><button type="submit" data-chat-word="send">'
        f"{escape(_('Send'))}</button></form>\n"
        '<p id="chat-refused" class="refused" role="alert"></p>\n</section>\n'
    )


SESSION_ENDED = (
    "Your session has ended (the casino restarted, or you were away a long time): log in "
    "again. Your chips are safe."
)


def _at_table(lang: str, cash: Money) -> str:
    """What of the member's is at a table now, if anything (their wallet is what they may
    spend)."""
    if not cash.held:
        return ""
    _ = tr_of(lang).gettext
    text = fill(
        escape(_("At a table now: ${held} (back in your wallet when the hand ends)")),
        lang,
        held=f'<data id="held" value="{cash.held}">{escape(money(cash.held, lang))}</data>',
    )
    return f'<p class="who">{text}</p>\n'


def _broke(lang: str, csrf: str, cash: Money) -> str:
    """For a member with nothing left: that they are out of chips, and the house's refill
    (or when it comes)."""
    if cash.wallet or cash.held:
        return ""
    _ = tr_of(lang).gettext
    said = escape(_("Your wallet is empty: you have no chips to play with."))
    if cash.refill:
        offer = fill(
            escape(_("Get ${amount} from the house (once a day)")), lang, amount=cash.refill
        )
        return (
            f'<div id="broke" class="broke" role="status"><p>{said}</p>\n'
            f'<form method="post" action="/refill">\n{_csrf(csrf)}'
            f'<button type="submit" id="refill">{offer}</button>\n</form></div>\n'
        )
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(cash.refill_at or 0))
    later = fill(
        escape(_("The house refills an empty wallet once a day: next at {when} UTC.")),
        lang,
        when=when,
    )
    return f'<div id="broke" class="broke" role="status"><p>{said}</p>\n<p>{later}</p></div>\n'


def _tables(lang: str, csrf: str, tables: Sequence[TableRow]) -> str:
    """The Hold'em tables: blinds, seats taken, the stake a member sits with; one to choose."""
    if not tables:
        return ""
    _ = tr_of(lang).gettext
    heads = "".join(
        f'<th scope="col">{escape(h)}</th>'
        for h in (_("Table"), _("Blinds"), _("Seats taken"), _("Sit down with up to"))
    )  # the buttons' column has no heading: an empty cell, not an empty <th> (axe)
    heads += "<td></td>"
    rows = "".join(_table_row(lang, row) for row in tables)
    title = escape(_("Hold'em tables"))
    return (
        f"<h2>{title}</h2>\n"
        f'<form method="post" action="/join" id="tables">\n{_csrf(csrf)}'
        '<input type="hidden" name="game" value="holdem">\n'
        f'<table class="games-table"><thead><tr>{heads}</tr></thead>\n<tbody>\n{rows}'
        "</tbody></table>\n</form>\n"
    )


def _table_row(lang: str, row: TableRow) -> str:
    """One table of the lobby's list, its button to sit there (disabled when it is full) and
    its link to watch it (a full one too)."""
    _ = tr_of(lang).gettext
    small, big = (escape(number(blind, lang)) for blind in row.blinds)
    taken = escape(fill(_("{taken} of {seats}"), lang, taken=len(row.members), seats=row.seats))
    who = (": " + escape(", ".join(row.members))) if row.members else ""
    if row.watchers:
        who += " · " + escape(fill(_("{n} watching"), lang, n=row.watchers))
    full = " disabled" if len(row.members) >= row.seats or row.closed else ""
    name = fill(_(TABLE_NAME), lang, number=row.number)
    stake = escape(money(row.stake, lang))
    if row.buy_in is not None:
        stake = escape(fill(_("Sit-and-go: buy-in ${buy_in}"), lang, buy_in=row.buy_in))
    return (
        f'<tr data-table="{row.number}">'
        f'<th scope="row"><span class="nowrap">{escape(name)}</span></th>'
        f'<td class="amount">{small}/{big}</td><td>{taken}{who}</td>'
        f'<td class="amount">{stake}</td>'
        f'<td><button type="submit" name="table" value="{row.number}" '
        f'id="table-{row.number}" class="quiet"{full}>{escape(_("Sit here"))}</button> '
        f'<a href="/holdem?table={row.number}&amp;watch=1" id="watch-{row.number}" '
        f'class="button quiet">{escape(_("Watch"))}</a></td></tr>\n'
    )


def _held(lang: str, holdings: Mapping[int, int], leader: Member) -> str:
    """`` (and $300 at a table)`` for a member with chips at a table now, else nothing."""
    chips = holdings.get(leader.id, 0)
    if not chips:
        return ""
    _ = tr_of(lang).gettext
    said = fill(escape(_("(and ${held} at a table)")), lang, held=_money_data("held", chips, lang))
    return " " + said


def _money_data(kind: str, value: int, lang: str) -> str:
    """An amount of money for a person (its text) and for a program (its ``value``)."""
    return f'<data class="money {kind}" value="{value}">{escape(money(value, lang))}</data>'


def _wallet(lang: str, leader: Member, held: int, mine: bool) -> str:
    """One member's wallet, and what they have at a table now (if anything)."""
    at_table = _held(lang, {leader.id: held}, leader)
    wallet = _money_data("wallet", leader.balance, lang)
    return (
        f'<li{ME if mine else ""} data-member="{escape(leader.name)}">'
        f'<span class="name">{escape(leader.name)}:</span> {wallet}{at_table}</li>\n'
    )


def _wallets(lang: str, member: Member, leaders: Sequence[tuple[Member, int]]) -> str:
    """The members' wallets (what each can spend) and what each has at a table now."""
    if not leaders:
        return ""
    _ = tr_of(lang).gettext
    items = "".join(_wallet(lang, leader, held, leader.id == member.id) for leader, held in leaders)
    return f'<h2>{escape(_("Wallets"))}</h2>\n<ol id="wallets" class="leaders">\n{items}</ol>\n'


def account_form(lang: str, csrf: str, action: str, problem: str | None, name: str = "") -> str:
    """The register (``action`` ``register``) or log-in (``login``) page, with why the last
    try failed, and the way to the other one."""
    _ = tr_of(lang).gettext
    title = _("Register") if action == "register" else _("Log in")
    other, other_title = (
        ("login", _("Log in")) if action == "register" else ("register", _("Register"))
    )
    choices = "".join(
        f'<option value="{code}"{" selected" if code == lang else ""}>'
        f"{LANGUAGE_NAMES[code]}</option>"
        for code in LANGUAGES
    )
    autocomplete = "new-password" if action == "register" else "current-password"
    alert = f'<p id="problem" role="alert">{escape(problem)}</p>\n' if problem else ""
    body = (
        f'{alert}<form method="post" action="/{action}" id="account">\n{_csrf(csrf)}'
        f'<label for="name">{escape(_("Name"))}</label>\n'
        f'<input id="name" name="name" maxlength="24" required autocomplete="username" '
        f'value="{escape(name)}" autofocus>\n'
        f'<label for="password">{escape(_("Password"))}</label>\n'
        f'<input id="password" name="password" type="password" minlength="8" maxlength="256" '
        f'required autocomplete="{autocomplete}">\n'
        f'<label for="lang">{escape(_("Language"))}</label>\n'
        f'<select id="lang" name="lang">{choices}</select>\n'
        f'<button type="submit" id="submit">{escape(title)}</button>\n</form>\n'
        f'<p class="switch"><a href="/{other}">{escape(other_title)}</a></p>\n'
    )
    return document(lang, title, body)


def refusal(lang: str, problem: str) -> str:
    """The page of an error: ``problem`` (a ``web`` catalog id) in ``lang``, and the way
    back to the lobby."""
    _ = tr_of(lang).gettext
    body = (
        f'<p id="problem" role="alert">{escape(_(problem))}</p>\n'
        f'<p><a href="/" class="button">{escape(_("Lobby"))}</a></p>\n'
    )
    return document(lang, _("Sorry"), body)


def member_page(
    lang: str,
    member: Member,
    history: Sequence[HistoryEntry],
    leaders: Sequence[Member],
    holdings: Mapping[int, int] | None = None,
) -> str:
    """The member's bankroll (and what is at a table now), their games with each result (a
    recorded Hold'em hand linked to its replay, ``/hand/GAME``), and the leaderboard (each
    wallet, and what is at a table: ``holdings``, account → chips)."""
    held = holdings or {}
    tr = tr_of(lang)
    _ = tr.gettext
    kinds = {"holdem": "Texas Hold'em", "domino": _("Dominoes"), "sitgo": _("Sit-and-go")}
    rows = "".join(
        f"<tr><td>{_when(entry.at)}</td>"
        f"<td>{escape(kinds.get(entry.kind, entry.kind))}</td>"
        f'<td class="amount">{escape(money(entry.stake, lang))}</td>'
        f'<td class="amount">{escape(money(entry.payout, lang))}</td>'
        f'<td class="{_outcome(entry)}">{escape(_result(tr, entry, lang))}'
        f"{_replay(lang, entry)}</td></tr>\n"
        for entry in history
    )
    heads = "".join(
        f'<th scope="col"{AMOUNT if k in (2, 3) else ""}>{escape(h)}</th>'
        for k, h in enumerate(
            (_("When (UTC)"), _("Game"), _("Staked"), _("Paid back"), _("Result"))
        )
    )
    table = (
        f'<table id="history" class="games-table">\n<thead><tr>{heads}</tr></thead>\n'
        f"<tbody>\n{rows}</tbody>\n</table>\n"
        if history
        else f'<p id="history">{escape(_("No games yet."))}</p>\n'
    )
    board = "".join(
        f"<li{ME if leader.id == member.id else ''}>"
        f'<span class="name">{escape(leader.name)}:</span> '
        f'<span class="money">{escape(money(leader.balance, lang))}</span>'
        f"{_held(lang, held, leader)}</li>\n"
        for leader in leaders
    )
    bankroll = fill(escape(_("Bankroll: ${balance}")), lang, balance=_balance(member.balance, lang))
    at_table = _at_table(lang, Money(member.balance, held.get(member.id, 0), 0))
    body = (
        f'<p class="who bankroll">{bankroll}</p>\n'
        f"{at_table}<h2>{escape(_('Your games'))}</h2>\n{table}"
        f'<h2>{escape(_("Leaderboard"))}</h2>\n<ol id="leaders" class="leaders">\n{board}</ol>\n'
        f'<p><a href="/" class="button quiet">{escape(_("Lobby"))}</a></p>\n'
    )
    return document(lang, member.name, body, wide=True)


AMOUNT = ' class="amount"'
ME = ' class="me"'


def _when(at: float) -> str:
    """When a game ended (UTC), the day and the time each kept whole on a narrow screen."""
    moment = time.gmtime(at)
    return (
        f'<time datetime="{time.strftime("%Y-%m-%dT%H:%MZ", moment)}">'
        f'<span class="nowrap">{time.strftime("%Y-%m-%d", moment)}</span> '
        f'<span class="nowrap">{time.strftime("%H:%M", moment)}</span></time>'
    )


def _outcome(entry: HistoryEntry) -> str:
    """The result's class: ``won``, ``lost``, ``even`` or ``void``."""
    if entry.state == "void":
        return "void"
    return "won" if entry.net > 0 else "lost" if entry.net < 0 else "even"


def _replay(lang: str, entry: HistoryEntry) -> str:
    """The link to a recorded hand's page (step by step, and its PHH), or nothing."""
    if not entry.recorded:
        return ""
    label = tr_of(lang).gettext("Replay")
    return f' <a href="/hand/{entry.game}" class="replay">{escape(label)}</a>'


def _balance(value: int, lang: str) -> str:
    """A bankroll: the money in words for a person, the whole number for a program."""
    return f'<data id="balance" value="{value}">{escape(money(value, lang))}</data>'


def _result(tr: gettext.NullTranslations, entry: HistoryEntry, lang: str) -> str:
    """A game's result in words: won, lost, even, or void."""
    if entry.state == "void":
        return tr.gettext("void: the server stopped, the stake returned")
    if entry.net > 0:
        return fill(tr.gettext("won ${amount}"), lang, amount=entry.net)
    if entry.net < 0:
        return fill(tr.gettext("lost ${amount}"), lang, amount=-entry.net)
    return tr.gettext("even")
