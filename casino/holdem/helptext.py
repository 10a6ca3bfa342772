"""Hold'em's ``--help``: the command-line options and the commands a player types, in the
language ``--lang`` asks for.

Here rather than in :mod:`casino.holdem.shell` (which re-exports them), so that ``casino
holdem --help`` and ``casino holdem serve --help`` import neither the table nor the engine nor
the computer players.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Sequence

from casino.cmdline import commands_help
from casino.i18n import P, language_in, translate_help, translator

HELP = """Commands (Spanish or English):
  pasar / check          check (nothing to call)
  ir / call              call the bet
  apostar N / bet N      bet N (nobody has bet this round)
  subir N / raise N      raise to a total of N this round
  todo / allin           put in all your chips
  retirarse / fold       give up the hand
  ayuda / help           this list
  salir / quit           leave the table"""


COMMANDS_HEADING = "commands (Spanish or English), one per line at the > prompt on your turn:"
"""What ``--help`` says before the commands (a message id)."""


def command_table(tr: gettext.NullTranslations) -> list[tuple[str, str]]:
    """The rows of :data:`HELP` in ``tr``'s language: (the words to type, what they do)."""
    _heading, *rows = tr.gettext(HELP).splitlines()
    table = []
    for row in rows:
        syntax, meaning = re.split(r" {2,}", row.strip(), maxsplit=1)
        table.append((syntax, meaning))
    return table


def localize_help(parser: P, argv: Sequence[str]) -> P:
    """``parser``'s ``--help`` in the language ``argv``'s ``--lang`` asks for (Spanish by
    default, as the table speaks), from the ``holdem`` catalog, with the commands a player
    types after the options (the same rows as the in-game ``help``)."""
    tr = translator("holdem", language_in(argv))
    translate_help(parser, tr)
    parser.epilog = commands_help(tr.gettext(COMMANDS_HEADING), command_table(tr))
    return parser
