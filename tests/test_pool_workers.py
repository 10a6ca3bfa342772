"""Every process pool in casino is :func:`casino.pool.worker_pool`, and its workers never
print a traceback: not when the pool shuts down (it signals no worker), and not when a stop
reaches them.

``casino videopoker analyze`` used to print ``casino.cmdline.Stopped: 15`` from a worker in 9 of
12 runs: its ``multiprocessing.Pool`` ended by sending SIGTERM to workers that had kept casino's
own SIGTERM handler. Here each command runs 8 times as a program of its own (on the process's
own streams, under casino's signal handlers, with forked workers), in one Python process so
that the analyzer's tables are prepared once (the pool is started and shut down every time).
Eight runs keep the power (a bug seen in 9 runs of 12 hides from 8 with a chance of (3/12)^8,
about 1 in 65,000).

What is shown is how a pool starts, is used and shuts down, not the analysis or the simulation:
so each run is a small one through the same code (a few seconds of CPU less per test). The
analysis solves every 50th class of hands (still each of its 24 parts in the pool, on two
workers); the simulation plays 2,000 hands in chunks of 1,024 (two chunks, so still in the pool)
with the tables, as a long run does. Every worker is idle when its pool shuts down, as it is
after a whole analysis.
"""

from __future__ import annotations

import ast
import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNS = 8

DRIVER = textwrap.dedent(
    """
    import sys
    from casino.__main__ import main
    from casino.videopoker import analyzer, simulate

    made, make = [], analyzer._make_job

    def make_once(*job):
        if not made:
            made.append(make(*job))
            made[0].classes = made[0].classes[::50]
        return made[0]

    analyzer._make_job = make_once
    simulate.CHUNK, simulate.TABLES_FROM = 1024, 1000
    runs, argv = int(sys.argv[1]), sys.argv[2:]
    statuses = {main(argv) for _ in range(runs)}
    print("statuses", sorted(statuses), file=sys.stderr)
    """
)
"""Runs ``casino ARGV…`` several times in one process: the analyzer's tables made once and cut
to every 50th class, the simulation's chunks of 1,024 hands played with the tables."""


def run_repeatedly(*argv: str, runs: int = RUNS) -> tuple[str, str]:
    """stdout and stderr of ``casino ARGV…`` run ``runs`` times in a row in one process."""
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(runs), *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
        check=False,
    )
    return done.stdout, done.stderr


def test_analyze_with_two_workers_never_prints_a_traceback() -> None:
    out, err = run_repeatedly("videopoker", "analyze", "--jobs", "2")
    assert err == "statuses [0]\n"
    assert out.count("pay table double-bonus-10-7, 5 credits bet, optimal strategy") == RUNS
    assert out == out[: len(out) // RUNS] * RUNS  # every run gave the same answer


def test_simulation_with_two_workers_never_prints_a_traceback() -> None:
    out, err = run_repeatedly(
        "videopoker", "-s", "100000", "5", "2000", "--jobs", "2", "--seed", "7"
    )
    assert err == "statuses [0]\n"
    assert out.count("Credit") == RUNS and out == out[: len(out) // RUNS] * RUNS
    assert "Total             2000\n" in out


def test_replay_with_two_workers_never_prints_a_traceback() -> None:
    out, err = run_repeatedly("replay", "--jobs", "2", "transcripts/demo")
    assert err == "statuses [0]\n"
    assert out.count("passed") >= RUNS and "FAIL" not in out and "ERROR" not in out


BUSY_PROGRAM = textwrap.dedent(
    """
    import signal, sys
    from casino.cmdline import run_program
    from casino.pool import worker_pool
    from casino.stopping import worker_task

    def task(number):
        with worker_task():
            print(f"working {number}", flush=True)
            while True:
                signal.pause()  # until a stop unwinds the task

    def body(invocation):
        with worker_pool(2) as pool:
            for future in [pool.submit(task, number) for number in range(2)]:
                future.result()
        return 0

    sys.exit(run_program("busy", body))
    """
)


@pytest.mark.parametrize(
    ("whom", "signum", "status"),
    [
        ("group", signal.SIGINT, 130),
        ("group", signal.SIGTERM, 143),
        ("casino", signal.SIGTERM, 143),
    ],
)
def test_a_stop_ends_busy_workers_quietly(whom: str, signum: int, status: int) -> None:
    """Ctrl-C goes to the whole process group, a SIGTERM maybe to casino alone (which passes
    it on): every task ends, one line from casino, its status, no traceback from anybody."""
    child = pexpect.spawn(
        sys.executable, ["-c", BUSY_PROGRAM], cwd=str(ROOT), encoding="utf-8", timeout=120
    )
    child.expect("working [01]")
    child.expect("working [01]")  # both workers are in their task
    if whom == "group":
        os.killpg(os.getpgid(child.pid), signum)
    else:
        os.kill(child.pid, signum)
    child.expect(pexpect.EOF)
    child.close()
    said = (child.before or "").strip().splitlines()
    assert (child.exitstatus, len(said)) == (status, 1)
    assert said[0].startswith("busy: ") and "Traceback" not in said[0]


KILLED_PROGRAM = textwrap.dedent(
    """
    import os, signal, subprocess, sys
    from casino.pool import worker_pool
    from casino.stopping import worker_task

    def task(number):
        with worker_task():
            child = subprocess.Popen(["sleep", "600"])  # what a run starts: a program
            try:
                os.write(1, f"working {os.getpid()} {child.pid}\\n".encode())  # one write
                while True:
                    signal.pause()  # until a stop unwinds the task
            finally:
                child.kill()
                child.wait()

    with worker_pool(3) as pool:
        idle = pool.submit(os.getpid).result()
        os.write(1, f"idle {idle}\\n".encode())
        for future in [pool.submit(task, number) for number in range(2)]:
            future.result()
    """
)


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_end_with_casino_killed_by_sigkill() -> None:
    """``kill -9`` (a CI job's time limit, the out-of-memory killer) gives casino no chance to
    stop its pool: its workers, idle or busy, end by themselves, and a busy one's task unwinds
    first, so that the program the task started ends too (they used to wait for ever). No
    terminal: a dying session leader's SIGHUP would reach the workers and hide the defect."""
    casino = subprocess.Popen(
        [sys.executable, "-c", KILLED_PROGRAM], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert casino.stdout is not None
    pids: list[int] = []
    try:
        pids.append(int(casino.stdout.readline().split()[1]))  # idle PID
        for _ in range(2):  # working PID PROGRAM
            pids += [int(word) for word in casino.stdout.readline().split()[1:]]
        assert len(pids) == 5 and all(alive(pid) for pid in pids)
        casino.kill()
        casino.wait()
        end = time.monotonic() + 60  # a bound on waiting, not a speed
        while any(alive(pid) for pid in pids) and time.monotonic() < end:
            time.sleep(0.05)
        assert [pid for pid in pids if alive(pid)] == []
    finally:
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        casino.stdout.close()


POOL_MAKERS = {"ProcessPoolExecutor", "WorkerPool", "Pool", "ThreadPool"}


def pools_made_in(top: Path) -> list[tuple[Path, int]]:
    """The file and line of each call creating a process pool in ``top``'s modules."""
    found = []
    for path in sorted(top.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in POOL_MAKERS:
                    found.append((path, node.lineno))
    return found


def test_every_process_pool_is_the_worker_pool() -> None:
    pool = ROOT / "casino" / "pool.py"
    made = pools_made_in(ROOT / "casino")  # each module parsed once
    assert [f"{path.relative_to(ROOT)}:{line}" for path, line in made if path != pool] == []
    assert [path.relative_to(ROOT).as_posix() for path, _ in made] == ["casino/pool.py"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_reaching_an_idle_worker_is_noted_quietly(signum: int) -> None:
    """An idle worker keeps the stop for its next task, which it then refuses."""
    script = textwrap.dedent(
        f"""
        import os, signal
        from casino.pool import worker_pool
        from casino.stopping import worker_task

        def pid():
            return os.getpid()

        def task():
            with worker_task():
                return "ran"

        with worker_pool(1) as pool:
            worker = pool.submit(pid).result()
            os.kill(worker, {int(signum)})
            try:
                print(pool.submit(task).result())
            except KeyboardInterrupt as stop:
                print("refused:", type(stop).__name__)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    expected = "KeyboardInterrupt" if signum == signal.SIGINT else "Stopped"
    assert (done.returncode, done.stdout, done.stderr) == (0, f"refused: {expected}\n", "")
