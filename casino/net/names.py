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
one kind of name a person may not take: one that ends in the mark.

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
    """Whether ``name`` ends in the computer players' mark (``ana  (BOT)`` too): a name no
    person may take, so that nobody passes for a computer player or is taken for one."""
    return "".join(name_key(name).split()).endswith(COMPUTER_MARK)


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
