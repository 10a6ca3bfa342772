"""What the dealer shows: standings, the plain log, the throttled live screen, history."""

from __future__ import annotations

import io
import json

from casino.clock import FakeClock
from casino.stud.dealer import Seat
from casino.stud.screen import CLEAR, HistoryWriter, LiveScreen, LogObserver, standings

from .helpers import play, scripted, table


def _seats() -> list[Seat]:
    played, _ = table([scripted([]), scripted([])])
    played.seats[0].stack, played.seats[1].stack = 40, 160
    played.seats[0].left = "illegal bet 99"
    return played.seats


def test_standings_best_first_with_why_players_left() -> None:
    assert standings(_seats()) == [
        "  #  player   stack",
        "  1  P1         160",
        "  2  P0          40  out: illegal bet 99",
    ]


def test_log_and_history_one_line_per_hand() -> None:
    log, history = io.StringIO(), io.StringIO()
    record = {"hand": 3, "pot": 7, "payouts": {"1": 7}}
    LogObserver(log).hand_over(record, _seats())
    HistoryWriter(history).hand_over(record, _seats())
    assert log.getvalue() == "hand 3: pot 7: P1 +7\n"
    assert json.loads(history.getvalue()) == record


def test_live_screen_redraws_at_most_every_interval() -> None:
    out, clock = io.StringIO(), FakeClock()
    screen = LiveScreen(out, clock, interval=0.25)
    screen.event("P0 leaves: illegal bet 99")
    for hand in range(1, 4):
        screen.hand_over({"hand": hand, "pot": 2, "payouts": {}}, _seats())
    assert out.getvalue().count(CLEAR) == 1
    clock.advance(0.3)
    screen.hand_over({"hand": 4, "pot": 2, "payouts": {}}, _seats())
    frames = out.getvalue().split(CLEAR)
    assert len(frames) == 3
    assert frames[2].startswith("three-card stud — hand 4\n")
    assert frames[2].endswith("P0 leaves: illegal bet 99\n")


def test_a_real_game_logged_plainly() -> None:
    out = io.StringIO()
    played, _ = table([scripted(["bet:0"] * 9), scripted(["bet:0"] * 9)], hands=3)
    played.observer = LogObserver(out)
    play(played)
    assert [line.split(":")[0] for line in out.getvalue().splitlines()] == [
        "hand 1",
        "hand 2",
        "hand 3",
    ]
