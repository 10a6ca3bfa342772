"""The nimsys command line: options, bad usage in one line, real processes and pipes."""

from __future__ import annotations

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


def test_registered_as_nimsys() -> None:
    assert load_main("nimsys") is load_main("nimsys")
    assert command_line("nimsys")[1:] == ["-m", "casino.nimsys"]


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
