"""``casino stud check``, the automatic tester, on players that behave like real students'
ones: each is scored exactly by the rubric of ``docs/stud.md``.

The rubric: a line's points are split evenly over the sessions that probe it (legality 4,
time 3 and closing 1 in each of the 10 sessions; logging in twice in session 1 only; each
"plays intelligently" line in its own session), and a session earns its share when every probe
of the line in it was answered, and answered right.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.clock import MonotonicClock
from casino.grade.studcli import main
from casino.programs import run_captured
from casino.stud.check import Checked, Limits, check_player
from casino.stud.report import FORMATS, text_report
from casino.stud.rubric import (
    CLOSES,
    CONNECTS,
    GROUPS,
    HOPELESS,
    LEGAL,
    LOGIN,
    POINTS,
    SPADE,
    THREE,
    TIMELY,
    UP_CARDS,
)

HERE = Path(__file__).parent
INTELLIGENCE = [THREE, HOPELESS, SPADE, UP_CARDS]
needs_jdk = pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("java") is None,
    reason="javac/java not found: the Java player test needs a JDK",
)


@pytest.fixture(scope="module", autouse=True)
def players_without_site() -> Iterator[None]:
    """The players started here run with ``-S`` (no ``site``: the virtual environment's
    editable install hooks cost a player 6 to 8 ms of CPU to start, and a check starts ten),
    and find casino on ``PYTHONPATH``: it needs nothing else. For the module (its
    module-scoped check too)."""
    paths = [str(HERE.parents[1]), *filter(None, [os.environ.get("PYTHONPATH")])]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(paths))
        yield


def misbehaving(fault: str) -> list[str]:
    return [sys.executable, "-S", str(HERE / "misbehaving.py"), "{host}", "{port}", fault]


def check(command: list[str], limits: Limits | None = None) -> Checked:
    return asyncio.run(check_player(command, MonotonicClock(), limits or Limits()))


def ours(strategy: str) -> list[str]:
    """A shipped strategy's player (``casino stud player … --strategy S --seed 1``, started
    without the command lines: see ``shipped.py``)."""
    return [sys.executable, "-S", str(HERE / "shipped.py"), "{host}", "{port}", strategy, "1"]


def scores(checked: Checked) -> dict[str, float]:
    return {result.name: result.points for result in checked.results}


def problems(checked: Checked, line: str) -> list[str]:
    return next(result.problems for result in checked.results if result.name == line)


def full_but(**lost: float) -> dict[str, float]:
    """Full marks but for the lines named (by their constant's name, lower case)."""
    names = {
        "connects": CONNECTS,
        "login": LOGIN,
        "legal": LEGAL,
        "timely": TIMELY,
        "closes": CLOSES,
        "three": THREE,
        "hopeless": HOPELESS,
        "spade": SPADE,
        "up_cards": UP_CARDS,
    }
    marks = dict(POINTS)
    for key, points in lost.items():
        marks[names[key]] = points
    return marks


def test_the_rubric_adds_up_and_splits_evenly() -> None:
    assert sum(POINTS.values()) == 180  # the seed's automatic lines: 15 + 35 + 70 + 40 + 20
    assert len(GROUPS) == 10
    for line in (LEGAL, TIMELY, CLOSES):
        assert all(line in group.lines for group in GROUPS)
    for line in (LOGIN, *INTELLIGENCE):
        assert sum(line in group.lines for group in GROUPS) == 1


def test_our_player_gets_full_marks_and_a_json_report(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    done = run_captured(
        main, ["check", "--bot", "ours", "--report", "json", "--report-file", str(target)]
    )
    assert done.status == 0, done.out
    verdicts = [line for line in done.out.splitlines() if line.startswith(("PASS", "FAIL"))]
    assert verdicts == [f"PASS [{points:g}/{points:g}] {name}" for name, points in POINTS.items()]
    assert done.out.endswith(f"score: 180/180\njson report: {target}\n")
    data = json.loads(target.read_text(encoding="utf-8"))
    assert (data["score"], data["max_score"], data["failed"]) == (180, 180, 0)


def test_a_player_that_logs_in_and_never_answers_scores_no_legality_and_no_time() -> None:
    # Every session: login answered, the first request never; the tester gives up after its
    # patience, says done, and the player leaves: 15 + 5 (login) + 10 (closes) = 30.
    checked = check(misbehaving("login-only"), Limits(patience=1.5))
    assert scores(checked) == full_but(legal=0, timely=0, three=0, hopeless=0, spade=0, up_cards=0)
    assert sum(scores(checked).values()) == 30
    for line in (LEGAL, TIMELY, *INTELLIGENCE):
        assert problems(checked, line) == ["not answered"]
    report = text_report(checked)
    assert (
        "session 3 of 10 (a stack that cannot match): no reply to "
        "'bet1:3:20:8:4C:9D:up:9D:JH:QS' within 1.5 s; 1 more request not asked\n" in report
    )
    assert report.endswith("score: 30/180\n")


def test_a_hang_up_at_the_second_login_costs_that_session_alone() -> None:
    # Session 1 is lost: login 5, and its shares of legality 5, time 4 and closing 1.
    checked = check(misbehaving("hang-up-at-second-login"))
    assert scores(checked) == full_but(login=0, legal=45, timely=36, closes=9)
    for line in (LOGIN, LEGAL, TIMELY, CLOSES):
        assert problems(checked, line) == ["not answered in session 1 (see below)"]
    report = text_report(checked)
    note = (
        "session 1 of 10 (login twice): the player hung up at the second 'login' "
        "(the connection was closed); 1 request not asked\n"
    )
    assert report.count("hung up") == 1 and note in report
    assert report.endswith("score: 165/180\n")


def test_a_bet_over_the_stack_at_the_7th_request_costs_one_legality_share() -> None:
    checked = check(misbehaving("over-stack-7th"))
    assert scores(checked) == full_but(legal=45)
    assert problems(checked, LEGAL) == [
        "session 6 of 10 (four hands in a row): sent "
        "'bet2:109:33:0:QS:QH:JD:up:3D:5H:QH:JD:8C:8D', got 'bet:110': "
        "the legal replies are from 0 to 10, or fold"
    ]


def crash_scores() -> dict[str, float]:
    # Sessions 1, 3 and 9 have no bet2: they earn their shares (legality 3 x 5, time 3 x 4,
    # closing 3 x 1) and the spade line; every other session ends at its first bet2.
    return full_but(legal=15, timely=12, closes=3, three=0, hopeless=0, up_cards=0)


CRASHED = [2, 4, 5, 6, 7, 8, 10]


def test_a_python_player_that_crashes_at_bet2_has_its_traceback_in_every_report() -> None:
    checked = check(misbehaving("crash-at-bet2"))
    assert scores(checked) == crash_scores()
    assert sum(scores(checked).values()) == 60
    assert problems(checked, LEGAL) == [
        "not answered in sessions 2, 4, 5, 6, 7, 8 and 10 (see below)"
    ]
    assert problems(checked, THREE) == ["not answered"]
    report = text_report(checked)
    bet2 = "bet2:90:6:0:QH:QD:QC:up:QD:QC:3S:8D:5H:JD"
    assert report.count(f"the player hung up at '{bet2}'") == 1
    assert report.count(f"RuntimeError: cannot read '{bet2}'") == 1
    assert report.count("Traceback (most recent call last):") == len(CRASHED)
    for kind, (formatter, _) in FORMATS.items():
        assert f"RuntimeError: cannot read '{bet2}'" in formatter(checked), kind
    three = next(
        case
        for case in json.loads(FORMATS["json"][0](checked))["transcripts"]
        if case["name"] == THREE
    )
    assert three["score"] == 0 and f"RuntimeError: cannot read '{bet2}'" in three["output"]
    assert "RuntimeError" not in next(
        case["output"]
        for case in json.loads(FORMATS["json"][0](checked))["transcripts"]
        if case["name"] == SPADE
    )


@needs_jdk
def test_a_java_player_that_crashes_at_bet2_has_its_stack_trace_shown(tmp_path: Path) -> None:
    source = HERE / "javabots" / "CrashAtBet2.java"
    subprocess.run(["javac", "-d", str(tmp_path), str(source)], check=True, timeout=120)
    checked = check(["java", "-cp", str(tmp_path), "CrashAtBet2", "{host}", "{port}"])
    assert scores(checked) == crash_scores()
    report = text_report(checked)
    trace = 'Exception in thread "main" java.lang.NumberFormatException: For input string: "up"'
    assert report.count(trace) == len(CRASHED)
    assert report.count("\tat CrashAtBet2.main(CrashAtBet2.java:") == len(CRASHED)
    suite = ET.fromstring(FORMATS["junit"][0](checked)).find("testsuite")
    assert suite is not None
    case = next(case for case in suite.iter("testcase") if case.get("name") == UP_CARDS)
    failure = case.find("failure")
    assert failure is not None and trace in (failure.text or "")


def test_a_player_slow_at_a_crowded_table_loses_that_session_s_time_share() -> None:
    checked = check(misbehaving("slow-crowd"))
    assert scores(checked) == full_but(timely=36)
    late = problems(checked, TIMELY)
    assert len(late) == 2
    assert all(
        line.startswith("session 5 of 10 (nine players): sent 'bet") and "over 1 s" in line
        for line in late
    )


def test_a_player_that_never_closes_loses_every_closing_share() -> None:
    checked = check(misbehaving("never-close"), Limits(close=0.5))
    assert scores(checked) == full_but(closes=0)
    assert problems(checked, CLOSES) == [
        f"session {n} of 10 ({group.name}): sent 'done:…': the socket was still open 0.5 s later"
        for n, group in enumerate(GROUPS, 1)
    ]


def test_a_stderr_flood_is_capped_as_the_harness_caps_it() -> None:
    checked = check(misbehaving("flood-stderr"))
    assert scores(checked) == POINTS
    report = text_report(checked)
    # 180,000 bytes written: 16,384 characters shown, the rest counted.
    assert report.count("\n    … 163616 more bytes\n") == len(GROUPS)
    first = json.loads(FORMATS["json"][0](checked))["transcripts"][0]
    assert first["name"] == CONNECTS and first["output"].count("… 163616 more bytes") == 10


@pytest.fixture(scope="module")
def always_call() -> Checked:
    return check(ours("always-call"))


def test_always_call_fails_exactly_the_intelligence_lines_each_failure_once(
    always_call: Checked,
) -> None:
    assert scores(always_call) == full_but(three=0, hopeless=0, spade=0, up_cards=0)
    assert problems(always_call, THREE) == [
        "session 7 of 10 (three of a kind): sent 'bet2:90:6:0:QH:QD:QC:up:QD:QC:3S:8D:5H:JD', "
        "got 'bet:0': expected a bet above 0 with three queens (3 times)"
    ]
    report = text_report(always_call)
    assert report.count("got 'bet:0': expected a bet above 0 with three queens") == 1


def test_reports_through_the_harness_writers(always_call: Checked) -> None:
    data = json.loads(FORMATS["json"][0](always_call))
    assert (data["score"], data["max_score"], data["failed"]) == (120, 180, 4)
    assert {t["status"] for t in data["transcripts"]} == {"pass", "fail"}
    grades = json.loads(FORMATS["gradescope"][0](always_call))
    assert grades["score"] == 120
    spade = next(t for t in grades["tests"] if t["name"] == SPADE)
    assert spade["status"] == "failed" and "got 'bet:0'" in spade["output"]
    suite = ET.fromstring(FORMATS["junit"][0](always_call)).find("testsuite")
    assert suite is not None and suite.get("failures") == "4"
    failure = suite.find(f"testcase[@name='{THREE}']/failure")
    assert failure is not None
    assert "sent 'bet2:90:6:0:QH:QD:QC:up:QD:QC:3S:8D:5H:JD', got 'bet:0'" in (
        failure.get("message") or ""
    )


def test_pair_or_fold_misses_the_spade_and_the_up_cards() -> None:
    assert scores(check(ours("pair-or-fold"))) == full_but(spade=0, up_cards=0)


def test_random_legal_is_legal_and_timely_but_not_intelligent() -> None:
    marks = scores(check(ours("random-legal")))
    assert [marks[line] for line in (CONNECTS, LOGIN, LEGAL, TIMELY, CLOSES)] == [
        15,
        5,
        50,
        40,
        10,
    ]
    assert any(marks[line] < POINTS[line] for line in INTELLIGENCE)


def test_a_command_that_never_connects_fails_everything_cleanly() -> None:
    done = run_captured(main, ["check", "--bot", f"{sys.executable} -c pass"])
    assert done.status == 1
    assert (
        "FAIL [0/15] connects to the dealer\n"
        "  session 1 of 10 (login twice): the player exited with status 0 without connecting\n"
        in done.out
    )
    assert (
        "session 2 of 10 (the seed's examples): not run: the player did not connect in session 1\n"
        in done.out
    )
    assert done.out.endswith("score: 0/180\n")


def test_the_jvm_line_about_the_sandbox_s_options_is_left_out_of_the_stderr_shown() -> None:
    """A JVM prints ``Picked up JAVA_TOOL_OPTIONS: …`` for the options the sandbox gives it:
    the sandbox's doing, not the player's, so no feedback shows it; what else the player wrote
    is shown."""
    script = (
        "import sys; sys.stderr.write('Picked up JAVA_TOOL_OPTIONS: -Xmx64m -Xss1m\\n"
        "Exception in thread main: no dealer\\n'); sys.exit(1)"
    )
    done = run_captured(main, ["check", "--bot", shlex.join([sys.executable, "-c", script])])
    assert done.status == 1
    assert "  stderr:\n    Exception in thread main: no dealer\n" in done.out
    assert "JAVA_TOOL_OPTIONS" not in done.out


def test_an_unknown_program_is_one_line(tmp_path: Path) -> None:
    done = run_captured(main, ["check", "--bot", str(tmp_path / "nope") + " {host} {port}"])
    assert done.status == 1
    assert done.err.startswith("stud check: cannot run ") and done.err.count("\n") == 1
