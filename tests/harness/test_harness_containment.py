"""Nothing a run starts outlives it; stopping casino stops everything it started and cleans up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.harness.model import In, Out, Run
from casino.harness.runners import make_runner, procs
from casino.harness.runners.base import Job, Target
from casino.harness.runners.procs import Containment, become_subreaper, children
from harness.harness_support import ROOT, write_transcript

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="containment relies on Linux's /proc and prctl"
)


def with_marker(marker: str) -> list[int]:
    """The pids of processes whose argv holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    argv = handle.read()
            except OSError:
                continue
            if marker.encode() in argv:
                found.append(int(entry))
    return found


@pytest.fixture
def marker() -> Iterator[str]:
    """A unique word to find a test's processes by (in their argv, or their script's name);
    whatever still has it is killed after the test."""
    word = f"casino-test-{uuid.uuid4().hex}"
    yield word
    for pid in with_marker(word):
        os.kill(pid, signal.SIGKILL)


def sleeper(marker: str) -> str:
    """A shell command line for a process that sleeps 300 s with ``marker`` in its argv."""
    return f"{sys.executable} -c 'import time; time.sleep(300)' {marker}"


def leaver(directory: Path, marker: str) -> tuple[str, ...]:
    """A program that reads a line, leaves a ``nohup`` child (holding its stdout) and a
    ``setsid`` grandchild behind, and exits."""
    script = directory / f"{marker}.sh"
    script.write_text(
        "read line\n"
        f"nohup {sleeper(marker + '-nohup')} &\n"
        f'sh -c "setsid {sleeper(marker + "-setsid")} &" &\n'
        'echo "bye $line"\n',
        encoding="utf-8",
    )
    return ("sh", str(script))


def test_this_process_can_reap_orphans() -> None:
    assert become_subreaper()


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_a_run_leaves_no_process_behind(tmp_path: Path, marker: str, runner: str) -> None:
    job = Job(Target("x", leaver(tmp_path, marker)), Run((In("go"), Out("bye go\n"))), tmp_path)
    outcome = make_runner(runner).run(job)
    assert (outcome.output, outcome.exit, outcome.problem) == ("bye go\n", 0, None)
    assert with_marker(marker) == []


def test_children_read_per_thread_are_those_a_scan_of_proc_finds(marker: str) -> None:
    """The per-thread ``children`` files (cheap) and a scan of all of /proc agree: a living
    child, a zombie not yet reaped, and a child started from another thread."""
    living = subprocess.Popen(["sh", "-c", sleeper(marker)])
    zombie = subprocess.Popen(["true"])
    os.waitid(os.P_PID, zombie.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped
    from_thread: list[subprocess.Popen[bytes]] = []
    helper = threading.Thread(target=lambda: from_thread.append(subprocess.Popen(["sleep", "300"])))
    helper.start()
    helper.join()
    try:
        fast = procs._children_of_tasks()
        assert fast == procs._children_by_scan()
        assert {living.pid, zombie.pid, from_thread[0].pid} <= fast
    finally:
        for process in (living, zombie, *from_thread):
            process.kill()
            process.wait()


def test_children_from_before_the_run_are_not_its_own(marker: str) -> None:
    before = subprocess.Popen(["sh", "-c", sleeper(marker)])
    try:
        with Containment():
            started = subprocess.Popen(["sh", "-c", f"{sleeper(marker + '-run')} & wait"])
            for _ in range(1000):
                if with_marker(marker + "-run"):
                    break
                time.sleep(0.01)
        assert with_marker(marker + "-run") == []
        assert started.pid not in children()  # killed and reaped
        assert before.poll() is None
        assert before.pid in children()
    finally:
        before.kill()
        before.wait()


LOOPER = """\
read line
{sleeper} &
while :; do sleep 0.1; done
"""

TRANSCRIPT = """\
name: loops
program: looper
steps:
  - in: go
  - out: "never\\n"
timeout: 60
"""


def _stop_casino(tmp_path: Path, marker: str, how: signal.Signals, *options: str) -> str:
    """Start ``casino replay`` on two looping transcripts, wait until the program runs, send
    ``how`` to casino, check nothing is left; its stderr."""
    script = tmp_path / f"{marker}.sh"  # casino's argv and the program's hold the marker too
    script.write_text(LOOPER.format(sleeper=sleeper(f"{marker}-child")), encoding="utf-8")
    for name in ("a", "b"):
        write_transcript(tmp_path / "t" / f"{name}.yaml", TRANSCRIPT)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "casino", "replay", "--program", f"sh {script}", *options]
    casino = subprocess.Popen(
        [*command, str(tmp_path / "t")], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        for _ in range(600):  # the looping program has started (at most 60 s)
            if with_marker(f"{marker}-child") or casino.poll() is not None:
                break
            time.sleep(0.1)
        assert with_marker(f"{marker}-child"), "the program never started"
        casino.send_signal(how)
        _, err = casino.communicate(timeout=60)
    finally:
        casino.kill()
        casino.wait()
    assert casino.returncode == 128 + how
    assert with_marker(marker) == []
    assert list(scratch.iterdir()) == []
    return err


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_sigterm_stops_every_run_and_cleans_up(tmp_path: Path, marker: str, runner: str) -> None:
    err = _stop_casino(tmp_path, marker, signal.SIGTERM, "--runner", runner)
    assert err == "casino replay: stopped by SIGTERM\n"


def test_sigint_stops_every_run_and_cleans_up(tmp_path: Path, marker: str) -> None:
    err = _stop_casino(tmp_path, marker, signal.SIGINT)
    assert err == "casino replay: interrupted\n"


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGHUP])
def test_pool_workers_clean_up_too(tmp_path: Path, marker: str, how: signal.Signals) -> None:
    err = _stop_casino(tmp_path, marker, how, "--jobs", "2")
    assert err == f"casino replay: stopped by {how.name}\n"


DEMO = """\
name: sum
program: demo
steps:
  - out: "casino demo calculator (type help)\\n$ "
  - in: add 2 3
  - out: "2 + 3 = 5\\n$ "
  - in: exit
  - out: "bye\\n"
exit: 0
"""


def test_sigterm_stops_an_inproc_replay_between_transcripts(tmp_path: Path) -> None:
    for number in range(300):
        write_transcript(tmp_path / f"t{number:03}.yaml", DEMO)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(ROOT)}
    casino = subprocess.Popen(
        [sys.executable, "-m", "casino", "replay", str(tmp_path)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert casino.stdout is not None
        assert casino.stdout.readline().startswith("PASS ")
        casino.send_signal(signal.SIGTERM)
        out, err = casino.communicate(timeout=60)
    finally:
        casino.kill()
        casino.wait()
    assert (casino.returncode, err) == (143, "casino replay: stopped by SIGTERM\n")
    assert "transcripts)" not in out  # no summary: it stopped before the end
    assert list(scratch.iterdir()) == []
