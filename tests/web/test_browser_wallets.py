"""The lobby's wallets while a member is at a table, as a person reads them: in headless
Chromium at a phone's, a small laptop's and a desktop's width, the pieces of the member's line
(name, wallet, "(and", what is at the table, "at a table)") are drawn in reading order and no
two of them overlap — the line reads ``Bo: $1,000 (and $100 at a table)``, never
``Bo: (and at a table) $1,000$100`` (issue 44: both amounts were floated right by one rule).

A real ``casino web`` process (its own database); every wait is bounded."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from casino.web.words import money

from .browser import casino_web, emulate, join
from .tables import POLL

LIMIT = 120.0
SERVER = ("--seats", "4", "--seed", "7", "--think", "0.05", "--timeout", "600")
WIDTHS = {"phone": (390, 844), "laptop": (1024, 640), "desktop": (1366, 768)}
PIECES = """
const line = document.querySelector(arguments[0]);
const boxes = [];
for (const node of line.childNodes) {
  const text = node.textContent.trim();
  if (!text) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0);
  boxes.push({text, rects: rects.map((r) => [r.left, r.top, r.right, r.bottom])});
}
return boxes;
"""


def words(text: str) -> str:
    """``text`` with every run of spaces (no-break ones too) as one space."""
    return " ".join(text.split())


def reading_order(boxes: list[dict[str, Any]]) -> str:
    """The line's text as drawn: its pieces' boxes sorted by line, then left to right."""
    words = [
        (round(top), left, piece["text"])
        for piece in boxes
        for left, top, _right, _bottom in piece["rects"][:1]
    ]
    return " ".join(text for _top, _left, text in sorted(words))


def overlaps(boxes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The pairs of pieces whose drawn boxes intersect (by more than half a pixel)."""
    drawn = [(piece["text"], rect) for piece in boxes for rect in piece["rects"]]
    found = []
    for index, (one, (l1, t1, r1, b1)) in enumerate(drawn):
        for two, (l2, t2, r2, b2) in drawn[index + 1 :]:
            if min(r1, r2) - max(l1, l2) > 0.5 and min(b1, b2) - max(t1, t2) > 0.5:
                found.append((one, two))
    return found


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_seated_members_wallet_reads_in_order(browsers: Callable[[], Any], lang: str) -> None:
    driver = browsers()
    line = '#wallets li[data-member="Bo"]'
    with casino_web(*SERVER) as url:
        join(driver, url, "Bo", lang, "holdem")
        driver.switch_to.new_window("tab")
        end = time.monotonic() + LIMIT
        while not driver.find_elements("css selector", f"{line} .held"):
            assert time.monotonic() < end, "Bo's chips were never shown at a table"
            time.sleep(POLL)
            driver.get(f"{url}?lang={lang}")
        wallet = driver.find_element("css selector", f"{line} .wallet")
        held = driver.find_element("css selector", f"{line} .held")
        amounts = [int(element.get_attribute("value")) for element in (wallet, held)]
        said = {
            "en": f"Bo: {money(amounts[0], lang)} (and {money(amounts[1], lang)} at a table)",
            "es": f"Bo: {money(amounts[0], lang)} (y {money(amounts[1], lang)} en una mesa)",
        }[lang]
        assert words(driver.find_element("css selector", line).text) == words(said)
        for size in WIDTHS.values():
            emulate(driver, size)
            driver.execute_script("return new Promise((done) => requestAnimationFrame(done))")
            boxes = driver.execute_script(PIECES, line)
            assert words(reading_order(boxes)) == words(said), size
            assert overlaps(boxes) == [], size
