"""Every word of the members' pages and the web tables' notices has its Spanish form in
casino/locale/es/LC_MESSAGES/web.po, with the same fields."""

from __future__ import annotations

import re
from pathlib import Path

from casino.i18n import translator
from casino.web.holdemlog import STARTS

WEB = Path(__file__).parents[2] / "casino" / "web"
SOURCES = {
    "pages.py": r'_\("([^"]+)"\)|gettext\("([^"]+)"\)',
    "holdemview.py": r'gettext\("([^"]+)"\)',
    "store.py": r'StoreError\(\s*"([^"]+)"',
    "sessions.py": r'return "([^"]+)"',
    **dict.fromkeys(
        ("app.py", "handlers.py", "serving.py"),
        r'text="([^"]+)"|said\([^,]+, "([^"]+)"\)|message = "([^"]+)"',
    ),
}


def _messages() -> set[str]:
    found = {STARTS}
    for name, pattern in SOURCES.items():
        for match in re.finditer(pattern, (WEB / name).read_text(encoding="utf-8")):
            found.add(next(group for group in match.groups() if group))
    return (
        found
        - {"game {game} is not open", "a stake is never negative"}
        - {
            text
            for text in found
            if "payout" in text  # the operator's, never a member's
        }
    )


def test_the_sources_have_messages() -> None:
    messages = _messages()
    assert len(messages) > 30
    assert {"Log in", "wrong name or password", "You are seated for the next hand."} <= messages
    assert {"the form has expired: open the lobby again", "no free seat"} <= messages
    assert {
        "There is no such page.",
        "The casino cannot do that: go back to the lobby.",
    } <= messages


def test_every_message_is_translated_with_its_fields() -> None:
    spanish = translator("web", "es")
    for text in _messages():
        translated = spanish.gettext(text)
        assert translated != text, f"not translated: {text!r}"
        assert set(re.findall(r"\{(\w+)", translated)) == set(re.findall(r"\{(\w+)", text))
