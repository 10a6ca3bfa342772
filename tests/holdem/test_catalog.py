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
        # hand names pick the Spanish word forms (the straight's top card, low pair first)
        assert translated <= fields | {"top", "low_ranks", "high_ranks"}, text


def _options(argv: list[str]) -> dict[str, str]:
    """Each option of ``casino holdem ARGV --help`` → its help, and the commands → meaning."""
    from casino.holdem.cli import main
    from casino.manpage import parse_help
    from casino.programs import run_captured

    done = run_captured(main, argv)
    assert done.status == 0
    parsed = parse_help(done.out)
    items = {name: words for section in parsed.sections for name, words in section.items}
    assert all(words for words in items.values()), items
    return items


def test_the_help_and_the_servers_are_in_the_language_asked_for_with_the_commands() -> None:
    for sub in ([], ["serve"]):
        spanish, english = _options([*sub, "--help"]), _options([*sub, "--lang", "en", "--help"])
        assert spanish.keys() == english.keys()
        same = {name for name in spanish if spanish[name] == english[name]}
        assert same <= {"--styles S,S"}, same  # style names are the same words
        assert english["apostar N / bet N"] == "bet N (nobody has bet this round)"
        assert spanish["apostar N / bet N"] == "apostar N (nadie ha apostado en esta ronda)"
        assert english["-h, --help"] == "show this help message and exit"
    join = _options(["join", "--help"])
    assert set(join) == {"host", "port", "-h, --help", "--name NAME", "--table N", "--token TOKEN"}
