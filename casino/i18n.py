"""Messages in the player's language, through the standard library's :mod:`gettext`.

The CASINO-ROYAL games speak Spanish by default (the casino's members do) and English with
``--lang en``. Message ids are the English texts; each game has a *domain* (``domino``,
``holdem``) whose Spanish catalog is the text file
``casino/locale/es/LC_MESSAGES/<domain>.po``, shipped in the package. The ``.po`` source is the
only copy kept (it reads well in a diff); :func:`compile_po` turns it into the binary ``.mo``
form in memory, and :class:`gettext.GNUTranslations` reads that, so nothing generated is
committed and no build step is needed. English is the ids themselves
(:class:`gettext.NullTranslations`).

::

    tr = translator("domino", "es")
    tr.gettext("Your turn")                 # 'Tu turno'
    tr.ngettext("{n} tile", "{n} tiles", 3)  # '{n} fichas'
"""

from __future__ import annotations

import argparse
import ast
import functools
import gettext
import io
import struct
from collections.abc import Iterator, Sequence
from importlib import resources
from typing import TypeVar

from casino.errors import ParseError

LANGUAGES = ("es", "en")
"""The languages every CASINO-ROYAL game speaks; the first is the default."""
DEFAULT_LANGUAGE = LANGUAGES[0]
SOURCE_LANGUAGE = "en"
"""The language the message ids are written in (needs no catalog)."""

_KEYWORDS = ("msgctxt", "msgid_plural", "msgid", "msgstr")
P = TypeVar("P", bound=argparse.ArgumentParser)


def language_in(argv: Sequence[str]) -> str:
    """The language a command line asks for (``--lang L`` or ``--lang=L``, the last one
    given), else :data:`DEFAULT_LANGUAGE`: the language a game's ``--help`` is written in, read
    before the options are parsed. A value not in :data:`LANGUAGES` is left to the parser to
    refuse (the help is then in the default language)."""
    language = DEFAULT_LANGUAGE
    for index, word in enumerate(argv):
        if word == "--":
            break
        value = argv[index + 1] if word == "--lang" and index + 1 < len(argv) else None
        if word.startswith("--lang="):
            value = word.removeprefix("--lang=")
        if value in LANGUAGES:
            language = value
    return language


def translate_help(parser: P, tr: gettext.NullTranslations) -> P:
    """``parser`` with its description, epilog and every option's help put through ``tr``
    (each whole text is a message id; one without a translation stays as it is). argparse's
    own frame (``usage:``, ``options:``) is not casino's to translate and stays English."""
    if parser.description:
        parser.description = tr.gettext(parser.description)
    if parser.epilog:
        parser.epilog = tr.gettext(parser.epilog)
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            action.help = tr.gettext(action.help)
    return parser


def translator(domain: str, language: str) -> gettext.NullTranslations:
    """The translations of ``domain`` into ``language`` (one of :data:`LANGUAGES`)."""
    if language not in LANGUAGES:
        raise ParseError(f"unknown language {language!r} (one of {', '.join(LANGUAGES)})")
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return _catalog(domain, language)


@functools.cache
def _catalog(domain: str, language: str) -> gettext.GNUTranslations:
    source = resources.files("casino") / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    return gettext.GNUTranslations(io.BytesIO(compile_po(source.read_text(encoding="utf-8"))))


def parse_po(text: str) -> dict[str, str]:
    """The messages of a ``.po`` file as gettext keys them: ``msgid`` (with ``ctxt\\x04`` in
    front when there is a ``msgctxt``; plural forms joined by NUL) → translation. Untranslated
    (empty) and fuzzy entries are left out; the header (empty ``msgid``) is kept."""
    messages: dict[str, str] = {}
    for entry in _entries(text):
        if "fuzzy" in entry.get("#,", "") or not any(
            value for key, value in entry.items() if key.startswith("msgstr")
        ):
            continue
        key = entry.get("msgid", "")
        if "msgid_plural" in entry:
            key += "\0" + entry["msgid_plural"]
            forms = sorted(k for k in entry if k.startswith("msgstr["))
            value = "\0".join(entry[form] for form in forms)
        else:
            value = entry.get("msgstr", "")
        if "msgctxt" in entry:
            key = entry["msgctxt"] + "\x04" + key
        messages[key] = value
    return messages


def _entries(text: str) -> Iterator[dict[str, str]]:
    """Each entry of a ``.po`` text as ``{keyword: text}`` (``#,`` holds the flags)."""
    entry: dict[str, str] = {}
    current: str | None = None
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if entry and any(key.startswith("msgstr") for key in entry):
                yield entry
                entry, current = {}, None
            if line.startswith("#,"):
                entry["#,"] = entry.get("#,", "") + line[2:]
            continue
        if line.startswith('"'):
            if current is None:
                raise ParseError(f"line {number}: a string belongs to no keyword")
            entry[current] += _string(line, number)
            continue
        keyword, _, rest = line.partition(" ")
        if not keyword.startswith(_KEYWORDS):
            raise ParseError(f"line {number}: unknown keyword {keyword!r}")
        if keyword in ("msgid", "msgctxt") and any(key.startswith("msgstr") for key in entry):
            yield entry
            entry = {}
        current = keyword
        entry[current] = _string(rest.strip(), number)
    if entry:
        yield entry


def _string(token: str, number: int) -> str:
    """A C-style double-quoted ``.po`` string as its text."""
    if len(token) < 2 or not (token.startswith('"') and token.endswith('"')):
        raise ParseError(f"line {number}: expected a double-quoted string, got {token!r}")
    try:
        value = ast.literal_eval(token)
    except (SyntaxError, ValueError):
        raise ParseError(f"line {number}: a malformed string {token!r}") from None
    if not isinstance(value, str):
        raise ParseError(f"line {number}: a malformed string {token!r}")
    return value


def compile_po(text: str) -> bytes:
    """The ``.mo`` bytes (GNU gettext's binary catalog, little-endian) of a ``.po`` text."""
    messages = parse_po(text)
    keys = sorted(messages)
    ids = [key.encode("utf-8") for key in keys]
    strs = [messages[key].encode("utf-8") for key in keys]
    header_size = 7 * 4
    blob_start = header_size + 16 * len(keys)  # after the two tables of (length, offset)
    blob = b""
    tables: list[list[int]] = [[], []]
    for table, texts in zip(tables, (ids, strs), strict=True):
        for data in texts:
            table += [len(data), blob_start + len(blob)]
            blob += data + b"\0"
    count = len(keys)
    header = struct.pack("<7I", 0x950412DE, 0, count, header_size, header_size + 8 * count, 0, 0)
    return header + struct.pack(f"<{4 * count}I", *tables[0], *tables[1]) + blob
