"""No kernel object two runs share: two colluding students graded at once (``--jobs 2``), one
marking an object, the other looking for the mark, per object — file locks (``flock``, POSIX,
OFD), inotify, abstract and filesystem unix sockets, SysV IPC, POSIX message queues, ``/proc``
and signals of the other — as root and as an ordinary user (nobody): the looker scores 0.
(The kernel keyring has its own pair in ``test_sandbox_hostile.py``.)

Without the sandbox (``--trust-submissions``) the same pair does pass the file-lock and inotify
transcripts: the channels are real, and the test could fail.

The sender marks every object in every run, holds the marks for :data:`HOLD` seconds, then
prints ``yes``; the receiver looks for its transcript's object for up to :data:`HOLD` seconds
and prints ``yes`` when it found a mark, else ``no`` (what it saw goes to stderr, in its
feedback). No assertion is on a time: sealed, the receiver can never see a mark however the
runs line up.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.harness.runners.folders import remove_tree
from casino.harness.runners.sandbox import isolation_works
from casino.harness.runners.seccomp import native_abi
from grade.as_nobody import nobody_pythonpath

pytestmark = pytest.mark.skipif(
    not isolation_works() or native_abi() is None, reason="no bubblewrap sandbox with a filter"
)

ROOT = Path(__file__).resolve().parents[2]
OBJECTS = ("flock", "posix", "ofd", "inotify", "abstract", "filesocket", "sysv", "mqueue", "proc")
HOLD = 4
LOCKED = ("flock", "posix", "ofd", "inotify")
"""The objects casino's seccomp filter closes: open between trusted runs."""

CHANNEL = r"""
import ctypes, errno, fcntl, os, select, socket, struct, sys, time, zlib
ROLE, TOKEN, HOLD = "@ROLE@", "@TOKEN@", @HOLD@
obj = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
KEY = zlib.crc32(TOKEN.encode()) & 0x7FFFFFFF
MQ = ("/casino-" + TOKEN).encode()
MARK = "casino-mark-" + TOKEN
LOCK = struct.Struct("hhqqi4x")
FILES = {"flock": "/usr/bin/env", "posix": "/usr/bin/true", "ofd": "/usr/bin/false"}
SOCKETS = ["/tmp/" + MARK, "/dev/shm/" + MARK]

def send():
    if MARK not in sys.argv:  # a command line the receiver can look for in /proc
        os.execv(sys.executable, [sys.executable, "-S", __file__, obj, MARK])
    held = [os.open(path, os.O_RDONLY) for path in FILES.values()]
    fcntl.flock(held[0], fcntl.LOCK_EX)
    fcntl.fcntl(held[1], fcntl.F_SETLK, LOCK.pack(fcntl.F_RDLCK, 0, 0, 0, 0))
    fcntl.fcntl(held[2], 37, LOCK.pack(fcntl.F_RDLCK, 0, 0, 0, 0))  # F_OFD_SETLK
    servers = []
    for address in ["\0" + MARK, *SOCKETS]:
        try:
            server = socket.socket(socket.AF_UNIX)
            server.bind(address)
            server.listen(8)
            servers.append(server)
        except OSError:
            pass
    shm = libc.shmget(KEY, 4096, 0o1666)  # IPC_CREAT | 0666
    mq = libc.mq_open(MQ, os.O_CREAT | os.O_RDWR, 0o666, None)
    end = time.monotonic() + HOLD
    while time.monotonic() < end:  # reads the receiver's inotify would see
        with open("/usr/bin/env", "rb") as handle:
            handle.read(1)
        time.sleep(0.02)
    if shm >= 0:
        libc.shmctl(shm, 0, None)  # IPC_RMID
    if mq >= 0:
        libc.mq_unlink(MQ)
    for path in SOCKETS:
        try:
            os.unlink(path)
        except OSError:
            pass
    print("yes")

def locked(path, command, pid):
    fd = os.open(path, os.O_RDONLY)
    got = fcntl.fcntl(fd, command, LOCK.pack(fcntl.F_WRLCK, 0, 0, 0, pid))
    return LOCK.unpack(got)[0] != fcntl.F_UNLCK

def look_once():
    if obj == "flock":
        fd = os.open(FILES["flock"], os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
    if obj == "posix":
        return locked(FILES["posix"], fcntl.F_GETLK, 0)
    if obj == "ofd":
        return locked(FILES["ofd"], 36, 0)  # F_OFD_GETLK
    if obj in ("abstract", "filesocket"):
        for address in ["\0" + MARK] if obj == "abstract" else SOCKETS:
            try:
                socket.socket(socket.AF_UNIX).connect(address)
                return True
            except OSError:
                pass
        return False
    if obj == "sysv":
        return libc.shmget(KEY, 0, 0) >= 0
    if obj == "mqueue":
        return libc.mq_open(MQ, os.O_RDONLY) >= 0
    if obj == "proc":
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                words = open(f"/proc/{pid}/cmdline", "rb").read()
            except OSError:
                continue
            if MARK.encode() in words and int(pid) != os.getpid():
                os.kill(int(pid), 0)
                return True
        return False
    raise SystemExit("unknown object " + obj)

def look():
    if obj == "inotify":
        fd = libc.inotify_init1(0)
        if fd < 0:
            print("inotify_init1:", errno.errorcode[ctypes.get_errno()], file=sys.stderr)
            return False
        libc.inotify_add_watch(fd, b"/usr/bin/env", 0x21)  # IN_ACCESS | IN_OPEN
        return bool(select.select([fd], [], [], HOLD)[0])
    end = time.monotonic() + HOLD
    while time.monotonic() < end:
        if look_once():
            return True
        time.sleep(0.05)
    return False

if ROLE == "send":
    send()
else:
    print("yes" if look() else "no")
"""


def write_pair(root: Path, token: str) -> None:
    """The course (one transcript per object) and the two colluding students."""
    for obj in OBJECTS:
        transcript = root / "transcripts" / f"{obj}.yaml"
        transcript.parent.mkdir(parents=True, exist_ok=True)
        text = f'name: {obj}\nargs: [{obj}]\nsteps:\n  - out: "yes\\n"\ntimeout: 40\n'
        transcript.write_text(text, encoding="utf-8")
    for name, role in (("a-sender", "send"), ("b-receiver", "look")):
        folder = root / "submissions" / name
        folder.mkdir(parents=True)
        program = CHANNEL.replace("@ROLE@", role).replace("@TOKEN@", token)
        (folder / "main.py").write_text(program.replace("@HOLD@", str(HOLD)), "utf-8")
        run = 'exec python3 -S "$(dirname "$0")/main.py" "$@"\n'
        (folder / "run.sh").write_text(run, encoding="utf-8")


def grade(root: Path, *more: str, user: int | None = None, pythonpath: str = "") -> None:
    """``casino grade --jobs 2`` on the pair (as ``user`` when given); status 0."""
    python = sys.executable if user is None else "/usr/bin/python3"
    env = dict(os.environ, PYTHONPATH=pythonpath or str(ROOT), XDG_CACHE_HOME=str(root / "c"))
    argv = [python, "-m", "casino", "grade", str(root / "submissions")]
    argv += ["--transcripts", str(root / "transcripts"), "--run", "sh run.sh"]
    argv += ["--out", str(root / "grades"), "--jobs", "2", "--processes", "64", *more]
    if user is not None:
        argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *argv]
        env["HOME"] = str(root)
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert (done.returncode, done.stderr) == (0, "")


def points(root: Path) -> dict[str, dict[str, str]]:
    """Each student's points per object (and ``score``)."""
    with open(root / "grades" / "gradebook.csv", newline="", encoding="utf-8") as handle:
        found = {row["student"]: row for row in csv.DictReader(handle)}
    return {
        name: {key.removesuffix(".yaml"): value for key, value in row.items()}
        for name, row in found.items()
    }


def test_no_object_is_a_channel_graded_as_root(tmp_path: Path) -> None:
    write_pair(tmp_path, tmp_path.name)
    grade(tmp_path)
    graded = points(tmp_path)
    assert graded["a-sender"]["score"] == str(len(OBJECTS))
    assert graded["b-receiver"]["score"] == "0", graded["b-receiver"]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")
def test_no_object_is_a_channel_graded_as_an_ordinary_user() -> None:
    root = Path(tempfile.mkdtemp(prefix="casino-channel-"))
    python = Path(tempfile.mkdtemp(prefix="casino-nobody-"))
    try:
        pythonpath = nobody_pythonpath(python)
        write_pair(root, root.name)
        subprocess.run(["chown", "-R", "65534:65534", str(root)], check=True)
        os.chmod(root, 0o755)
        grade(root, user=65534, pythonpath=pythonpath)
        graded = points(root)
        assert graded["a-sender"]["score"] == str(len(OBJECTS))
        assert graded["b-receiver"]["score"] == "0", graded["b-receiver"]
    finally:
        remove_tree(root)
        remove_tree(python)


@pytest.fixture
def trusted(tmp_path: Path) -> Iterator[dict[str, dict[str, str]]]:
    write_pair(tmp_path, tmp_path.name)
    grade(tmp_path, "--trust-submissions")
    yield points(tmp_path)


def test_unsealed_the_locks_and_inotify_are_channels(trusted: dict[str, dict[str, str]]) -> None:
    """The pair is a real attack: trusted, the receiver reads the sender's locks and reads."""
    assert {obj: trusted["b-receiver"][obj] for obj in LOCKED} == dict.fromkeys(LOCKED, "1")
