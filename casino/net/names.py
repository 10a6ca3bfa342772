"""Names that clients choose, checked before anybody else sees them.

A name is shown to other people's terminals and pages, so it must be printable text only: no
control characters, no terminal escape sequences, no invisible format characters
(:meth:`str.isprintable`), no spaces (unless the protocol allows them), and at most
:data:`MAX_NAME` characters. It may not be one of the server's own (its computer players'
names) nor one already in use; both are compared without regard to case or Unicode
compatibility forms (``ANA`` and ``Ａna`` are ``Ana``), so nobody passes for somebody else.

The computer players' names carry their mark, :data:`COMPUTER_MARK` (``Ana (bot)``): "bot"
reads the same in Spanish and English, and a name with a space never passes the rules of a
protocol that forbids spaces, so every name a person may type stays theirs to take (``Ana``
included). Where names may hold spaces (the web's members), :func:`computer_marked` tells the
one kind of name a person may not take: one that ends in the mark, or in anything that looks
like it — compared by :func:`skeleton` (``Ana (bοt)`` with a Greek omicron, ``Ana (b0t)``,
``Ana [bot]``, ``Ana ⟨BOT⟩``).

>>> check_name("Ana", reserved=["Ana"])
Traceback (most recent call last):
...
casino.net.names.BadName: That name belongs to a computer player.
>>> check_name("Zoë")
'Zoë'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from casino.errors import ParseError

MAX_NAME = 20
"""The longest name, in characters."""

UNPRINTABLE = "A name is 1 to {most} letters, digits or signs, without spaces."
UNPRINTABLE_SPACED = "A name is 1 to {most} printable characters."
RESERVED = "That name belongs to a computer player."
MARKED = "A name ending in (bot) is a computer player's."
COMPUTER_MARK = "(bot)"
"""What ends every computer player's name, after a space (``Ana (bot)``)."""


def computer_name(name: str) -> str:
    """``name`` marked as a computer player's: ``Ana`` → ``Ana (bot)``."""
    return f"{name} {COMPUTER_MARK}"


def computer_marked(name: str) -> bool:
    """Whether ``name`` ends in the computer players' mark or what looks like it (``ana
    (BOT)``, ``Ana [b0t]``, ``Ana (bοt)`` with a Greek omicron: as :func:`skeleton` reads
    them): a name no person may take, so that nobody passes for a computer player or is taken
    for one."""
    return skeleton(name).endswith(COMPUTER_MARK)


CONFUSABLES = str.maketrans(
    {
        # Greek (after casefold) that reads as a Latin letter
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ϲ": "c", "ϳ": "j",
        # Cyrillic (after casefold)
        "а": "a", "в": "b", "ь": "b", "ъ": "b", "е": "e", "ё": "e", "һ": "h", "н": "h",
        "і": "i", "ї": "i", "ј": "j", "к": "k", "м": "m", "о": "o", "р": "p", "с": "c",
        "ѕ": "s", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԛ": "q", "ԝ": "w", "п": "n",
        # Latin letters of other shapes
        "ı": "i", "ȷ": "j", "ƅ": "b", "ƀ": "b", "ø": "o", "ɵ": "o", "ŧ": "t", "ƚ": "l",
        "ł": "l", "ɡ": "g", "ʙ": "b", "ᴏ": "o", "ᴛ": "t",
        # digits that read as letters
        "0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "6": "b", "7": "t", "8": "b",
        "9": "g",
        # brackets that are not Unicode's open/close punctuation
        "<": "(", ">": ")", "‹": "(", "›": ")", "«": "(", "»": ")",
    }
)  # fmt: skip
"""The confusables :func:`skeleton` reads as the Latin letter (or bracket) they look like: a
small table of the common ones (Greek, Cyrillic, other Latin shapes, digits), not Unicode's
whole ``confusables.txt``; enough that no name ending in a look-alike of ``(bot)`` passes."""


def skeleton(text: str) -> str:
    """What ``text`` looks like, for telling look-alike names: NFKC, casefold, accents and
    other combining marks dropped, the :data:`CONFUSABLES` read as the letters they look
    like, every opening bracket (``[``, ``{``, ``⟨``…: Unicode's open punctuation) read as
    ``(`` and every closing one as ``)``, and spaces, dashes and connectors (``_``) left
    out. ``skeleton("Ana [B0T]") == "ana(bot)"``."""
    folded = unicodedata.normalize("NFD", name_key(text))
    kept = []
    for char in folded.translate(CONFUSABLES):
        kind = unicodedata.category(char)
        if kind == "Mn" or kind in ("Pd", "Pc") or char.isspace():
            continue
        kept.append({"Ps": "(", "Pe": ")"}.get(kind, char))
    return "".join(kept)


TAKEN = "That name is taken."


class BadName(ParseError):
    """A name that is refused; ``template`` (to translate) and ``values`` say why."""

    def __init__(self, template: str, **values: object) -> None:
        super().__init__(template.format(**values))
        self.template = template
        self.values = values


def name_key(name: str) -> str:
    """What two names are compared by (case and compatibility forms folded)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(
    name: str,
    reserved: Iterable[str] = (),
    taken: Iterable[str] = (),
    most: int = MAX_NAME,
    spaces: bool = False,
) -> str:
    """``name`` if it may be used; :class:`BadName` if it is not printable text of 1 to
    ``most`` characters (without spaces, unless ``spaces``), ends in the computer players'
    mark (:func:`computer_marked`), or is (as :func:`name_key` compares) one of ``reserved``
    or ``taken``."""
    spaced = any(char.isspace() for char in name)
    if not 1 <= len(name) <= most or not name.isprintable() or (spaced and not spaces):
        raise BadName(UNPRINTABLE_SPACED if spaces else UNPRINTABLE, most=most)
    key = name_key(name)
    if computer_marked(name):
        raise BadName(MARKED)
    if any(name_key(other) == key for other in reserved):
        raise BadName(RESERVED)
    if any(name_key(other) == key for other in taken):
        raise BadName(TAKEN)
    return name
