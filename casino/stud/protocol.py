"""The three-card-stud wire protocol, pure: texts in, messages out, and back.

Every message is one Java ``writeUTF`` frame (:mod:`casino.net.javautf`) whose text is
fields separated by ``:``. The dealer sends:

==================================================================  =========================
``login``                                                           reply ``<id>:<avatar>``
``bet1:<stack>:<pot>:<to match>:<hole>:<up>:up:<up cards…>``          reply ``bet:<n>``/``fold``
``bet2:<stack>:<pot>:<to match>:<hole>:<up1>:<up2>:up:<pairs…>``      reply ``bet:<n>``/``fold``
``status:<win|lose>:<c1>:<c2>:<c3>``                                 no reply
``done:<message>``                                                  no reply; close
==================================================================  =========================

Cards are in the STUD notation of :mod:`casino.cards` (``10S``, ``AH``). ``<to match>`` is
what this player must add to stay in; a bet is legal when it is from ``to match`` to
``to match + 10`` and no more than the stack (see :func:`legal_bet`). Anything malformed
raises :class:`ProtocolError`, whose message names the field that is wrong::

    bet2: field 10 (player 1's second up card): not a card: 'AQ'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from casino.cards import FULL_DECK, Card, Notation
from casino.errors import ParseError
from casino.numbers import MAX_DIGITS, parse_int  # the project's one strict number parser

MAX_RAISE = 10
"""The most a bet may exceed the amount to match."""


class ProtocolError(ParseError):
    """A message that does not follow the protocol; the text names the bad field."""


@dataclass(frozen=True)
class Login:
    """``login``: the player must answer with its id and avatar (every time, the same)."""


@dataclass(frozen=True)
class BetRequest:
    """``bet1`` (one up card each) or ``bet2`` (two up cards each): bet or fold.

    ``table`` holds every listed player's up cards, one tuple per player, in the dealer's
    order; the player's own up cards are among them.
    """

    round: int
    stack: int
    pot: int
    to_match: int
    hole: Card
    up: tuple[Card, ...]
    table: tuple[tuple[Card, ...], ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The player's own cards: the hole card, then the up card(s)."""
        return (self.hole, *self.up)


@dataclass(frozen=True)
class Status:
    """``status``: the hand is over; whether this player won, and the winning hand."""

    won: bool
    cards: tuple[Card, Card, Card]


@dataclass(frozen=True)
class Done:
    """``done``: the player is out (or the game is over); it should close the socket."""

    message: str


Command = Login | BetRequest | Status | Done
"""Anything the dealer sends."""


@dataclass(frozen=True)
class LoginReply:
    """``<id>:<avatar>``."""

    id: str
    avatar: str


@dataclass(frozen=True)
class Bet:
    """``bet:<amount>``: put ``amount`` more into the pot."""

    amount: int


@dataclass(frozen=True)
class Fold:
    """``fold``: leave this hand."""


Action = Bet | Fold
"""A reply to ``bet1``/``bet2``."""


def legal_bet(amount: int, stack: int, to_match: int) -> bool:
    """Whether betting ``amount`` is allowed with ``stack`` chips and ``to_match`` to match."""
    return to_match <= amount <= min(stack, to_match + MAX_RAISE)


def legal_range(stack: int, to_match: int) -> range:
    """Every legal bet amount (empty when the stack cannot match: the player must fold)."""
    return range(to_match, min(stack, to_match + MAX_RAISE) + 1)


def chips(text: str) -> int:
    """``text`` as a whole number of 0 or more, strictly (no spaces around it), else
    :class:`~casino.errors.ParseError`: every count the protocol and the commands read."""
    if text != text.strip():
        raise ParseError(f"not a whole number: {text[:40]!r}")
    value = parse_int(text)
    if value < 0:
        raise ParseError(f"must not be negative: {text[:40]!r}")
    return value


# ---------------------------------------------------------------- formatting


_STUD_TEXT = [card.format(Notation.STUD) for card in FULL_DECK]
"""Every card's STUD text by :attr:`Card.index` (formatting is the dealer's hot path)."""


def card_text(card: Card) -> str:
    """``card`` as the protocol writes it (``10S``, ``AH``), by table look-up."""
    return _STUD_TEXT[card.index]


def format_command(command: Command) -> str:
    """The wire text of a dealer message."""
    if isinstance(command, Login):
        return "login"
    if isinstance(command, BetRequest):
        return format_bet(command, format_table(command.table))
    if isinstance(command, Status):
        outcome = "win" if command.won else "lose"
        return ":".join(["status", outcome, *map(card_text, command.cards)])
    return f"done:{command.message}"


def format_table(table: tuple[tuple[Card, ...], ...]) -> str:
    """The up cards a ``bet1``/``bet2`` lists after ``up``, as the wire writes them (the same
    for every request of a betting round: a dealer formats them once a round)."""
    text = _STUD_TEXT
    return ":".join([text[card.index] for cards in table for card in cards])


def format_bet(request: BetRequest, table: str) -> str:
    """The wire text of ``request`` whose up cards :func:`format_table` gave as ``table``."""
    text = _STUD_TEXT
    mine = ":".join([text[request.hole.index], *[text[card.index] for card in request.up]])
    return f"bet{request.round}:{request.stack}:{request.pot}:{request.to_match}:{mine}:up:{table}"


def format_reply(reply: LoginReply | Action) -> str:
    """The wire text of a player's reply."""
    if isinstance(reply, LoginReply):
        return f"{reply.id}:{reply.avatar}"
    if isinstance(reply, Bet):
        return f"bet:{reply.amount}"
    return "fold"


# ---------------------------------------------------------------- parsing


class _Fields:
    """The ``:``-separated fields of one message, read with errors that name the field."""

    def __init__(self, text: str, names: Callable[[int], str]) -> None:
        self.parts = text.split(":")
        self.command = self.parts[0]
        self.name = names

    def fail(self, index: int, problem: str) -> ProtocolError:
        return ProtocolError(f"{self.command}: field {index + 1} ({self.name(index)}): {problem}")

    def number(self, index: int) -> int:
        try:
            return chips(self.parts[index])
        except ParseError as error:
            raise self.fail(index, str(error)) from None

    def card(self, index: int) -> Card:
        token = self.parts[index]
        known = _STUD_CARDS.get(token)
        if known is not None:
            return known
        try:
            card = Card.parse(token)
        except ParseError:
            raise self.fail(index, f"not a card: {token!r}") from None
        if card_text(card) != token:
            raise self.fail(index, f"not a card: {token!r} (cards are written like 10S, AH)")
        return card


_STUD_CARDS = {card.format(Notation.STUD): card for card in FULL_DECK}
"""Every card by its STUD text: the fast path of :meth:`_Fields.card` (anything else goes
through :meth:`Card.parse`, which says what is wrong)."""


def _bet_field(round_: int, index: int) -> str:
    """What field ``index`` of a ``bet1``/``bet2`` message is, in words."""
    up = ["up card"] if round_ == 1 else ["first up card", "second up card"]
    names = ["command", "stack", "pot", "to match", "hole card", *up, "'up'"]
    if index < len(names):
        return names[index]
    player, which = divmod(index - len(names), round_)
    if round_ == 1:
        return f"player {player + 1}'s up card"
    return f"player {player + 1}'s {('first', 'second')[which]} up card"


def _parse_bet(text: str, round_: int) -> BetRequest:
    return _well_formed_bet(text, round_) or _checked_bet(text, round_)


def _well_formed_bet(text: str, round_: int) -> BetRequest | None:
    """The request, when ``text`` is as a dealer writes it (plain digits, known cards, whole
    pairs), else ``None``: the fast path of every bet a player reads, while
    :func:`_checked_bet` says what is wrong with anything else."""
    parts = text.split(":")
    marker = 5 + round_
    if len(parts) <= marker + 1 or parts[marker] != "up" or (len(parts) - marker - 1) % round_:
        return None
    stack, pot, to_match = parts[1:4]
    if not (_plain_digits(stack) and _plain_digits(pot) and _plain_digits(to_match)):
        return None
    known = _STUD_CARDS
    try:  # (``None in cards`` would call each card's ``__eq__``)
        hole, *up = [known[token] for token in parts[4:marker]]
        after = marker + 1
        listed = [known[token] for token in parts[after:]]
    except KeyError:
        return None
    table = tuple(zip(*[iter(listed)] * round_, strict=True))  # the cards in whole pairs
    return BetRequest(round_, int(stack), int(pot), int(to_match), hole, tuple(up), table)


def _plain_digits(text: str) -> bool:
    """Whether ``text`` is 1 to :data:`MAX_DIGITS` ASCII digits (a number as a dealer writes it)."""
    return text.isdigit() and text.isascii() and len(text) <= MAX_DIGITS


def _checked_bet(text: str, round_: int) -> BetRequest:
    own = round_  # how many up cards each player has
    marker = 5 + own  # index of the literal "up"
    fields = _Fields(text, lambda index: _bet_field(round_, index))
    parts = fields.parts
    if len(parts) <= marker:
        raise fields.fail(len(parts), "missing")
    stack, pot, to_match = (fields.number(i) for i in (1, 2, 3))
    cards = [fields.card(i) for i in range(4, marker)]
    if parts[marker] != "up":
        raise fields.fail(marker, f"expected 'up', got {parts[marker]!r}")
    listed = [fields.card(i) for i in range(marker + 1, len(parts))]
    if not listed:
        raise fields.fail(marker + 1, "missing: the table's up cards")
    if len(listed) % own:
        raise fields.fail(len(parts), f"missing: up cards come in pairs, got {len(listed)}")
    pairs = zip(*[iter(listed)] * own, strict=True)
    table = tuple(tuple(pair) for pair in pairs)
    return BetRequest(round_, stack, pot, to_match, cards[0], tuple(cards[1:]), table)


def _parse_status(text: str) -> Status:
    parts = text.split(":")
    if len(parts) == 5 and parts[1] in ("win", "lose"):  # as a dealer writes it: no checks
        known = _STUD_CARDS
        first, second, third = known.get(parts[2]), known.get(parts[3]), known.get(parts[4])
        if first is not None and second is not None and third is not None:
            return Status(parts[1] == "win", (first, second, third))
    return _checked_status(text)


def _checked_status(text: str) -> Status:
    names = ["command", "win or lose", "first card", "second card", "third card"]
    fields = _Fields(text, lambda index: names[index] if index < len(names) else "extra")
    if len(fields.parts) != 5:
        raise fields.fail(min(len(fields.parts), 5), f"expected 5 fields, got {len(fields.parts)}")
    outcome = fields.parts[1]
    if outcome not in ("win", "lose"):
        raise fields.fail(1, f"expected 'win' or 'lose', got {outcome!r}")
    first, second, third = (fields.card(i) for i in (2, 3, 4))
    return Status(outcome == "win", (first, second, third))


def parse_command(text: str) -> Command:
    """Read a dealer message; :class:`ProtocolError` naming the bad field otherwise."""
    head = text.split(":", 1)[0]
    if text == "login":
        return Login()
    if head == "bet1":
        return _parse_bet(text, 1)
    if head == "bet2":
        return _parse_bet(text, 2)
    if head == "status":
        return _parse_status(text)
    if head == "done" and ":" in text:
        return Done(text.split(":", 1)[1])
    raise ProtocolError(f"field 1 (command): unknown command {head[:40]!r}")


def parse_action(text: str) -> Action:
    """Read a reply to ``bet1``/``bet2``: ``bet:<n>`` or ``fold``."""
    if text == "fold":
        return Fold()
    if text[:4] == "bet:" and _plain_digits(text[4:]):  # as a player writes it: no checks
        return Bet(int(text[4:]))
    return _checked_action(text)


def _checked_action(text: str) -> Action:
    parts = text.split(":")
    if parts[0] != "bet":
        raise ProtocolError(f"expected 'bet:<amount>' or 'fold', got {text[:60]!r}")
    if len(parts) != 2:
        raise ProtocolError(f"bet: expected 'bet:<amount>', got {text[:60]!r}")
    try:
        return Bet(chips(parts[1]))
    except ParseError as error:
        raise ProtocolError(f"bet: field 2 (amount): {error}") from None


def parse_login_reply(text: str) -> LoginReply:
    """Read a reply to ``login``: ``<id>:<avatar>``, both non-empty."""
    ident, colon, avatar = text.partition(":")
    if not colon:
        raise ProtocolError(f"login reply: expected '<id>:<avatar>', got {text[:60]!r}")
    if not ident.strip():
        raise ProtocolError("login reply: field 1 (id): empty")
    if not avatar.strip():
        raise ProtocolError("login reply: field 2 (avatar): empty")
    if not (ident + avatar).isprintable():
        raise ProtocolError(f"login reply: unprintable characters in {text[:60]!r}")
    return LoginReply(ident, avatar)
