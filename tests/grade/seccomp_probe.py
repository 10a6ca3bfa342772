"""The probe the seccomp tests run in a sandbox: kernel calls a sandboxed program must be
refused, and what it needs (fork, threads) that must still work. Apart from the tests (no
pytest here) so that a grader running as nobody can import it too."""

from __future__ import annotations

import json
from pathlib import Path

from casino.harness.model import Out, Run
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Target
from casino.harness.runners.sandbox import Sandbox

PROBE = r"""
import ctypes, errno, json, os, platform, threading
NR = {
    "x86_64": dict(add_key=248, request_key=249, keyctl=250, io_uring_setup=425, bpf=321,
                   ptrace=101, perf_event_open=298, clone=56),
    "aarch64": dict(add_key=217, request_key=218, keyctl=219, io_uring_setup=425, bpf=280,
                    ptrace=117, perf_event_open=241, clone=220),
}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(fn, *args):
    ctypes.set_errno(0)
    result = fn(*args)
    return "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]
params = ctypes.create_string_buffer(120)
SIGCHLD, NEWUSER = 17, 0x10000000
found = {
    "add_key": call(libc.syscall, NR["add_key"], b"user", b"k", b"v", 1, -4),
    "request_key": call(libc.syscall, NR["request_key"], b"user", b"k", None, 0),
    "keyctl": call(libc.syscall, NR["keyctl"], 0, -4, 0),
    "unshare_user": call(libc.unshare, NEWUSER),
    "unshare_mount": call(libc.unshare, 0x20000),
    "clone_user": call(libc.syscall, NR["clone"], NEWUSER | SIGCHLD, 0, 0, 0, 0),
    "mount": call(libc.mount, b"none", b"/tmp", b"tmpfs", 0, None),
    "io_uring_setup": call(libc.syscall, NR["io_uring_setup"], 4, params),
    "bpf": call(libc.syscall, NR["bpf"], 0, None, 0),
    "ptrace": call(libc.syscall, NR["ptrace"], 16, 1, 0, 0),
    "perf_event_open": call(libc.syscall, NR["perf_event_open"], params, 0, -1, -1, 0),
}
pid = os.fork()
if pid == 0:
    os._exit(7)
found["fork"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
box = []
worker = threading.Thread(target=lambda: box.append(1))
worker.start(); worker.join()
found["thread"] = box
found["uid"] = os.getuid()
print(json.dumps(found))
"""


def probe(folder: Path) -> dict[str, object]:
    """:data:`PROBE` in its sandbox, as the pipe runner starts it."""
    sandbox = Sandbox(cpu_seconds=20, memory=1 << 30, processes=64, isolate=True)
    (folder / "probe.py").write_text(PROBE, encoding="utf-8")
    target = Target(None, ("python3", "probe.py"), folder)
    outcome = make_runner("pipe").run(Job(target, Run((Out(""),)), folder, 0, 20, sandbox))
    assert outcome.problem is None, outcome
    found: dict[str, object] = json.loads(outcome.output)
    return found
