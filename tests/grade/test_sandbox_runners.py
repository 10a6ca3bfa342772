"""Runners that always end: a program that closes its terminal and runs on is stopped at its
deadline (and casino still obeys SIGTERM); an ``out_re`` that cannot finish is a FAIL naming it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from casino.harness import regex
from casino.harness.diff import compare_output
from casino.harness.model import Out, OutRe, Run
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Limits, Outcome, Target
from grade.grade_support import ROOT

HIDE = """\
import os, sys, time
open("pid", "w").write(str(os.getpid()))
for fd in (0, 1, 2):
    os.close(fd)
time.sleep(300)
"""
"""Closes its terminal (fds 0–2) and runs on."""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_program_that_closes_its_terminal_is_stopped_at_its_deadline(tmp_path: Path) -> None:
    job = Job(Target(None, (sys.executable, "-c", HIDE)), Run((Out("hi\n"),)), tmp_path, 0, 1)
    outcomes: list[Outcome] = []
    worker = threading.Thread(target=lambda: outcomes.append(make_runner("pty").run(job)))
    worker.start()
    worker.join(60)  # a generous bound; the run's own deadline is 1 s
    assert not worker.is_alive()
    assert outcomes[0].problem == "timed out: it closed its output but did not exit within 1 s"
    assert not alive(int((tmp_path / "pid").read_text()))


def test_sigterm_stops_casino_while_such_a_program_runs(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text('name: hides\nsteps:\n  - out: "hi\\n"\ntimeout: 200\n')
    (tmp_path / "hide.py").write_text(HIDE)
    argv = [sys.executable, "-m", "casino", "replay", "--runner", "pty"]
    argv += ["--program", f"{sys.executable} hide.py", "--program-dir", str(tmp_path)]
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(scratch))
    with subprocess.Popen([*argv, "t.yaml"], cwd=tmp_path, env=env) as casino:
        deadline = time.monotonic() + 60
        pids: list[int] = []
        while not pids and time.monotonic() < deadline:  # the file is made, then written
            if casino.poll() is not None:
                break
            time.sleep(0.05)
            pids = [int(p.read_text()) for p in scratch.glob("casino-*/pid") if p.read_text()]
        casino.send_signal(signal.SIGTERM)
        assert casino.wait(timeout=30) == 128 + signal.SIGTERM
    assert pids and not any(alive(pid) for pid in pids)


def test_a_pattern_that_cannot_finish_is_a_failure_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a budget of a quarter of a second (the match burns a CPU for all of it: the
    default 2 s would show nothing more)."""
    for name in ("fullmatch", "match"):  # the budget each is given by default
        monkeypatch.setattr(regex, name, partial(getattr(regex, name), seconds=0.25))
    comparison = compare_output((OutRe("(a+)+$"),), "a" * 40 + "!")
    assert comparison.difference is not None
    assert comparison.difference.step == "out_re '(a+)+$': did not finish matching within 0.25 s"


def test_patterns_still_match_and_locate_as_before() -> None:
    assert compare_output((Out("x\n"), OutRe("[0-9]+\n")), "x\n12\n").difference is None
    difference = compare_output((Out("x\n"), OutRe("[0-9]+\n")), "x\n1a\n").difference
    assert difference is not None
    assert (difference.line, difference.column, difference.step) == (2, 1, "step 2 (out_re)")


def test_a_stop_right_after_stderr_is_closed_is_still_a_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM raises ``Stopped`` between any two steps: arriving just after the terminal
    runner closed the program's stderr pipe, the cleanup must not close it again (``Bad file
    descriptor`` hid the stop: casino exited 1 instead of 143, once under load)."""
    from casino.harness.runners import terminal
    from casino.interrupts import Stopped

    job = Job(Target(None, (sys.executable, "-c", "pass")), Run((Out(""),)), tmp_path, 0, 5)
    talk = terminal.Conversation(job, Limits.of(job))
    closing = os.close

    def close_then_stop(fd: int) -> None:
        closing(fd)
        monkeypatch.setattr(os, "close", closing)
        raise Stopped(signal.SIGTERM)

    monkeypatch.setattr(os, "close", close_then_stop)
    with pytest.raises(Stopped):
        talk._close_stderr()  # the stop arrives right after the close
    talk.finish()  # the cleanup the stop runs: nothing to close twice
