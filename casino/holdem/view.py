"""What a player sees, as text in their language: the table, actions, the showdown.

Every function takes the viewer's seat, so a player is only ever shown their own hole cards
(the terminal, hot-seat and network front ends all print through here).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Sequence

from casino.cards.card import Card
from casino.holdem.engine import Action, Award, Hand, Kind, Legal
from casino.holdem.names import hand_name
from casino.holdem.showmuck import Choice, Reveal
from casino.holdem.table import Table

Amount = Callable[[int], str]
"""How a front end writes an amount of chips (the terminal: as it is, ``str``; the web
pages: for the member's language)."""


def cards_text(cards: Sequence[int]) -> str:
    """Card indices as ``A♠ 10♥`` (the seed's way of writing cards)."""
    return " ".join(_card(index) for index in cards)


def _card(index: int) -> str:
    card = Card.from_index(index)
    return card.rank.stud + card.suit.symbol


def action_text(
    action: Action,
    name: str,
    tr: gettext.NullTranslations,
    *,
    you: bool = False,
    amount: Amount = str,
) -> str:
    """``Ana: sube a 60`` — one action, as everybody sees it; said to the player at this
    keyboard (``you``) as a person speaks to them: ``Subes a 60``, ``Te retiras``."""
    if you:
        return _capitalized(_own_words(action, tr, amount))
    return f"{name}: {_words(action, tr, amount)}"


def _words(action: Action, tr: gettext.NullTranslations, amount: Amount = str) -> str:
    """What a player did, said of them (the third person: no gender to agree with)."""
    _ = tr.gettext
    words = {
        Kind.FOLD: _("folds"),
        Kind.CHECK: _("checks"),
        Kind.CALL: _("calls {amount}").format(amount=amount(action.paid)),
        Kind.BET: _("bets {amount}").format(amount=amount(action.to)),
        Kind.RAISE: _("raises to {amount}").format(amount=amount(action.to)),
    }[action.kind]
    return words + (" " + _("(all-in)") if action.all_in else "")


def _own_words(action: Action, tr: gettext.NullTranslations, amount: Amount = str) -> str:
    """What the player at this keyboard did, said to them: ``vas 10``, ``you call 10``."""
    _ = tr.gettext
    words = {
        Kind.FOLD: _("you fold"),
        Kind.CHECK: _("you check"),
        Kind.CALL: _("you call {amount}").format(amount=amount(action.paid)),
        Kind.BET: _("you bet {amount}").format(amount=amount(action.to)),
        Kind.RAISE: _("you raise to {amount}").format(amount=amount(action.to)),
    }[action.kind]
    return words + (" " + _("(all-in)") if action.all_in else "")


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def blind_posts(hand: Hand) -> tuple[tuple[int, int], tuple[int, int]]:
    """``((seat, chips), (seat, chips))``: who posted the small and the big blind, and how
    much (heads-up the button posts the small one)."""
    order = hand.order_from(hand.button)
    small, big = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
    return (small, hand.bets[small]), (big, hand.bets[big])


def blinds_text(
    posts: tuple[tuple[int, int], tuple[int, int]],
    names: Sequence[str],
    tr: gettext.NullTranslations,
    amount: Amount = str,
) -> list[str]:
    """``Ana: ciega pequeña 5``, ``Bruno: ciega grande 10``: the blinds posted
    (:func:`blind_posts`), said to everybody at the start of a hand."""
    _ = tr.gettext
    (small, small_chips), (big, big_chips) = posts
    return [
        _("{name}: small blind {amount}").format(name=names[small], amount=amount(small_chips)),
        _("{name}: big blind {amount}").format(name=names[big], amount=amount(big_chips)),
    ]


def street_text(board: Sequence[int], size: int, tr: gettext.NullTranslations) -> str:
    """``Flop: 2♣ 7♦ 9♥`` when the board has just grown to ``size`` cards (3, 4 or 5)."""
    _ = tr.gettext
    label = {3: _("Flop"), 4: _("Turn"), 5: _("River")}[size]
    return f"{label}: {cards_text(board[:size])}"


def pots_text(hand: Hand, tr: gettext.NullTranslations) -> str:
    """``Bote: 150 (bote principal 90 · bote lateral 1: 40)``: everything in the middle,
    bets of this round included, and the pots already formed when there is more than one."""
    _ = tr.gettext
    text = _("Pot: {amount}").format(amount=hand.pot_total())
    pots = hand.pots(bets=False)
    if len(pots) > 1:
        parts = [_("main pot {amount}").format(amount=pots[0].amount)]
        parts += [
            _("side pot {number}: {amount}").format(number=k, amount=pot.amount)
            for k, pot in enumerate(pots[1:], 1)
        ]
        text += " (" + " · ".join(parts) + ")"
    return text


def table_text(
    table: Table,
    viewer: int | None,
    names: Sequence[str],
    tr: gettext.NullTranslations,
    *,
    you: int | None = None,
) -> list[str]:
    """The table for ``viewer`` (``None``: an onlooker): cards, board, pots, every seat; the
    last action of seat ``you`` (the player at this keyboard) said to them."""
    _ = tr.gettext
    hand = table.hand
    assert hand is not None
    lines = []
    if viewer is not None and hand.hole[viewer]:
        lines.append(_("Your cards: {cards}").format(cards=cards_text(hand.hole[viewer])))
    board = cards_text(hand.board) if hand.board else "-"
    lines.append(_("Board: {cards}").format(cards=board))
    lines.append(pots_text(hand, tr))
    last = {action.seat: action for action in hand.actions}
    for seat, name in enumerate(names):
        if not hand.starting[seat]:
            continue
        marks = " (D)" if seat == hand.button else ""
        state = _("folded") if hand.folded[seat] else ""
        if seat in last and not state:
            own = seat == you
            state = _own_words(last[seat], tr) if own else _words(last[seat], tr)
        row = _("{name}{button}: {chips} chips, bet {bet}").format(
            name=name, button=marks, chips=hand.stacks[seat], bet=hand.bets[seat]
        )
        arrow = "* " if seat == hand.to_act else "  "
        lines.append(arrow + row + (f" [{state}]" if state else ""))
    return lines


def legal_text(legal: Legal, tr: gettext.NullTranslations) -> str:
    """``Puedes: pasar · apostar 10-990 · todo 990 · retirarse`` (a fold is always there)."""
    _ = tr.gettext
    options = []
    if legal.can_check:
        options.append(_("check"))
    else:
        options.append(_("call {amount}").format(amount=legal.call))
    if legal.can_bet_or_raise:
        verb = _("raise") if legal.raising else _("bet")
        if legal.min_to < legal.max_to:
            options.append(f"{verb} {legal.min_to}-{legal.max_to}")
        options.append(_("allin {amount}").format(amount=legal.max_to))
    options.append(_("fold"))  # the seed lets a player fold even when a check is free
    return _("You may: {options}").format(options=" · ".join(options))


def showdown_text(
    hand: Hand,
    names: Sequence[str],
    tr: gettext.NullTranslations,
    *,
    you: int | None = None,
    amount: Amount = str,
    reveals: Sequence[Reveal] | None = None,
) -> list[str]:
    """The shown hands, named, and who wins which pot (said to seat ``you``, the player at
    this keyboard, in the second person); ``amount`` writes the chips. With ``reveals`` (a
    :class:`~casino.holdem.showmuck.Showdown`'s choices) each seat shows or mucks as it chose,
    in that order; without, every hand at a showdown is shown (the terminal's tables)."""
    _ = tr.gettext
    lines = []
    if reveals is None:
        reveals = [Reveal(seat, Choice.SHOW, tuple(hand.hole[seat]), True) for seat in hand.shown]
    contested = len(hand.live) > 1
    for reveal in reveals:
        seat = reveal.seat
        if reveal.choice is Choice.MUCK:
            lines.append(_("{name}: mucks").format(name=names[seat]))
            continue
        if not contested:  # an uncontested winner's board may not be complete: no hand name
            lines.append(
                _("{name}: shows {cards}").format(name=names[seat], cards=cards_text(reveal.cards))
            )
            continue
        values = {"cards": cards_text(reveal.cards), "hand": hand_name(hand.strength(seat), tr)}
        if seat == you:
            lines.append(_("You show {cards}, {hand}").format(**values))
        else:
            lines.append(_("{name}: shows {cards}, {hand}").format(name=names[seat], **values))
    if hand.returned:
        seat, chips = hand.returned
        back = amount(chips)
        if seat == you:
            lines.append(_("You get back {amount} (uncalled)").format(amount=back))
        else:
            lines.append(
                _("{name}: gets back {amount} (uncalled)").format(name=names[seat], amount=back)
            )
    for award in hand.awards:
        lines.extend(_award_lines(award, names, tr, you, amount))
    return lines


def _award_lines(
    award: Award,
    names: Sequence[str],
    tr: gettext.NullTranslations,
    you: int | None,
    amount: Amount = str,
) -> list[str]:
    _ = tr.gettext
    pot = _("the pot") if award.pot == 0 else _("side pot {number}").format(number=award.pot)
    return [
        _("You win {amount} ({pot})").format(amount=amount(share), pot=pot)
        if seat == you
        else _("{name}: wins {amount} ({pot})").format(
            name=names[seat], amount=amount(share), pot=pot
        )
        for seat, share in zip(award.winners, award.shares, strict=True)
    ]
