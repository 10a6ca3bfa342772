"""``casino stud …`` as a user runs it: a tournament and a dealer with players, all on
127.0.0.1 and bounded in time (the automatic tester is in ``test_check.py``)."""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from casino.grade.studcli import main
from casino.programs import run_captured
from casino.stud import tournament


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
            "--host",
            "127.0.0.1",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert dealer.stdout is not None
        first = dealer.stdout.readline()
        assert first.startswith("dealer listening on 127.0.0.1:")
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


def test_a_busy_port_is_one_line_and_status_1() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_captured(main, ["dealer", "--port", str(port), "--players", "2"])
    assert done.status == 1
    assert done.err == f"stud dealer: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert done.out == ""


def test_the_dealer_listens_on_the_host_it_is_given() -> None:
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: the bind itself must fail, which
    # shows the host reaches it (no name lookup, nothing leaves the machine).
    done = run_captured(main, ["dealer", "--port", "0", "--players", "2", "--host", "192.0.2.1"])
    assert done.status == 1
    assert done.err == (
        "stud dealer: cannot listen on 192.0.2.1:0: Cannot assign requested address\n"
    )


def test_a_bot_that_cannot_run_in_a_tournament_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    done = run_captured(
        main, ["tournament", "--bot", "ours", "--bot", f"{missing} {{host}} {{port}}"]
    )
    assert done.status == 1
    assert done.err.startswith(f"stud tournament: cannot run {missing} 127.0.0.1 ")
    assert done.err.endswith(": No such file or directory\n") and done.err.count("\n") == 1


def test_a_tournament_whose_dealer_cannot_listen_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def cannot_listen(*args: object) -> list[object]:
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    monkeypatch.setattr(tournament, "run_dealer", cannot_listen)
    done = run_captured(main, ["tournament", "--bot", "ours", "--bot", "ours"])
    assert done.status == 1
    assert (
        done.err
        == "stud tournament: the dealer cannot listen on 127.0.0.1:0: Too many open files\n"
    )


def test_a_table_deals_to_seventeen_players_at_most() -> None:
    done = run_captured(main, ["dealer", "--port", "0", "--players", "18"])
    assert done.status == 2
    assert done.err.startswith("stud dealer: --players must be from 2 to 17 (52 cards, 3 each)")
    done = run_captured(main, ["tournament", *["--bot", "ours"] * 18])
    assert done.status == 2
    assert "give from 2 to 17 --bot (52 cards, 3 each)" in done.err


def test_the_games_own_subcommands_leave_a_class_to_the_grading_side() -> None:
    """``casino stud`` is the game's subcommands plus the grading side's (``check``, a class's
    Casino Day): the game's table alone has no ``check`` and refuses a class in one line."""
    from casino.programs import load_main
    from casino.stud.cli import SUBCOMMANDS, program

    game = program(SUBCOMMANDS)
    refused = run_captured(game, ["tournament", "subs", "--run", "p {host} {port}"])
    assert (refused.status, refused.out) == (2, "")
    assert refused.err == (
        "stud tournament: a class's Casino Day is the grading side's (casino.grade.studcli) "
        "(see stud tournament --help)\n"
    )
    no_check = run_captured(game, ["check"])
    assert no_check.err.startswith("stud: expected one of dealer, player, tournament, got")
    assert load_main("stud") is main
    assert run_captured(main, ["nope"]).err.startswith(
        "stud: expected one of dealer, player, tournament, check, got 'nope'"
    )
