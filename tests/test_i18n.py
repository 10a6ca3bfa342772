"""The gettext catalogs: ``.po`` sources compiled in memory and read by the stdlib's gettext."""

from __future__ import annotations

import gettext
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.errors import ParseError
from casino.i18n import compile_po, language_in, parse_po, translator

CATALOG = r"""# A test catalog
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: casino/domino/shell.py:10
msgid "Your turn"
msgstr "Tu turno"

#, fuzzy
msgid "Fuzzy"
msgstr "Borroso"

msgid "{n} tile"
msgid_plural "{n} tiles"
msgstr[0] "{n} ficha"
msgstr[1] "{n} fichas"

msgctxt "end"
msgid "left"
msgstr "izquierda"

msgid "Two "
"lines\n"
msgstr "Dos "
"líneas\n"

msgid "Untranslated"
msgstr ""
"""


def _read(text: str) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(compile_po(text)))


def test_every_kind_of_entry_reads_back_through_gettext() -> None:
    tr = _read(CATALOG)
    assert tr.gettext("Your turn") == "Tu turno"
    assert tr.gettext("Fuzzy") == "Fuzzy"  # fuzzy entries are not used
    assert [tr.ngettext("{n} tile", "{n} tiles", n) for n in (1, 3)] == ["{n} ficha", "{n} fichas"]
    assert tr.pgettext("end", "left") == "izquierda"
    assert tr.gettext("Two lines\n") == "Dos líneas\n"
    assert tr.gettext("Untranslated") == "Untranslated"
    assert tr.charset() == "UTF-8"


def _po_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a C-style quoted string, as .po files hold


@given(st.dictionaries(st.text(min_size=1), st.text(min_size=1), max_size=20))
def test_any_messages_round_trip(messages: dict[str, str]) -> None:
    messages = {key: value for key, value in messages.items() if "\0" not in key + value}
    header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    body = "".join(
        f"msgid {_po_string(key)}\nmsgstr {_po_string(value)}\n\n"
        for key, value in messages.items()
        if "\x04" not in key
    )
    tr = _read(header + body)
    for key, value in messages.items():
        if "\x04" not in key:
            assert tr.gettext(key) == value


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('msgid "a"\nmsgstr "b\n', "line 2: expected a double-quoted string"),
        ('"orphan"\n', "line 1: a string belongs to no keyword"),
        ('msgid "a"\nmsgfoo "b"\n', "line 2: unknown keyword 'msgfoo'"),
    ],
)
def test_a_malformed_catalog_names_the_line(text: str, problem: str) -> None:
    with pytest.raises(ParseError, match=problem):
        parse_po(text)


def test_english_is_the_ids_and_other_languages_are_refused() -> None:
    assert translator("anything", "en").gettext("Your turn") == "Your turn"
    with pytest.raises(ParseError, match="unknown language 'fr'"):
        translator("anything", "fr")


def test_the_help_language_is_the_last_lang_asked_for_or_the_default() -> None:
    assert language_in([]) == "es" and language_in(["--help"]) == "es"
    assert language_in(["--lang", "en", "--help"]) == "en"
    assert language_in(["--lang=en", "--lang", "es"]) == "es"
    assert language_in(["--lang", "fr"]) == "es"  # argparse refuses it; the help is Spanish
    assert language_in(["--", "--lang", "en"]) == "es" and language_in(["--lang"]) == "es"
