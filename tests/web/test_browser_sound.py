"""The tables' sound cues in headless Chromium (``casino/web/static/sound.js``): the top bar's
toggle (a real button, ``aria-pressed``, off by default, the choice kept in localStorage), and
the cues the page asks for at the right moments: the member's turn once per turn, a hand they
won, their time's last 5 seconds (the clock run out, the time bank nearly spent), and nothing
played before a gesture on the page (a reloaded page with sounds on makes no AudioContext
until the member clicks). The page's test hook (localStorage ``casino.cues`` = ``record``)
keeps every cue asked in ``window.__casinoCues``; a spy on ``AudioContext`` counts the tones
really started. A real ``casino web`` process, real time (an 8-second clock); every wait is
bounded."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .browser import casino_web, clean, click_if, click_when, register
from .tables import DOMINO, HOLDEM, LIMIT, POLL, check_or_call, state, wait_for

SPY = """
// Counts the AudioContexts made and the tones started by the page (a real AudioContext still).
window.__contexts = 0;
window.__tones = 0;
window.AudioContext = class extends AudioContext {
  constructor() { super(); window.__contexts += 1; }
  createOscillator() {
    const tone = super.createOscillator();
    const start = tone.start.bind(tone);
    tone.start = (...when) => { window.__tones += 1; return start(...when); };
    return tone;
  }
};
"""
SOUND = """
const clock = document.querySelector('.seat.you .seconds');
const ticking = clock && !clock.hidden && clock.textContent;
return {cues: window.__casinoCues || null, pressed: document.getElementById('sound').ariaPressed,
  kept: localStorage.getItem('casino.sound'), context: soundContext !== null,
  contexts: window.__contexts, tones: window.__tones,
  left: ticking ? Number(clock.dataset.left) + Number(clock.dataset.bank) : null};
"""
TONES = {"turn": 2, "late": 2, "won": 3}
"""The tones of each cue (sound.js's CUES)."""
OPTIONS = ("--seats", "3", "--seed", "1", "--think", "0.05", "--pause", "1")
CLOCKS = ("--timeout", "8", "--time-bank", "10")


def sound(driver: Any) -> dict[str, Any]:
    """The toggle, the kept choice, the cues asked and the spy's counts now."""
    found: dict[str, Any] = driver.execute_script(SOUND)
    return found


def cue(name: str, played: bool) -> dict[str, Any]:
    """A cue as the page records it."""
    return {"cue": name, "played": played}


def test_the_toggle_and_the_cues_at_the_members_moments(browsers: Callable[[], Any]) -> None:
    driver = browsers()
    with casino_web(*OPTIONS, *CLOCKS) as url:
        register(driver, url, "Zoe", "es")
        driver.execute_script("localStorage.setItem('casino.cues', 'record')")  # the test hook
        click_when(driver, "#sit")
        view = wait_for(driver, HOLDEM, lambda v: bool(v["buttons"]))
        heard = sound(driver)
        assert heard["pressed"] == "false" and heard["kept"] is None  # off by default
        assert heard["cues"] == [cue("turn", False)] and not heard["context"]
        toggle = driver.find_element("id", "sound")
        assert toggle.tag_name == "button" and toggle.get_attribute("aria-label") == "Sonidos"
        driver.execute_script(SPY)
        click_when(driver, "#sound")  # on: the AudioContext made in the click
        heard = sound(driver)
        assert (heard["pressed"], heard["kept"], heard["contexts"]) == ("true", "on", 1)
        assert heard["cues"] == [cue("turn", False)] and heard["tones"] == 0  # not again

        # Checked and called to the showdown of hand 1: a cue at each turn, none between.
        hand, turns = view["hand"], 1
        while not view["winner"]:
            check_or_call(driver, view)
            view = wait_for(driver, HOLDEM, lambda v: bool(v["winner"] or v["buttons"]))
            if view["buttons"] and not view["winner"]:
                turns += 1
                assert sound(driver)["cues"][-1] == cue("turn", True)
        assert view["hand"] == hand and "Zoe gana" in view["winner"], view["winner"]
        heard = sound(driver)
        expected = [cue("turn", False)] + [cue("turn", True)] * (turns - 1)
        assert heard["cues"] == [*expected, cue("won", True)]
        assert heard["tones"] == TONES["turn"] * (turns - 1) + TONES["won"]

        # The next turn let run: the clock (8 s), then the bank (10 s); the late cue once
        # the member's time left is 5 s, not before.
        wait_for(driver, HOLDEM, lambda v: v["hand"] > hand and bool(v["buttons"]))
        seen = len(sound(driver)["cues"])
        end = time.monotonic() + LIMIT
        while time.monotonic() < end:
            heard = sound(driver)
            late = [c for c in heard["cues"][seen:] if c["cue"] == "late"]
            if heard["left"] is not None and heard["left"] > 6:
                assert late == [], heard
            if heard["left"] is not None and heard["left"] <= 4:
                assert late == [cue("late", True)], heard
                break
            time.sleep(POLL)
        else:
            raise AssertionError(f"the time bank never ran low: {sound(driver)}")
        assert heard["cues"][seen - 1 :] == [cue("turn", True), cue("late", True)]

        # A new page with sounds on, at the next hand: nothing plays before a gesture.
        late_hand = state(driver, HOLDEM)["hand"]
        wait_for(driver, HOLDEM, lambda v: v["hand"] > late_hand and bool(v["buttons"]))
        driver.refresh()
        wait_for(driver, HOLDEM, lambda v: bool(v["buttons"]))
        heard = sound(driver)
        assert heard["pressed"] == "true"  # the choice kept
        assert heard["cues"] == [cue("turn", False)] and not heard["context"]
        driver.execute_script(SPY)
        click_when(driver, "#turn")  # any click on the page: a gesture
        assert sound(driver)["contexts"] == 1
        view = state(driver, HOLDEM)
        verb = "check" if "check" in view["buttons"] else "call"
        click_when(driver, f'#buttons [data-verb="{verb}"]')
        view = wait_for(driver, HOLDEM, lambda v: len(sound(driver)["cues"]) > 1)
        assert sound(driver)["cues"][1]["played"] is True

        click_when(driver, "#sound")  # off again, and kept so
        heard = sound(driver)
        assert (heard["pressed"], heard["kept"]) == ("false", "off")


def test_the_dominoes_cues(browsers: Callable[[], Any]) -> None:
    """The dominoes page has the same toggle and asks for the turn cue once per move of the
    member: played once sounds are on, never for the computer's moves."""
    driver = browsers()
    with casino_web("--seed", "7", "--think", "0.05", "--move-seconds", "600") as url:
        register(driver, url, "Zoe", "en")
        driver.execute_script("localStorage.setItem('casino.cues', 'record')")
        click_when(driver, "#dominoes")
        wait_for(driver, DOMINO, lambda v: v["overlay"])
        click_when(driver, "#next", lambda: bool(state(driver, DOMINO)["overlay"]))
        wait_for(driver, DOMINO, lambda v: v["turn"] == "you")
        assert sound(driver)["cues"] == [cue("turn", False)]
        assert driver.find_element("id", "sound").get_attribute("aria-label") == "Sounds"
        driver.execute_script(SPY)
        click_when(driver, "#sound")
        moves = 0
        while moves < 3 and not state(driver, DOMINO)["overlay"]:
            log = state(driver, DOMINO)["log"]
            end = time.monotonic() + LIMIT
            while state(driver, DOMINO)["log"] == log:  # a tile (and an end), or a button
                assert time.monotonic() < end, state(driver, DOMINO)
                click_if(driver, ".ends .target, #hand .playable, #buttons button")
                time.sleep(POLL)
            moves += 1
            wait_for(driver, DOMINO, lambda v: v["overlay"] or v["turn"] == "you")
        heard = sound(driver)
        turns = [c for c in heard["cues"] if c["cue"] == "turn"]
        if not state(driver, DOMINO)["overlay"]:
            assert turns == [cue("turn", False)] + [cue("turn", True)] * moves, heard
        assert heard["tones"] == sum(TONES[c["cue"]] for c in heard["cues"] if c["played"])


def test_a_browser_taken_back_keeps_no_sound_choice(browsers: Callable[[], Any]) -> None:
    """A browser lent again (:func:`.browser.clean`) has no web storage left: the sound choice
    and the cues' hook one test kept are not the next test's, even where its server has the
    same port (the same origin)."""
    driver = browsers()
    with casino_web(*OPTIONS) as url:
        register(driver, url, "Zoe", "en")
        driver.execute_script("localStorage.setItem('casino.sound', 'on')")
        driver.switch_to.new_window("tab")  # a second tab, closed by the cleaning
        driver.get(url + "?lang=es")
        driver.execute_script("localStorage.setItem('casino.cues', 'record')")
        assert driver.execute_script("return localStorage.length") == 2
        clean(driver)
        assert len(driver.window_handles) == 1
        driver.get(url)
        assert driver.execute_script("return localStorage.length") == 0
