"""The kernel calls a sandboxed program is refused, tried on the real kernel: the keyring,
``mount``, new user namespaces (by ``unshare`` and by ``clone``), io_uring, BPF, ptrace,
performance counters, inotify, dnotify, leases, ``AF_VSOCK`` and ``AF_ALG`` sockets all fail;
file locks succeed and lock nothing (another process sees no lock); threads, ``fork``, unix
sockets, SQLite and everything a program needs still work.
Graded by root and by an ordinary user (nobody), each run is in a user namespace of its own."""

from __future__ import annotations

import errno
import json
import os
import struct
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.harness.runners.folders import remove_tree
from casino.harness.runners.runfolder import next_run_uid
from casino.harness.runners.sandbox import SANDBOX_UID, isolation_works
from casino.harness.runners.seccomp import (
    FAMILIES,
    LOCKS,
    REFUSED,
    RET_ALLOW,
    RET_ERRNO,
    WATCHES,
    X86_64,
    assemble,
    filter_bytes,
    native_abi,
    program,
)
from grade.as_nobody import nobody_pythonpath
from grade.seccomp_probe import probe

ROOT = Path(__file__).resolve().parents[2]

REFUSED_HERE = {
    "add_key": "EPERM",
    "request_key": "EPERM",
    "keyctl": "EPERM",
    "unshare_user": "EPERM",
    "unshare_mount": "EPERM",
    "clone_user": "EPERM",
    "mount": "EPERM",
    "io_uring_setup": "EPERM",
    "bpf": "EPERM",
    "ptrace": "EPERM",
    "perf_event_open": "EPERM",
    "inotify_init1": "EPERM",
    "dnotify": "EPERM",
    "lease": "EPERM",
    "vsock": "EAFNOSUPPORT",
    "alg": "EAFNOSUPPORT",
    "unix": "ok",
    "flock": "ok",
    "lockf": "ok",
    "ofd": "ok",
    "locked": "unlocked",
    "sqlite": [[1]],
    "fork": 7,
    "thread": [1],
    "uid": SANDBOX_UID,
}

sandboxed = pytest.mark.skipif(
    not isolation_works() or native_abi() is None, reason="no bubblewrap sandbox with a filter"
)


def test_the_filter_is_what_the_kernel_reads() -> None:
    """Whole ``struct sock_filter`` entries; every jump forward, inside the program; every
    refused call compared; the last word of each path a return."""
    code = program(X86_64)
    data = assemble(code)
    entries = [struct.unpack("=HBBI", data[i : i + 8]) for i in range(0, len(data), 8)]
    assert len(data) % 8 == 0 and len(entries) == len([c for c in code if not isinstance(c, str)])
    for index, (op, jt, jf, _) in enumerate(entries):
        if op & 0x07 == 0x05:  # a jump
            assert index + 1 + max(jt, jf) < len(entries)
    compared = {k for op, _, _, k in entries if op == 0x15}
    assert {X86_64.numbers[name] for name in REFUSED} <= compared
    returns = [k for op, _, _, k in entries if op == 0x06]
    assert returns == [
        RET_ALLOW,  # no call refused
        RET_ALLOW,  # clone without a namespace flag
        RET_ALLOW,  # another fcntl
        RET_ALLOW,  # another socket family
        RET_ERRNO | 0,  # a lock: a no-op that succeeds
        RET_ERRNO | errno.EAFNOSUPPORT,
        RET_ERRNO | errno.EPERM,
        RET_ERRNO | errno.ENOSYS,
    ]
    assert {*LOCKS, *WATCHES, *FAMILIES} <= compared
    assert entries[-1][0] == 0x06


def test_a_jump_too_far_is_refused() -> None:
    code: list[tuple[int, str | int, str | int, int] | str] = [(0x15, "end", 0, 1)]
    code += [(0x06, 0, 0, RET_ALLOW)] * 300 + ["end", (0x06, 0, 0, RET_ALLOW)]
    with pytest.raises(ValueError, match="a jump too far to 'end'"):
        assemble(code)


def test_each_run_as_root_has_a_uid_of_its_own() -> None:
    first, second = next_run_uid(), next_run_uid()
    assert first != second and min(first, second) >= 1 << 30 and max(first, second) < 2**32 - 1


@pytest.fixture
def run_folder() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="casino-test-"))
    os.chmod(folder, 0o755)
    yield folder
    remove_tree(folder)


@sandboxed
def test_the_kernel_refuses_what_the_filter_refuses(run_folder: Path) -> None:
    assert filter_bytes() is not None
    assert probe(run_folder) == REFUSED_HERE


@sandboxed
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")
def test_graded_by_an_ordinary_user_the_kernel_refuses_the_same(run_folder: Path) -> None:
    os.chown(run_folder, 65534, 65534)
    code = (
        "import json, sys; from pathlib import Path; "
        "import seccomp_probe as t; print(json.dumps(t.probe(Path(sys.argv[2]))))"
    )
    python = Path(tempfile.mkdtemp(prefix="casino-nobody-"))
    try:
        paths = [nobody_pythonpath(python, ROOT / "tests" / "grade" / "seccomp_probe.py")]
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3"]
        argv += ["-c", code, os.pathsep.join(paths), str(run_folder)]
        env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": os.pathsep.join(paths)}
        env["HOME"] = str(run_folder)
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
    finally:
        remove_tree(python)
    if done.returncode and "Permission denied" in done.stderr:
        pytest.skip(f"nobody cannot run this Python: {done.stderr.strip()[-200:]}")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == REFUSED_HERE
