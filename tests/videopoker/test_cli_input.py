"""Whatever video poker is given (huge numbers, bytes that are not UTF-8), it answers in its
own words: never a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from casino.__main__ import main as casino_main
from casino.videopoker.analyze import main as analyze_main

from .conftest import run

ROOT = Path(__file__).resolve().parents[2]
HUGE = "9" * 5000  # past Python's int() limit of 4,300 digits


def test_huge_numbers_at_b_and_h_are_illegal_not_a_crash() -> None:
    done = run(["-i", "100", "--seed", "1"], f"b {HUGE}\nb\nd\nh {HUGE}\nh 1 {HUGE}\n$\n")
    assert (done.status, done.err) == (0, "")
    lines = done.out.splitlines()
    assert lines[0] == "b: illegal amount" and lines[1] == "player is betting 5"
    assert lines[3:] == ["h: illegal position", "h: illegal position", "player's credit is 95"]


def test_huge_numbers_in_a_cmd_file_are_illegal_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "cmd.txt").write_text(f"b {HUGE} b 1 d h {HUGE}\n")
    (tmp_path / "cards.txt").write_text("2H KH 2S JS 6D")
    done = run(["-d", "10", str(tmp_path / "cmd.txt"), str(tmp_path / "cards.txt")])
    assert (done.status, done.err) == (0, "")
    assert done.out.splitlines()[1:3] == [f"-cmd b {HUGE}", "b: illegal amount"]
    assert done.out.endswith(f"-cmd h {HUGE}\nh: illegal position\n")


def test_digits_that_are_not_ascii_are_not_numbers() -> None:
    done = run(["-i", "100", "--seed", "1"], "b ٣\nb 3\n")
    assert done.out == "b: illegal amount\nplayer is betting 3\n"


def test_a_huge_credit_is_one_line() -> None:
    done = run(["-i", HUGE])
    assert (done.status, done.out) == (2, "")
    assert done.err == (
        f"videopoker: credit must be a whole number of at least 1, not '{'9' * 30}'… "
        "(5,000 characters) (see videopoker --help)\n"
    )


def test_a_cmd_file_that_never_ends_is_refused(tmp_path: Path) -> None:
    (tmp_path / "cmd.txt").symlink_to("/dev/zero")
    done = run(["-d", "10", str(tmp_path / "cmd.txt"), str(tmp_path / "cmd.txt")])
    assert (done.status, done.out) == (1, "")
    assert (
        done.err == f"videopoker: cannot read cmd-file '{tmp_path}/cmd.txt': not a regular file\n"
    )


def test_the_analyzer_is_named_as_typed() -> None:
    for err, prog in [
        (run(["analyze", "--bogus"]).err, "videopoker analyze"),
        (_casino(["videopoker", "analyze", "--bogus"]), "casino videopoker analyze"),
        (_direct(["--bogus"]), "casino videopoker analyze"),
    ]:
        assert err == f"{prog}: unrecognized arguments: --bogus (see {prog} --help)\n"


def _casino(argv: list[str]) -> str:
    err = io.StringIO()
    assert casino_main(argv, stdin=io.StringIO(), stdout=io.StringIO(), stderr=err) == 2
    return err.getvalue()


def _direct(argv: list[str]) -> str:
    err = io.StringIO()
    assert analyze_main(argv, stdin=io.StringIO(), stdout=io.StringIO(), stderr=err) == 2
    return err.getvalue()


def test_stdin_that_is_not_utf8_is_read_under_a_strict_utf8_locale(tmp_path: Path) -> None:
    """PYTHONIOENCODING=utf-8:strict is what an en_US.UTF-8 locale gives Python's stdin."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUTF8"}
    done = subprocess.run(
        [sys.executable, "-m", "casino.videopoker", "-i", "100", "--seed", "1"],
        input=b"b\n\xff\xfeb\nd\n\x80\n$\n",
        capture_output=True,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8:strict"},
        check=False,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "player is betting 5" and lines[1] == "\ufffd\ufffdb: illegal command"
    assert lines[3:] == ["\ufffd: illegal command", "player's credit is 95"]


def test_a_pay_table_file_with_huge_or_odd_numbers_is_one_line(tmp_path: Path) -> None:
    for pay, message in [
        (HUGE, "line 1: give one pay per credit or five returns"),
        ("²", "line 1: unknown hand 'FULL HOUSE ²'"),
    ]:
        (tmp_path / "table.txt").write_text(f"FULL HOUSE {pay}\n")
        err = _direct(["--paytable", str(tmp_path / "table.txt"), "--hand", "AC KC QC JC 2C"])
        prog = "casino videopoker analyze"
        assert err == f"{prog}: {tmp_path / 'table.txt'}: {message} (see {prog} --help)\n"
