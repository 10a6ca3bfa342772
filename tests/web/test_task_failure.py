"""A task a server runs that fails (a Hold'em table's loop) ends the server cleanly and is said
in one line: never a server that goes on with a dead table, nor a traceback at shutdown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

ROOT = Path(__file__).resolve().parents[2]

CRASHING_TABLE = """
import sys
from casino.web.holdem import WebTable
from casino.programs import load_main

async def crash(self):
    raise ZeroDivisionError("boom")

WebTable.run = crash
raise SystemExit(load_main("web")(sys.argv[1:]))
"""


def test_a_table_that_fails_ends_the_server_with_one_line(tmp_path: Path) -> None:
    argv = ["--port", "0", "--tables", "2", "--database", str(tmp_path / "casino.db")]
    done = subprocess.run(
        [sys.executable, "-c", CRASHING_TABLE, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,  # no --duration: before, the server went on forever with a dead table
    )
    assert done.returncode == 70
    assert done.stdout.startswith("casino web: listening on http://127.0.0.1:")
    assert done.stderr == (
        "web: internal error (a bug in casino): TaskFailed: table 1 stopped: "
        "ZeroDivisionError: boom\n"
    )
