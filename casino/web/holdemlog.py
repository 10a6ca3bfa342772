"""The log of a Hold'em table for browsers (:mod:`casino.web.holdem`): each line kept as a
message id and its fields and said once in each language it is shown in, chips written for
that language; and what every member's view of one state of the table says alike."""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from casino.holdem.view import action_text, blinds_text, showdown_text, street_text
from casino.i18n import translator
from casino.web.words import fill, number

LOG_LINES = 40
STARTS = "{name} starts the table."
LEVEL = "Level {level}: blinds {small}/{big}, ante {ante}."
OUT = "{name} is out in place {place}."
WINS = "{name} wins the sit-and-go and ${prize}."
"""A sit-and-go's lines (:mod:`casino.web.sitgo`): a new level of blinds, a player out, the
winner and their prize."""
WEB_LINES = {
    STARTS: ("name",),
    LEVEL: ("level", "small", "big", "ante"),
    OUT: ("place", "name"),
    WINS: ("prize", "name"),
}
"""The lines of the table's log from the ``web`` catalog (the others are ``holdem``'s)."""


@dataclass
class LogLine:
    """A line of the table's log: a message id and its fields, and the line as said in each
    language it was shown in (said once per language, not once per view: a view carries
    the last :data:`LOG_LINES` lines, and every action sends every member a view)."""

    template: str
    values: tuple[Any, ...]
    said: dict[str, str] = field(default_factory=dict)

    def text(self, tr: gettext.NullTranslations, lang: str) -> str:
        """The line in ``lang`` (``tr``: that language's ``holdem`` catalog)."""
        text = self.said.get(lang)
        if text is None:
            text = self.said[lang] = line_text(tr, self.template, self.values, lang)
        return text


@dataclass(frozen=True)
class Said:
    """What every member's view of one state of a table says alike, in one language."""

    log: list[str]
    last: dict[int, str]
    """Each seat's last action in this hand."""
    winners: list[dict[str, Any]]


def amount_of(lang: str) -> Callable[[int], str]:
    """Chips written for ``lang`` (:func:`casino.web.words.number`)."""
    return lambda chips: number(chips, lang)


def line_text(
    tr: gettext.NullTranslations, template: str, values: tuple[Any, ...], lang: str
) -> str:
    """A line of the log in ``lang``, its chips written for it (a hand's number is its name,
    written as it is)."""
    if template == "ACTION":
        return action_text(values[0], values[1], tr, amount=amount_of(lang))
    if template == "BLINDS":
        return "\n".join(blinds_text(values[0], values[1], tr, amount=amount_of(lang)))
    if template == "STREET":
        return street_text(values[0], values[1], tr)
    if template == "SHOWDOWN":
        return "\n".join(showdown_text(values[0], values[1], tr, amount=amount_of(lang)))
    if template == "REVEALED":  # show or muck: the seats' choices, then the pots
        lines = showdown_text(values[0], values[1], tr, amount=amount_of(lang), reveals=values[2])
        return "\n".join(lines)
    if template in WEB_LINES:
        fields = dict(zip(WEB_LINES[template], values, strict=True))
        return fill(translator("web", lang).gettext(template), lang, **fields)
    return tr.gettext(template).format(*values, number=values[0], name=values[-1])
