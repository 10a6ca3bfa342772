"""On a real terminal, with real time (a short, bounded move clock): the countdown is shown
and a time-out places a tile automatically."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


def test_the_countdown_runs_and_a_real_time_out_moves_automatically(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "casino.domino", "--seed", "26", "--lang", "en", "--ascii", "--move-seconds", "2"],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=10,
        dimensions=(24, 120),
    )
    try:
        child.expect_exact("Your tiles: 1:[4|6]")
        child.expect_exact("[2 s] Your move: \x1b7\r[1 s]\x1b8")  # rewritten in place
        child.expect_exact("Time is up (1 of 3 in a row): an automatic move.")
        child.expect_exact("You play [4|6] on the left.")
        child.expect_exact("[2 s] Your move: ")
        child.sendline("salir")
        child.expect_exact("Match over after 0 hands: won 0, lost 0, drawn 0.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_ctrl_c_at_the_prompt_ends_quietly_with_130(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "casino.domino", "--seed", "26", "--ascii", "--move-seconds", "3600"],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect_exact("Tu jugada: ")
        child.sendintr()
        child.expect(pexpect.EOF)
        # The countdown may redraw itself first, if this test was held up for a second.
        shown = re.sub(r"\x1b7\r\[\d+ s\]\x1b8", "", child.before)
        assert shown == "^C\r\ndomino: interrupted\r\n"  # the echo, then one line
    finally:
        child.close(force=True)
    assert child.exitstatus == 130


def test_a_utf8_terminal_gets_readable_ascii_tiles_unless_unicode_is_asked(tmp_path: Path) -> None:
    env = {**os.environ, "TERM": "xterm-256color", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    for extra, first in (([], "1:[4|6]"), (["--unicode"], "1:\U0001f053")):
        child = pexpect.spawn(
            sys.executable,
            ["-m", "casino.domino", "--seed", "26", "--lang", "en", *extra],
            cwd=str(tmp_path),
            env=env,
            encoding="utf-8",
            timeout=10,
        )
        try:
            child.expect_exact(f"Your tiles: {first}")
            child.expect_exact("Your move: ")
            child.sendline("quit")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
        assert child.exitstatus == 0
