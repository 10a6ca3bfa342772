"""``casino web`` without the web extra, and as a real process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from casino.programs import load_main, run_captured

ROOT = Path(__file__).resolve().parents[2]


def test_without_the_web_extra_it_says_so_in_one_line_and_exits_1() -> None:
    code = (
        "import sys; sys.modules['aiohttp'] = None\n"
        "from casino.programs import load_main\n"
        "import casino.web.cli\n"
        "assert 'aiohttp' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "raise SystemExit(load_main('web')(['--port', '0']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert (
        done.stderr
        == "casino web needs the web extra (aiohttp): pip install -e '.[web]' in casino's folder\n"
    )


def test_it_listens_on_loopback_by_default_and_stops_after_its_duration(tmp_path: Path) -> None:
    database = ("--database", str(tmp_path / "casino.db"))
    done = subprocess.run(
        [sys.executable, "-m", "casino.web", "--port", "0", "--duration", "0.1", *database],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("casino web: listening on http://127.0.0.1:")


@pytest.mark.parametrize("bad", ["-1", "nan", "inf", "x", "9" * 5000])
def test_a_bad_duration_is_one_line_and_status_2(bad: str) -> None:
    done = run_captured(load_main("web"), ["--port", "0", "--duration", bad], "")
    assert (done.status, done.out) == (2, "")
    assert done.err.startswith("web: argument --duration: not a number of seconds")
    assert done.err.count("\n") == 1


@pytest.mark.parametrize(
    ("option", "bad"),
    [("--seat-timeout", bad) for bad in ("0", "-5", "x", "3601")]
    + [("--time-bank", bad) for bad in ("-1", "nan", "x", "3601")],  # 0 is allowed: no bank
)
def test_a_bad_seat_timeout_or_time_bank_is_one_line_and_status_2(option: str, bad: str) -> None:
    done = run_captured(load_main("web"), ["--port", "0", option, bad], "")
    assert (done.status, done.out) == (2, "")
    assert done.err.startswith(f"web: argument {option}: not a number of seconds")
    assert done.err.count("\n") == 1


def test_a_database_that_cannot_be_opened_is_one_line_and_status_1(tmp_path: Path) -> None:
    (tmp_path / "junk.db").write_text("not a database\n")
    for where, why in [
        (str(tmp_path), "web: cannot open the database"),
        (str(tmp_path / "junk.db"), "web: cannot use the database"),
    ]:
        done = run_captured(load_main("web"), ["--port", "0", "--database", where], "")
        assert (done.status, done.out) == (1, "")
        assert done.err.startswith(why) and done.err.count("\n") == 1


@pytest.mark.parametrize(
    ("option", "bad"),
    [("--wait", "0"), ("--wait", "10"), ("--fill-after", "0"), ("--instance", "a b")],
)
def test_bad_waiting_and_instance_options_are_one_line_and_status_2(option: str, bad: str) -> None:
    done = run_captured(load_main("web"), ["--port", "0", option, bad], "")
    assert (done.status, done.out) == (2, "")
    assert done.err.startswith(f"web: argument {option}: ") and done.err.count("\n") == 1


@pytest.mark.parametrize("bad", ["-1", "x"])
def test_a_bad_ante_is_one_line_and_status_2(bad: str) -> None:
    done = run_captured(load_main("web"), ["--port", "0", "--ante", bad], "")
    assert (done.status, done.out) == (2, "") and "--ante" in done.err
    assert done.err.count("\n") == 1
