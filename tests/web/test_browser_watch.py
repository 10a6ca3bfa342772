"""A member watches a Hold'em table from the lobby's "Watch" link in headless Chromium (a
phone's size), sees no hole card face up before a showdown, is counted on the player's page,
then takes a free seat and plays from the next hand. A real ``casino web`` process; every
wait is bounded."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .browser import PHONE, casino_web, click_when, emulate, join, register
from .tables import LIMIT, POLL, audit, wait_for

PAGE = """
return {hand: Number(document.body.dataset.hand || 0),
  winner: document.getElementById('winner').textContent,
  faceup: document.querySelectorAll('#seats .card:not(.back)').length,
  mine: document.querySelectorAll('#seats .seat.you .card:not(.back)').length,
  you: document.querySelectorAll('#seats .seat.you').length,
  turn: document.getElementById('turn').textContent,
  watchers: document.getElementById('watchers').hidden ? ''
    : document.getElementById('watchers').textContent,
  sitout: !document.getElementById('sit-out').hidden,
  take: document.querySelectorAll('#take-seat').length};
"""


def test_a_member_watches_from_the_lobby_sees_no_hole_card_then_takes_a_seat(
    browsers: Callable[[], Any],
) -> None:
    zoe, wes = browsers(), browsers()
    emulate(zoe, PHONE)
    emulate(wes, PHONE)
    args = ("--seats", "3", "--seed", "5", "--think", "0.05", "--pause", "0.5", "--timeout", "1")
    with casino_web(*args) as url:  # Zoe never acts: her turns time out, the hands go on
        join(zoe, url, "Zoe", "en", "holdem")
        wait_for(zoe, PAGE, lambda v: v["hand"] >= 1)
        register(wes, url, "Wes", "es")
        click_when(wes, "#watch-1")
        first = wait_for(wes, PAGE, lambda v: v["hand"] >= 1 and bool(v["take"]))
        assert first["turn"].startswith("Estás mirando la mesa 1") and not first["sitout"]
        assert audit(wes) == []  # the watch page: its take-a-seat link, its count
        assert wait_for(zoe, PAGE, lambda v: bool(v["watchers"]))["watchers"] == "1 watching"
        end = time.monotonic() + LIMIT
        looks = 0
        while True:  # no face-up hole card but at a hand's end, for two more hands
            view = wait_for(wes, PAGE, lambda v: True)
            assert view["you"] == 0 and view["watchers"] == "1 mirando"
            assert view["faceup"] == 0 or view["winner"], view
            looks += 1
            if view["hand"] >= first["hand"] + 2 and looks > 5:
                break
            assert time.monotonic() < end, "the table dealt no more hands"
            time.sleep(POLL)
        click_when(wes, "#take-seat")
        seated = wait_for(wes, PAGE, lambda v: v["you"] == 1 and v["mine"] == 2)
        assert seated["sitout"] and not seated["take"] and seated["watchers"] == ""
        assert wait_for(zoe, PAGE, lambda v: not v["watchers"])["watchers"] == ""
