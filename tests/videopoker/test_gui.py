"""The window, on a virtual screen: a hand played by synthetic clicks, and a screenshot.

Xvfb is started for the test on a display it picks itself (``-displayfd``); the test skips,
saying why, only where no Xvfb (or no ``xwd`` to take the screenshot) is installed.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("tkinter", reason="this Python was built without tkinter")

import tkinter as tk

from casino.videopoker.commands import outcome_message
from casino.videopoker.gui import VideoPokerWindow
from casino.videopoker.paytable import classify
from casino.videopoker.strategy import advise

from .screenshots import save_png


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A fresh virtual X display, stopped after the tests."""
    for tool, package in (("Xvfb", "xvfb"), ("xwd", "x11-apps")):
        if shutil.which(tool) is None:
            pytest.skip(
                f"no display server here: {tool} is not installed (apt-get install {package})"
            )
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "640x600x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(write_end)
    number = b""
    while not number.endswith(b"\n"):
        part = os.read(read_end, 16)  # Xvfb writes its display number once it is ready
        if not part:
            break
        number += part
    os.close(read_end)
    if not number.strip():
        server.kill()
        reason = server.communicate()[1].decode(errors="replace").strip().splitlines()[-1:]
        pytest.skip(f"Xvfb could not start a display: {' '.join(reason)}")
    try:
        yield f":{number.decode().strip()}"
    finally:
        server.terminate()
        server.wait()


@pytest.fixture
def window(display: str) -> Iterator[VideoPokerWindow]:
    root = tk.Tk(screenName=display)
    root.geometry("+0+0")
    app = VideoPokerWindow(root, rng=random.Random(2016), credit=1000)
    root.update()
    try:
        yield app
    finally:
        root.destroy()


def click(widget: tk.Widget) -> None:
    widget.event_generate("<Button-1>", x=10, y=10)
    widget.update()


def test_a_hand_played_by_clicks(window: VideoPokerWindow, display: str, tmp_path: Path) -> None:
    window.bet_buttons[2].invoke()  # bet 3
    window.deal_button.invoke()
    machine = window.machine
    dealt = machine.hand
    assert machine.credit == 997 and window.deal_button.cget("text") == "Draw"
    assert window.message.get() == "player's hand " + " ".join(map(str, dealt))

    window.advice_button.invoke()
    assert window.held == set(advise(dealt).held)
    for view in window.cards:  # release everything, then hold cards 1 and 4 by clicking
        if view.held:
            click(view.canvas)
    click(window.cards[0].canvas)
    click(window.cards[3].canvas)
    assert [view.held for view in window.cards] == [True, False, False, True, False]

    window.root.update()
    shot = tmp_path / "videopoker-gui.png"
    xwd = tmp_path / "screen.xwd"
    subprocess.run(["xwd", "-root", "-silent", "-display", display, "-out", str(xwd)], check=True)
    assert save_png(xwd, shot) == (640, 600)
    if os.environ.get("CASINO_SCREENSHOT_DIR"):
        shutil.copy(shot, Path(os.environ["CASINO_SCREENSHOT_DIR"]) / shot.name)

    window.deal_button.invoke()
    final, outcome = machine.hand, window.last_outcome
    assert outcome is not None and outcome.hand == final
    assert (final[0], final[3]) == (dealt[0], dealt[3])
    assert outcome.payout == machine.table.payout(classify(final), 3)
    assert machine.credit == 997 + outcome.payout
    assert window.message.get() == outcome_message(outcome)
    assert window.credit_text.get() == f"Credit {machine.credit}"
    assert window.deal_button.cget("text") == "Deal"
    assert window.stats_view.cget("text").splitlines()[-2].split() == ["Total", "1"]


def test_keys_and_a_new_game(window: VideoPokerWindow) -> None:
    root = window.root
    root.focus_force()
    window.bet_buttons[0].invoke()
    window.deal_or_draw()
    for key in ("1", "3", "3", "5"):
        root.event_generate(key)  # a key held and released again does nothing net
    root.update()
    assert window.held == {0, 4}
    window.new_game()  # refused during a hand
    assert window.machine.stats.deals == 0
    window.deal_or_draw()
    window.start_credit.set("25")
    window.new_game()
    assert window.machine.credit == 25 and window.machine.stats.deals == 0
    window.start_credit.set("zero")
    window.new_game()
    assert window.machine.credit == 25
    assert window.message.get().startswith("The starting credit must be")


def test_without_a_display_the_window_is_one_line_and_status_1() -> None:
    """In a fresh process: Tk remembers a display it has opened in this one."""
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    command = [sys.executable, "-m", "casino.videopoker", "-g", "--seed", "1"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert (
        done.stderr.startswith("videopoker: cannot open a window") and done.stderr.count("\n") == 1
    )


def window_shown(display: str) -> bool:
    """Whether a video poker window is on ``display``, as ``xwininfo`` (x11-utils) reads the
    window tree: a query that sends the window no event (a Tk probe would: its registry
    changes wake every Tk application)."""
    tree = subprocess.run(
        ["xwininfo", "-root", "-tree", "-display", display],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    return '"Video poker - ' in tree


def idle(pid: int, looks: int = 5) -> bool:
    """Whether process ``pid``'s main thread is asleep (``S`` in ``/proc/PID/stat``) at each of
    ``looks`` looks in a row: done with the window's first events, it waits for the next."""
    for _ in range(looks):
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            if stat.read().rpartition(")")[2].split()[0] != "S":
                return False
        time.sleep(0.02)
    return True


@pytest.mark.parametrize(
    ("signum", "status", "said"),
    [
        (signal.SIGTERM, 143, "stopped by SIGTERM"),
        (signal.SIGINT, 130, "interrupted"),
        (signal.SIGHUP, 129, "stopped by SIGHUP"),
    ],
)
def test_the_window_answers_a_signal_without_an_x_event(
    display: str, signum: int, status: int, said: str
) -> None:
    """The window open and idle (no X event will come on this virtual screen): a signal ends
    it with the contract's line and status (before, Tk's wait held it until the next X
    event). The test waits for the window, sends the signal, and waits for the end: no
    timing is asserted (the bound only ends a test that would otherwise hang).

    One test at a time on the module's display: no other window opens meanwhile."""
    if shutil.which("xwininfo") is None:
        pytest.skip("xwininfo is not installed (apt-get install x11-utils)")
    env = dict(os.environ, DISPLAY=display)
    command = [sys.executable, "-m", "casino.videopoker", "-g", "--seed", "1"]
    with subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True) as program:
        deadline = time.monotonic() + 120
        while not (window_shown(display) and idle(program.pid)):
            assert program.poll() is None, program.communicate()
            assert time.monotonic() < deadline, "the window never opened and went idle"
            time.sleep(0.05)
        program.send_signal(signum)
        _, err = program.communicate(timeout=120)
    assert (program.returncode, err) == (status, f"videopoker: {said}\n")
