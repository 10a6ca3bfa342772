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
import fcntl, socket, sqlite3, struct
def attempt(fn, *args):
    try:
        fn(*args)
        return "ok"
    except OSError as error:
        return errno.errorcode[error.errno]
found["inotify_init1"] = call(libc.inotify_init1, 0)
here = os.open(".", os.O_RDONLY)
def fcntl_call(fd, command, arg):
    return attempt(fcntl.fcntl, fd, command, arg)
found["dnotify"] = fcntl_call(here, fcntl.F_NOTIFY, 1)
mine = os.open("mine", os.O_RDWR | os.O_CREAT)
found["lease"] = fcntl_call(mine, fcntl.F_SETLEASE, fcntl.F_RDLCK)
for name, family, kind in (("vsock", 40, 1), ("alg", 38, 5), ("unix", 1, 1)):
    try:
        socket.socket(family, kind).close()
        found[name] = "ok"
    except OSError as error:
        found[name] = errno.errorcode[error.errno]
LOCK = struct.Struct("hhqqi4x")
found["flock"] = attempt(fcntl.flock, mine, fcntl.LOCK_EX | fcntl.LOCK_NB)
found["lockf"] = attempt(fcntl.lockf, mine, fcntl.LOCK_EX | fcntl.LOCK_NB)
found["ofd"] = fcntl_call(mine, 37, LOCK.pack(fcntl.F_WRLCK, 0, 0, 0, 0))
child = os.fork()
if child == 0:  # another process: sees no lock of its parent's
    other = os.open("mine", os.O_RDWR)
    got = fcntl.fcntl(other, fcntl.F_GETLK, LOCK.pack(fcntl.F_WRLCK, 0, 0, 0, 0))
    os._exit(0 if LOCK.unpack(got)[0] == fcntl.F_UNLCK else 1)
found["locked"] = "unlocked" if os.waitpid(child, 0)[1] == 0 else "locked"
db = sqlite3.connect("db.sqlite")
db.execute("create table t(x)")
db.execute("insert into t values (1)")
db.commit()
found["sqlite"] = db.execute("select x from t").fetchall()
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
