"""How often the program-entry contract holds at the edges: N runs of each program under a
closed stdout, output to ``/dev/full`` and a terminal closed mid-session.

    python benchmarks/bench_edges.py [--runs N] [PROGRAM ...]

Each run is a fresh process (``python -m casino.PROGRAM``). A run counts as kept when its
status is the contract's (1, 1 and 129) and its stderr is the one line the contract names
(closed stdout, ``/dev/full``), or nothing reaches a reader (the closed terminal: its stderr
is that terminal) and no traceback is left behind. Prints one row per program and edge:
kept/runs, and what the runs that were not kept ended with.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import time
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = {
    "nimsys": ([], r"\$", "addplayer a,B,C\n"),
    "demo": ([], r"\$ ", "roll\n"),
    "videopoker": (["-i", "100"], "> ", "b\nd\n"),
    "holdem": ([], "> ", "ir\n"),
}
"""Program → its arguments, its prompt on a terminal, and input that makes it write."""


def closed_stdout(name: str) -> tuple[int, str]:
    """Status and stderr of a run with stdout closed (``>&-``)."""
    args, _, data = SESSIONS[name]
    argv = [sys.executable, "-m", f"casino.{name}", *args]
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *argv],
        input=data.encode(),
        stderr=subprocess.PIPE,
        cwd="/tmp",
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    return done.returncode, done.stderr.decode("utf-8", "replace")


def full_device(name: str) -> tuple[int, str]:
    """Status and stderr of a run whose stdout is ``/dev/full``."""
    args, _, data = SESSIONS[name]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", f"casino.{name}", *args],
            input=data.encode(),
            stdout=full,
            stderr=subprocess.PIPE,
            cwd="/tmp",
            timeout=120,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
    return done.returncode, done.stderr.decode("utf-8", "replace")


def closed_terminal(name: str, log: Path) -> tuple[int, str]:
    """Status of a run whose terminal is closed while it waits for input, and what it wrote
    to stderr (redirected to ``log`` to be seen: the terminal itself is gone)."""
    args, prompt, _ = SESSIONS[name]
    command = " ".join([sys.executable, "-m", f"casino.{name}", *args])
    child = pexpect.spawn(
        "sh", ["-c", f"exec {command} 2>{log}"], cwd="/tmp", encoding="utf-8", timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    child.expect(prompt)
    time.sleep(0.05)
    child.ptyproc.fileobj.close()
    if child.isalive():
        child.wait()
    status = child.exitstatus if child.signalstatus is None else -child.signalstatus
    return status, log.read_text()


EDGES = ["closed stdout", "/dev/full", "closed terminal"]


def measure(name: str, edge: str, runs: int, log: Path) -> tuple[int, dict[str, int]]:
    """How many of ``runs`` runs of ``name`` at ``edge`` kept the contract; how the others
    ended (status and the end of their stderr)."""
    others: collections.Counter[str] = collections.Counter()
    kept = 0
    for _ in range(runs):
        if edge == "closed stdout":
            (got, err), status, line = (
                closed_stdout(name),
                1,
                f"{name}: standard output is closed\n",
            )
        elif edge == "/dev/full":
            (got, err), status, line = full_device(name), 1, f"{name}: No space left on device\n"
        else:
            (got, err), status, line = closed_terminal(name, log), 129, None
        if got == status and (err == line if line is not None else "Traceback" not in err):
            kept += 1
        else:
            others[f"{got} {err.strip()[-80:]!r}"] += 1
    return kept, dict(others)


def main() -> int:
    """Run the edges, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("programs", nargs="*", default=sorted(SESSIONS))
    options = parser.parse_args()
    log = Path("/tmp") / f"casino-edges-{id(parser)}.err"
    for name in options.programs:
        for edge in EDGES:
            kept, others = measure(name, edge, options.runs, log)
            print(f"{name:<11} {edge:<16} {kept}/{options.runs}  {others or ''}", flush=True)
    log.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
