"""The nimsys command line: options, bad usage in one line, real processes and pipes."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from casino.programs import command_line, load_main

from .helpers import nimsys

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--stage", "d"],
            "nimsys: argument --stage: invalid choice: 'd' (choose from 'a', 'b', 'c')"
            " (see nimsys --help)\n",
        ),
        (["--seed", "x"], "nimsys: argument --seed: not a whole number: 'x' (see nimsys --help)\n"),
        (["extra"], "nimsys: unrecognized arguments: extra (see nimsys --help)\n"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(args: list[str], message: str) -> None:
    run = nimsys("exit\n", *args)
    assert (run.status, run.out, run.err) == (2, "", message)


def test_help_goes_to_the_given_stdout() -> None:
    run = nimsys("", "--help")
    assert run.status == 0
    assert run.out.startswith("usage: nimsys [-h] [--stage {a,b,c}] [--seed N]\n")


def test_help_lists_the_commands_and_their_syntax() -> None:
    out = nimsys("", "--help").out
    assert "\ncommands (Projects B and C), one per line at the $ prompt:\n" in out
    for usage in [
        "addplayer username,family_name,given_name",
        "addaiplayer username,family_name,given_name",
        "removeplayer [username]",
        "editplayer username,family_name,given_name",
        "resetstats [username]",
        "displayplayer [username]",
        "rankings [asc|desc]",
        "startgame initialstones,upperbound,username1,username2",
        "startadvancedgame initialstones,username1,username2",
        "exit",
    ]:
        assert f"\n  {usage}\n      " in out


def test_help_through_casino_names_casino_nimsys() -> None:
    from casino.__main__ import main as casino_main

    out = io.StringIO()
    assert casino_main(["nimsys", "--help"], stdout=out) == 0
    assert out.getvalue().startswith("usage: casino nimsys [-h]")
    assert "startadvancedgame initialstones,username1,username2" in out.getvalue()


def test_registered_as_nimsys() -> None:
    from casino.nim.cli import main

    assert load_main("nimsys") is main
    assert command_line("nimsys")[1:] == ["-P", "-m", "casino.nimsys"]


def _process(args: list[str], data: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "casino.nimsys", *args],
        input=data,
        capture_output=True,
        cwd=cwd,
        env=env,
        check=False,
    )


def test_a_real_process_with_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    done = _process([], b"addplayer \xff\xfe,A,B\ndisplayplayer\nexit\n", tmp_path)
    assert done.returncode == 0
    assert done.stderr == b""
    assert done.stdout == "Welcome to Nim\n\n$\n$\ufffd\ufffd,B,A,0 games,0 wins\n\n$\n".encode()


def test_closed_output_ends_quietly(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    line = b"addaiplayer a,A,Aa\naddaiplayer b,B,Bb\n" + b"startgame 1000,1,a,b\n" * 20
    with subprocess.Popen(
        [sys.executable, "-m", "casino.nimsys"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=env,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(line)
        process.stdin.close()
        assert process.stdout.read(14) == b"Welcome to Nim"
        process.stdout.close()
        assert process.wait(timeout=60) == 1
        assert process.stderr is not None and process.stderr.read() == b""
    assert (tmp_path / "players.dat").read_text().startswith("casino-nimsys players 1\n")


PLAYER = "casino-nimsys players 1\nhuman\ta\tA\tAa\t0\t0\n"


# casino_choice: a players.dat that is no regular file, and its message (seed
# nimsys-projects-a-b-c.txt line 790: the file is the program's own; silent on such files).
@pytest.mark.casino_choice
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_players_dat_that_is_no_regular_file_is_moved_aside_at_once(
    kind: str, tmp_path: Path
) -> None:
    if kind == "fifo":
        os.mkfifo(tmp_path / "players.dat")  # reading it would wait for a writer forever
    else:
        (tmp_path / "players.dat").symlink_to("/dev/zero")  # reading it would never end
    done = _process([], b"addplayer a,A,Aa\n", tmp_path)
    assert done.returncode == 0
    assert done.stderr == (
        b"nimsys: players.dat: not a regular file; kept as players.dat.bad, "
        b"starting with no players\n"
    )
    assert (tmp_path / "players.dat").read_text() == PLAYER
    assert os.path.lexists(tmp_path / "players.dat.bad")


# casino_choice: a read-only players.dat kept, its line and status 1 (seed line 790: silent).
@pytest.mark.casino_choice
def test_a_read_only_players_dat_is_kept_and_said_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "players.dat"
    path.write_text(PLAYER)
    path.chmod(0o444)
    run = nimsys("addplayer b,B,Bb\nexit\n")
    assert run.status == 1
    assert run.err == "nimsys: players.dat: players not saved: read-only file, not replaced\n"
    assert path.read_text() == PLAYER and sorted(os.listdir(tmp_path)) == ["players.dat"]


def test_a_symlinked_players_dat_is_saved_through_the_link(tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    real = tmp_path / "store" / "players.dat"
    real.write_text(PLAYER)
    real.chmod(0o640)
    (tmp_path / "players.dat").symlink_to(real)
    assert nimsys("addplayer b,B,Bb\n").status == 0
    assert (tmp_path / "players.dat").is_symlink()
    assert real.read_text() == PLAYER + "human\tb\tB\tBb\t0\t0\n"
    assert real.stat().st_mode & 0o777 == 0o640


def test_a_temp_file_left_by_a_killed_nimsys_is_cleaned_up(tmp_path: Path) -> None:
    stale = tmp_path / ".players.dat.k2j4x9qa.tmp"  # what a kill -9 left before this change
    stale.write_text("casino-nimsys players 1\n")
    os.utime(stale, (1_000_000_000, 1_000_000_000))
    assert nimsys("addplayer b,B,Bb\n").status == 0
    assert sorted(os.listdir(tmp_path)) == ["players.dat"]
