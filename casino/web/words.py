"""The pages' own words (buttons, headings, labels), from the ``web`` gettext catalog.

The game's messages (actions, the log, refusals) come from the games' catalogs (``holdem``,
``domino``); what only the web pages say is here, one English message id per key, translated
into the member's language by :func:`words`. The pages never hold a word of their own: a
view sends the words its page shows (the members' pages, the lobby among them, are written
on the server by :mod:`casino.web.pages` from the same catalog).
"""

from __future__ import annotations

import functools
import re

from casino.i18n import translator

NBSP = "\u00a0"
DOLLARS = re.compile(r"\$\{(\w+)\}")
"""A ``${field}`` of a catalog message: the field is dollars (the terminal games write them
so; :func:`fill` writes them for the language)."""

TABLE_NAME = "Table {number}"
"""A Hold'em table as every page names it: the lobby's rows, the table page's heading (the
view's ``table_name``)."""

TABLE = {
    "lobby": "Lobby",
    "history": "Hand history",
    "status": "Table state",
    "waiting": "Waiting for the next hand",
    "offline": "Connection lost: reconnecting…",
    "ended": "Your session has ended: open the lobby and log in again.",
    "broke": "Your wallet is empty: the house refills it from the lobby (once a day).",
    "sound": "Sounds",
}
"""Words both tables use."""

HOLDEM = {
    **TABLE,
    "title": "Texas Hold'em",
    "board": "Community cards",
    "actions": "Your actions",
    "pot": "Pot",
    "seat": "Seat {number}",
    "stack": "{amount} chips",
    "bet": "bet {amount}",
    "dealer": "Dealer button",
    "hidden": "face-down card",
    "your_turn": "Your turn",
    "their_turn": "{name} is thinking",
    "start": "Start now",
    "you": "you",
    "folded": "folded",
    "fold": "Fold",
    "check": "Check",
    "call": "Call {amount}",
    "bet_to": "Bet {amount}",
    "raise_to": "Raise to {amount}",
    "allin": "All-in {amount}",
    "amount": "Amount",
    "half": "½ pot",
    "full": "Pot",
    "max": "All-in",
    "wins": "{name} wins {amount}",
    "with": "with {hand}",
    "acted": "{name}: {action}",
    "seconds": "{n} s left",
    "card": "{rank} of {suit}",
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "C": "clubs",
    "show_history": "Show the hand history",
    "hide_history": "Hide the hand history",
    "sit_out": "Sit out next hand",
    "sit_short": "Sit out",
    "watchers": "{n} watching",
    "level": "Sit-and-go · level {level}: blinds {small}/{big}",
    "take_seat": "Take a seat",
    "show": "Show",
    "muck": "Muck",
    "choose_show": "Show your cards?",
    "bank": "time bank {n} s",
    "out_place": "out: place\u00a0{place}",  # (the number never alone on a line)
}
"""The Hold'em page's words."""

DOMINO = {
    **TABLE,
    "title": "Dominoes",
    "line": "Line of play",
    "hand": "Your tiles",
    "theirs": "The computer's tiles",
    "boneyard": "Boneyard",
    "left": "Left end",
    "right": "Right end",
    "tile": "Tile {a} and {b}",
    "playable": "playable",
    "choose_end": "Tile {a} and {b}: choose an end",
    "your_turn": "Your turn: play a tile",
    "their_turn": "The computer's turn",
    "draw": "Draw",
    "pass": "Pass",
    "next": "Another hand",
    "you": "You",
    "computer": "Computer",
    "bankrolls": "Bankrolls",
    "seconds": "{n} s left",
    "won": "You win the hand",
    "lost": "The computer wins the hand",
    "tie": "A drawn hand",
    "why_domino_you": "You played your last tile.",
    "why_domino_them": "The computer played its last tile.",
    "why_blocked": (
        "The game is blocked: the fewer pips win (you {member}, the computer {computer})."
    ),
    "why_timeouts": "Three time-outs in a row.",
    "stake": "Stake",
    "ready": "Ready when you are",
    "refused_turn": "Not your turn, or not a move.",
    "refused_move": "Not a legal move.",
    "held": "Your chips are at a Hold'em table: they are back in your wallet when its hand ends.",
}
"""The dominoes page's words."""


CHAT = {
    "chat": "Chat",
    "say": "Say something",
    "send": "Send",
    "mute": "Mute {name}",
    "unmute": "Unmute {name}",
    "muted": "Muted",
    "empty": "Nobody has said anything yet.",
    "chat_long": "A chat line has at most {count} characters.",
    "chat_fast": "Too many lines: at most {lines} every {seconds} seconds.",
    "readers_only": "Watching, you read the chat: take a seat to say something.",
}
"""The chat's words (every page with a chat: :mod:`casino.web.chat` sends them)."""

PAGES = {"holdem": HOLDEM, "domino": DOMINO}


def words(keys: dict[str, str], lang: str) -> dict[str, str]:
    """``keys`` (key → English message id) in ``lang``, from the ``web`` catalog."""
    tr = translator("web", lang)
    return {key: tr.gettext(message) for key, message in keys.items()}


@functools.cache
def page_words(page: str, lang: str) -> dict[str, str]:
    """The words of ``page`` (a key of :data:`PAGES`) in ``lang``, translated once (every
    view carries them: do not change the dictionary)."""
    return words(PAGES[page], lang)


def number(value: int, lang: str) -> str:
    """A whole number as the pages' ``Intl.NumberFormat(lang)`` writes it (``page.js``): in
    Spanish ``1000``, ``10.000`` (CLDR's Spanish groups from five digits), in English
    ``1000`` → ``1,000``. The server's text (the members' pages, the tables' logs) and the
    pages' script so write every number alike."""
    digits = f"{abs(value):,}"
    if lang == "es":
        digits = digits.replace(",", ".") if abs(value) >= 10_000 else str(abs(value))
    return ("-" if value < 0 else "") + digits


def money(value: int, lang: str) -> str:
    """Dollars as the pages' ``Intl.NumberFormat(lang, {style: "currency", currency: "USD"})``
    writes them, without cents: ``1250 US$`` (a no-break space before ``US$``) in Spanish,
    ``$1,250`` in English; ``-10 US$``, ``-$10``."""
    if lang == "es":
        return f"{number(value, lang)}{NBSP}US$"
    return ("-" if value < 0 else "") + "$" + number(abs(value), lang)


def fill(template: str, lang: str, **values: object) -> str:
    """A translated ``template`` with its fields, the numbers written for ``lang``: a
    ``${field}`` as :func:`money`, another whole number as :func:`number`, anything else as
    it is (``str.format``)."""
    dollars = set(DOLLARS.findall(template))
    shown = {key: _written(value, lang, key in dollars) for key, value in values.items()}
    return DOLLARS.sub(r"{\1}", template).format(**shown)


def _written(value: object, lang: str, dollars: bool) -> object:
    if not isinstance(value, int) or isinstance(value, bool):
        return value
    return money(value, lang) if dollars else number(value, lang)
