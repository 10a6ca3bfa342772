"""``casino stud …`` as a user runs it: the automatic tester's marks, the reports, a
tournament and a dealer with players, all on 127.0.0.1 and bounded in time."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from casino.programs import run_captured
from casino.stud.check import POINTS
from casino.stud.cli import main

HERE = Path(__file__).parent
INTELLIGENCE = [
    "bets with three of a kind",
    "folds a hopeless hand against a pair of aces",
    "values a high spade in the hole",
    "uses the other players' up cards",
]


def check(bot: str, *extra: str) -> tuple[int, dict[str, str]]:
    """Exit status and each rubric line's verdict (``PASS [15/15]`` …)."""
    done = run_captured(main, ["check", "--bot", bot, *extra])
    verdicts = {}
    for line in done.out.splitlines():
        if line.startswith(("PASS", "FAIL")):
            status, marks, name = line.split(" ", 2)
            verdicts[name] = f"{status} {marks}"
    return done.status, verdicts


def misbehaving(fault: str) -> str:
    return f"{sys.executable} {HERE / 'misbehaving.py'} {{host}} {{port}} {fault}"


def test_our_player_gets_full_marks() -> None:
    status, verdicts = check("ours")
    assert status == 0
    assert verdicts == {name: f"PASS [{points:g}/{points:g}]" for name, points in POINTS.items()}


def test_always_call_fails_exactly_the_intelligence_lines() -> None:
    status, verdicts = check("always-call")
    assert status == 1
    failed = [name for name, verdict in verdicts.items() if verdict.startswith("FAIL")]
    assert failed == INTELLIGENCE


def test_pair_or_fold_misses_the_spade_and_the_up_cards() -> None:
    _, verdicts = check("pair-or-fold")
    failed = [name for name, verdict in verdicts.items() if verdict.startswith("FAIL")]
    assert failed == ["values a high spade in the hole", "uses the other players' up cards"]


def test_random_legal_is_legal_and_timely_but_not_intelligent() -> None:
    _, verdicts = check("random-legal")
    rules = [name for name in POINTS if name not in INTELLIGENCE]
    assert all(verdicts[name].startswith("PASS") for name in rules)
    assert any(verdicts[name].startswith("FAIL") for name in INTELLIGENCE)


def test_a_player_that_sleeps_2_s_fails_the_time_limit() -> None:
    done = run_captured(main, ["check", "--bot", misbehaving("sleepy")])
    assert "FAIL [0/30] every reply within 1 s" in done.out
    assert "the reply 'bet:0' took 2." in done.out and "over 1 s" in done.out
    assert "PASS [40/40] every reply is legal" in done.out


def test_a_player_that_never_closes_fails_that_line() -> None:
    _, verdicts = check(misbehaving("never-close"))
    assert verdicts["closes the socket after done"] == "FAIL [0/10]"
    assert verdicts["every reply within 1 s"] == "PASS [30/30]"


def test_a_command_that_never_connects_fails_everything_cleanly() -> None:
    done = run_captured(main, ["check", "--bot", f"{sys.executable} -c pass"])
    assert done.status == 1
    assert (
        "FAIL [0/15] connects to the dealer\n  the player exited with status 0 without connecting"
        in done.out
    )
    assert "score: 0/165" in done.out


def test_an_unknown_program_is_one_line(tmp_path: Path) -> None:
    done = run_captured(main, ["check", "--bot", str(tmp_path / "nope") + " {host} {port}"])
    assert done.status == 1
    assert done.err.startswith("stud check: cannot run ") and done.err.count("\n") == 1


@pytest.mark.parametrize("kind", ["json", "junit", "gradescope"])
def test_reports(kind: str, tmp_path: Path) -> None:
    target = tmp_path / "report"
    done = run_captured(
        main, ["check", "--bot", "always-call", "--report", kind, "--report-file", str(target)]
    )
    assert f"{kind} report: {target}" in done.out
    text = target.read_text(encoding="utf-8")
    if kind == "junit":
        suite = ET.fromstring(text).find("testsuite")
        assert suite is not None and suite.get("failures") == "4"
        failure = suite.find("testcase[@name='bets with three of a kind']/failure")
        assert failure is not None
        assert "sent 'bet2:90:6:0:QH:QD:QC:up:QD:QC:3S:8D:5H:JD', got 'bet:0'" in (
            failure.get("message") or ""
        )
        return
    data = json.loads(text)
    if kind == "json":
        assert (data["score"], data["max_score"], data["failed"]) == (105, 165, 4)
        assert {t["status"] for t in data["transcripts"]} == {"pass", "fail"}
    else:
        assert data["score"] == 105
        spade = next(t for t in data["tests"] if t["name"] == "values a high spade in the hole")
        assert spade["status"] == "failed" and "got 'bet:0'" in spade["output"]


def test_tournament_on_loopback() -> None:
    done = run_captured(
        main,
        [
            "tournament",
            "--bot",
            "ours",
            "--bot",
            "always-call",
            "--bot",
            "pair-or-fold",
            "--hands",
            "200",
            "--seed",
            "5",
        ],
    )
    assert done.status == 0, done.err
    lines = done.out.splitlines()
    assert lines[0] == "final ranking:"
    assert sorted(line.split()[1] for line in lines[1:]) == [
        "always-call-1",
        "ours-0",
        "pair-or-fold-2",
    ]
    assert sum(int(line.split()[2]) for line in lines[1:]) == 300


def test_dealer_and_players_as_processes(tmp_path: Path) -> None:
    history = tmp_path / "hands.jsonl"
    casino = [sys.executable, "-m", "casino", "stud"]
    dealer = subprocess.Popen(
        [
            *casino,
            "dealer",
            "--port",
            "0",
            "--players",
            "2",
            "--hands",
            "30",
            "--seed",
            "2",
            "--history",
            str(history),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert dealer.stdout is not None
        first = dealer.stdout.readline()
        port = first.split("127.0.0.1:")[1].split(",")[0]
        players = [
            subprocess.run(
                [*casino, "player", "127.0.0.1", port, "--avatar", name],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            if index
            else subprocess.Popen(
                [*casino, "player", "127.0.0.1", port, "--strategy", "always-call"],
                stdout=subprocess.PIPE,
                text=True,
            )
            for index, name in enumerate(["Caller", "Ünïcødé 😀"])
        ]
        out, _ = dealer.communicate(timeout=60)
    finally:
        dealer.kill()
    assert dealer.returncode == 0
    assert "Ünïcødé 😀 sits down" in first + out
    assert "final ranking:" in out
    hands = [json.loads(line) for line in history.read_text(encoding="utf-8").splitlines()]
    assert [hand["hand"] for hand in hands] == list(range(1, len(hands) + 1))
    assert all(sum(hand["stacks"].values()) == 200 for hand in hands)
    for player in players:
        if isinstance(player, subprocess.Popen):
            assert player.wait(timeout=30) == 0
        else:
            assert player.returncode == 0 and player.stdout.startswith("done: ")


def test_usage_errors_are_one_line() -> None:
    for argv in (["dealer", "--port", "x", "--players", "2"], ["player"], ["check"], ["nope"], []):
        done = run_captured(main, argv)
        assert done.status == 2
        assert done.err.count("\n") == 1 and "Traceback" not in done.err


def test_player_cannot_connect_is_one_line() -> None:
    done = run_captured(main, ["player", "127.0.0.1", "1"])
    assert done.status == 1
    assert done.err == "stud player: cannot connect to 127.0.0.1:1: Connection refused\n"
