"""A real Ray cluster of two nodes on this machine, for ``casino grade --ray ADDRESS``.

The head node and a second node are started with ``ray start`` (``--node-ip-address
127.0.0.1``, each with its own CPUs and its own raylet), in a temporary folder of their own, so
the test can find each node's raylet by its socket and kill exactly one, and so ``stop`` ends
only this cluster's processes (``ray stop`` would end every Ray on the machine).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

RAY = Path(sys.executable).with_name("ray")
HOME = tempfile.mkdtemp(prefix="casino-ray-home-")
"""The cluster's and the grader's home: Ray keeps files in ``~/.ray`` (``ray.init()`` writes an
``auth_token`` there that a later ``ray start`` would take up), so none of the user's is used."""
ENV = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_DISABLE_IMPORT_WARNING="1", HOME=HOME)


def free_port() -> int:
    """A TCP port nobody listens on now, on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def processes_with(word: str) -> list[int]:
    """The pids of processes whose command line holds ``word``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if word.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (from the ``children`` files of its threads and theirs)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        here = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{here}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{here}/task/{task}/children") as handle:
                    kids = {int(word) for word in handle.read().split()}
            except OSError:
                continue
            todo.extend(kids - found)
            found |= kids
    return found


@dataclass
class Cluster:
    """A running two-node cluster: its address and its folder."""

    address: str
    folder: Path

    def raylet(self, second: bool) -> int:
        """The pid of the head's raylet, or of the second node's."""
        for pid in processes_with(str(self.folder)):
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
            if argv and argv[0].endswith(b"raylet"):
                socket_arg = next(a for a in argv if a.startswith(b"--raylet_socket_name="))
                if socket_arg.endswith(b"/raylet.1") == second:
                    return pid
        raise LookupError("no such raylet")

    def busy(self, second: bool) -> bool:
        """Whether a node's workers are running a student's program now (a worker of that
        raylet has a child: its run)."""
        raylet = self.raylet(second)
        return any(descendants(worker) for worker in descendants(raylet))

    def kill_second(self) -> None:
        """Kill the second node's raylet, as a dying machine would."""
        os.kill(self.raylet(second=True), signal.SIGKILL)


def _start(*argv: str, hide: Path | None = None) -> None:
    """``ray start ARGV``; with ``hide``, in a mount namespace where that folder is an empty
    tmpfs (the node's processes cannot see what is in it)."""
    command = [str(RAY), "start", *argv]
    if hide is not None:
        script = 'mount -t tmpfs casino-hidden "$1" && shift && exec "$@"'
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh",
                   str(hide), *command]  # fmt: skip
    done = subprocess.run(command, env=ENV, capture_output=True, text=True, timeout=180)
    if done.returncode != 0:
        raise RuntimeError(f"ray start failed: {done.stderr[-2000:]}")


@contextlib.contextmanager
def two_nodes(
    head_cpus: int = 1, second_cpus: int = 1, hide: Path | None = None
) -> Iterator[Cluster]:
    """A head node with ``head_cpus`` CPUs and a second node with ``second_cpus``, which cannot
    see the folder ``hide`` (if given)."""
    folder = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))  # sockets want a short path
    port = free_port()
    address = f"127.0.0.1:{port}"
    try:
        _start(
            "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
            "--num-cpus", str(head_cpus), "--temp-dir", str(folder),
            "--include-dashboard", "false", "--disable-usage-stats",
        )  # fmt: skip
        _start(
            "--address", address, "--node-ip-address", "127.0.0.1",
            "--num-cpus", str(second_cpus), "--disable-usage-stats", hide=hide,
        )  # fmt: skip
        yield Cluster(address, folder)
    finally:
        stop(folder)


def stop(folder: Path) -> None:
    """Kill every process of the cluster in ``folder`` and remove the folder."""
    for _ in range(50):
        pids = [pid for pid in processes_with(str(folder)) if pid != os.getpid()]
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)
    shutil.rmtree(folder, ignore_errors=True)
