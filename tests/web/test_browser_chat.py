"""Two members chat at a Hold'em table in two headless Chromiums: what one types the other
reads as text (``<script>`` and ``&amp;`` shown as typed, never run), typing in the chat box
plays no card (the table's keys are not taken from it), and a member muted is not heard
until unmuted. A real ``casino web`` process; every wait is bounded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .browser import casino_web, click_when, join

HOSTILE = "<script>document.title='owned'</script> &amp; fin"
LINES = """
return [...document.querySelectorAll('#chat-lines li')].map((li) => [
  li.querySelector('.speaker').textContent, li.querySelector('.said').textContent]);
"""
LIMIT = 60.0
SPY = """
window.sent = [];
const send = chatLink.send;
chatLink.send = (text) => { window.sent.push(JSON.parse(text).type); send(text); };
"""
"""Records the type of every message the page sends (the table's socket is the chat's)."""


def said(driver: Any) -> list[list[str]]:
    lines: list[list[str]] = driver.execute_script(LINES)
    return lines


def until(driver: Any, test: Callable[[Any], Any]) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, LIMIT, poll_frequency=0.1).until(test)


def type_line(driver: Any, text: str) -> None:
    from selenium.webdriver.common.keys import Keys

    until(driver, lambda d: d.find_element("id", "chat-text").is_displayed())
    box = driver.find_element("id", "chat-text")
    box.send_keys(text)
    box.send_keys(Keys.ENTER)


def test_two_members_chat_at_a_holdem_table(browsers: Callable[[], Any]) -> None:
    a, b = browsers(), browsers()
    with casino_web("--seats", "3", "--tables", "1", "--pause", "0.6", "--seed", "5") as url:
        join(a, url, "Ana", "es", "holdem")
        join(b, url, "Bo", "en", "holdem")
        until(a, lambda d: d.find_element("id", "chat-title").text == "Charla")
        until(b, lambda d: d.find_element("id", "chat-title").text == "Chat")
        type_line(a, "hola Bo")
        type_line(a, HOSTILE)
        expected = [["Ana", "hola Bo"], ["Ana", HOSTILE]]
        until(b, lambda d: said(d) == expected)
        assert until(a, lambda d: said(d) == expected)
        assert b.execute_script("return document.querySelectorAll('#chat script').length") == 0
        assert "owned" not in b.title and "owned" not in a.title
        b.execute_script(SPY)
        type_line(b, "fkc")  # the table's keys (fold, check, call): only words in the box
        until(a, lambda d: said(d)[-1:] == [["Bo", "fkc"]])
        assert b.execute_script("return window.sent") == ["chat"]  # no act went out
        assert b.find_element("id", "chat-text").get_attribute("value") == ""
        click_when(b, "#chat-lines li .mute")  # Bo mutes Ana (her line's button)
        muted = [["Bo", "fkc"]]  # Ana's lines are gone from Bo's page, his own stay
        until(b, lambda d: d.find_element("id", "chat-muted").is_displayed() and said(d) == muted)
        type_line(a, "nadie me oye")
        until(a, lambda d: said(d)[-1:] == [["Ana", "nadie me oye"]])
        type_line(b, "quiet now")
        until(b, lambda d: said(d) == [["Bo", "fkc"], ["Bo", "quiet now"]])
        click_when(b, "#chat-muted .unmute")
        until(b, lambda d: [line[1] for line in said(d)][-2:] == ["nadie me oye", "quiet now"])
