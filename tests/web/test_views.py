"""What the table pages are sent and what they weigh: the raise presets the engine allows,
the showdown's winning five cards and hand name in the member's language, every page word
translated, each page under 100 KB of HTML, CSS and JavaScript."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casino.cards.card import parse_cards
from casino.holdem.engine import Hand
from casino.i18n import translator
from casino.web import words
from casino.web.holdemview import _presets, _winners

STATIC = Path(words.__file__).parent / "static"
SAME_IN_SPANISH = {"Texas Hold'em", "{name}: {action}"}


def cards(text: str) -> list[int]:
    return [card.index for card in parse_cards(text)]


def test_the_presets_are_legal_totals_clamped_to_the_engines_range() -> None:
    hand = Hand.deal([1000, 1000, 1000], 0, (5, 10), list(range(52)))
    legal = hand.legal()
    assert (legal.call, legal.min_to, legal.max_to) == (10, 20, 1000)
    # ½ pot: the call (10) then half the pot after it (15 + 10); pot: all of it.
    assert _presets(hand, legal) == {"half": 22, "full": 35, "max": 1000}
    hand.bet_or_raise(600)
    legal = hand.legal()
    presets = _presets(hand, legal)
    assert presets == {"half": 1000, "full": 1000, "max": 1000}  # clamped to the most
    assert all(hand.can_bet_or_raise(to) for to in presets.values())


def test_a_showdown_names_the_winning_hand_and_its_five_cards() -> None:
    # Heads-up, button 0: seat 1 is dealt first. Seat 0: 9♠ 9♥; seat 1: A♠ K♣.
    deck = cards("AS 9S KC 9H 9D 8C 8D 2S 3H") + [
        c for c in range(52) if c not in cards("AS 9S KC 9H 9D 8C 8D 2S 3H")
    ]
    hand = Hand.deal([1000, 1000], 0, (5, 10), deck)
    hand.call()
    while not hand.over:
        hand.check()
    spanish = _winners(hand, translator("holdem", "es"))
    assert spanish == [
        {
            "seat": 0,
            "amount": 20,
            "pot": 0,
            "hand": "Full de nueves y ochos",
            "five": ["9S", "9H", "9D", "8C", "8D"],
        }
    ]
    assert _winners(hand, translator("holdem", "en"))[0]["hand"] == "Full house, nines over eights"


def test_a_pot_won_by_a_fold_names_no_hand() -> None:
    hand = Hand.deal([1000, 1000], 0, (5, 10), list(range(52)))
    hand.fold()
    # The big blind wins both blinds (its uncalled 5 goes back to it first).
    assert _winners(hand, translator("holdem", "es")) == [{"seat": 1, "amount": 10, "pot": 0}]


def test_every_page_word_is_translated_and_keeps_its_fields() -> None:
    spanish = translator("web", "es")
    messages = {m for table in words.PAGES.values() for m in table.values()}
    missing = sorted(m for m in messages - SAME_IN_SPANISH if spanish.gettext(m) == m)
    assert missing == []
    for message in messages:
        fields = set(re.findall(r"\{(\w+)\}", message))
        assert set(re.findall(r"\{(\w+)\}", spanish.gettext(message))) == fields, message


@pytest.mark.parametrize("page", ["holdem.html", "domino.html"])
def test_each_page_is_under_100_kb_of_html_css_and_javascript(page: str) -> None:
    html = (STATIC / page).read_text("utf-8")
    linked = re.findall(r'(?:href|src)="/static/([^"]+)"', html)
    assert "casino.css" in linked
    assert not re.search(r'(?:href|src)="(?:https?:)?//', html)  # nothing from another site
    total = len(html.encode()) + sum((STATIC / name).stat().st_size for name in linked)
    assert total < 100_000, f"{page}: {total} bytes"


def test_the_lobby_and_the_member_page_show_what_is_at_a_table() -> None:
    from casino.web import pages
    from casino.web.store import Member as Account

    zoe, bo = Account(1, "Zoe", 700), Account(2, "Bo", 0)
    tables = [
        pages.TableRow(1, (5, 10), 3, ("Bo",), 1000),
        pages.TableRow(2, (5, 10), 1, ("Zoe",), 1000),
    ]
    lobby = pages.lobby(
        "en",
        "t",
        zoe,
        money_of=pages.Money(700, 300, 0),
        tables=tables,
        leaders=[(zoe, 300), (bo, 0)],
    )
    assert '<data id="held" value="300">$300</data>' in lobby
    assert 'data-table="1"' in lobby and "1 of 3: Bo" in lobby and "5/10" in lobby
    assert 'id="table-2" class="quiet" disabled' in lobby  # full
    assert 'data-member="Zoe"' in lobby and '<data class="money held" value="300">' in lobby
    broke = pages.lobby("es", "t", bo, money_of=pages.Money(0, 0, 1000))
    assert 'id="refill"' in broke and "Recibe 1000\u00a0US$ de la casa" in broke
    later = pages.lobby("en", "t", bo, money_of=pages.Money(0, 0, 0, 86400.0))
    assert "next at 1970-01-02 00:00 UTC" in later and 'id="refill"' not in later
    page = pages.member_page("en", zoe, [], [zoe, bo], {1: 300})
    assert page.lower().count("at a table") == 2  # the member's own line, the leaderboard's
    ended = pages.lobby("en", "t", None, ended=True)
    assert 'id="ended"' in ended and "Your chips are safe." in ended
