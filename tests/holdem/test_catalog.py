"""Every message Hold'em shows has its Spanish form in casino/locale/es/LC_MESSAGES/holdem.po."""

from __future__ import annotations

import re
from pathlib import Path

from casino.holdem import names
from casino.holdem.shell import HELP
from casino.i18n import translator

SOURCES = Path(__file__).parents[2] / "casino" / "holdem"
SAME_IN_SPANISH = {"Flop", "Turn", "River"}
MESSAGE = re.compile(r'(?:_|Refused|BadCommand)\(\s*"([^"]+)"|return "(cannot raise: [^"]+)"')


def _messages() -> set[str]:
    found: set[str] = set()
    for path in SOURCES.glob("*.py"):
        for match in MESSAGE.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2))
    return found | set(names._TEMPLATES.values()) | {names.ROYAL, HELP}


def test_the_sources_have_messages() -> None:
    assert len(_messages()) > 50


def test_every_message_is_translated() -> None:
    spanish = translator("holdem", "es")
    missing = sorted(
        text for text in _messages() - SAME_IN_SPANISH if spanish.gettext(text) == text
    )
    assert missing == []


def test_translations_keep_the_fields_of_their_message() -> None:
    spanish = translator("holdem", "es")
    for text in _messages():
        fields = set(re.findall(r"\{(\w+)\}", text))
        translated = set(re.findall(r"\{(\w+)\}", spanish.gettext(text)))
        # hand names pick the Spanish word forms (singular rank, low pair first)
        assert translated <= fields | {"first_rank", "low_ranks", "high_ranks"}, text
