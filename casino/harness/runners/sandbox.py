"""The sandbox each run of a student's program gets: limits, and isolation from the machine.

A :class:`Sandbox` is what a grader allows each run of a student's program beyond the limits
every run has anyway (:class:`~casino.harness.runners.base.Limits`: time, output): CPU
seconds, memory, address space, processes, the size of a file it writes, no core dumps, and
isolation (``isolate``), and no network (``isolate_network``). The pipe and pty
runners set the resource limits in the child between ``fork`` and ``exec``
(:meth:`Sandbox.preexec`), so the program and everything it starts inherit them; the
in-process runner (casino's own programs) ignores the sandbox.

- ``isolate`` (``casino grade`` unless ``--trust-submissions``): the program runs in a sandbox
  of its own made with bubblewrap (``bwrap``, :func:`confine`): new PID, mount, network, IPC
  and UTS namespaces; a file system holding only ``/usr`` and a few files of ``/etc``
  read-only, its submission read-only, its run folder as a size-capped tmpfs (``disk``,
  copied in and back: :class:`RunFolder`) and size-capped private ``/tmp`` and ``/dev/shm``;
  as a uid that is not the grader's; with its processes counted per run (``RLIMIT_NPROC`` set
  inside its own user namespace, or for its own uid when grading as root) and an address
  space of ``memory`` + :data:`AS_ALLOWANCE`, which counts shared memory. :func:`isolation_works`
  tells whether this machine allows it.
- ``memory`` is ``RLIMIT_DATA``: what a program really allocates (heap, private writable
  mappings). Not isolated, ``address_space`` (``RLIMIT_AS``) is off unless asked for, since a
  JVM reserves several GB of address space it never uses and would not start under a
  sensible one (isolated, the JVM is told to fit: :func:`java_options`).
- Not isolated, ``processes`` counts *in addition* to the processes the user already has,
  because ``RLIMIT_NPROC`` counts all of the user's processes (and threads); the kernel does
  not apply it to root at all (:func:`processes_enforced`).
- ``isolate_network``: a new, empty network namespace. Isolated, bubblewrap's
  (``--unshare-net``); else ``unshare(CLONE_NEWNET)``, plus a user namespace that maps the user
  to itself when not root, the kernel call behind ``unshare --net``: use
  :func:`network_isolation_works` first; where the system does not allow it, the run goes
  ahead with the network.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import itertools
import os
import re
import resource
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from casino.harness.runners import seccomp
from casino.harness.runners.cgroup import MemoryCgroup
from casino.harness.runners.folders import empty_folder, make_folders

CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
BACK_FILES = 1_000
"""How many files and folders a run may leave in its folder unless told (a build: as many as
a submission may hold): beyond that nothing comes back and the run fails, naming the limit.
Each file that comes back costs the grader a file written (about 1 ms on a busy machine)."""


@dataclass(frozen=True)
class Sandbox:
    """Limits for each run (``None``: not limited)."""

    cpu_seconds: int | None = None
    memory: int | None = None
    """Bytes of data (``RLIMIT_DATA``)."""
    address_space: int | None = None
    """Bytes of address space (``RLIMIT_AS``)."""
    processes: int | None = None
    """Processes and threads beyond those the user already has (``RLIMIT_NPROC``)."""
    file_size: int | None = None
    """Bytes of the largest file it may write (``RLIMIT_FSIZE``)."""
    isolate_network: bool = False
    isolate: bool = False
    """Run each program in a sandbox of its own (:func:`confine`; bubblewrap)."""
    disk: int | None = None
    """Bytes an isolated run's folder may hold in all (:data:`DISK_BYTES` if not given)."""
    back_files: int = BACK_FILES
    """Files and folders an isolated run may leave in its folder (:class:`RunFolder`)."""
    paths: tuple[str, ...] = ()
    """Folders of the machine an isolated run also sees, read-only, each at its own path
    (``--sandbox-path``: a JDK in ``/opt``, a virtualenv); each one's ``bin`` is on its
    ``PATH`` after :data:`SAFE_PATH`."""
    user: int | None = None
    """Not isolated, run as this uid (and gid) instead of the grader's, no supplementary
    groups, owning its run folder (given to it just before it starts): the fallback where
    a root grader cannot make a sandbox (a Gradescope container), so that the program cannot
    read what only root may (the transcripts). Needs root; ignored when :attr:`isolate`."""

    @property
    def search_path(self) -> str:
        """The ``PATH`` an isolated run has: :data:`SAFE_PATH`, then each of :attr:`paths`'s
        ``bin`` folders (or the folder itself when it has none)."""
        extra = [p if not os.path.isdir(os.path.join(p, "bin")) else f"{p}/bin" for p in self.paths]
        return ":".join([SAFE_PATH, *extra])

    def shows(self, path: str | Path) -> bool:
        """Whether an isolated run sees ``path`` (a path of the machine, as written: not
        resolved) through ``/usr``, the system folders, the files of ``/etc`` it is shown
        (:data:`ETC_FILES`, ``/etc/java*``) or :attr:`paths`."""
        where = Path(os.path.abspath(path))
        etc = [Path("/etc", name) for name in ETC_FILES] + list(Path("/etc").glob("java*"))
        roots = [Path("/usr"), *map(Path, SYSTEM_DIRS), *etc, *map(Path, self.paths)]
        return any(root in (where, *where.parents) for root in roots)

    def preexec(self) -> Callable[[], None]:
        """The function to call in the child before ``exec``: computed here, in the parent,
        so the child only makes system calls."""
        limits = self.rlimits()
        unshare = _libc_unshare() if self.isolate_network and not self.isolate else None
        uid, gid = os.geteuid(), os.getegid()
        user = None if self.isolate else self.user

        def apply() -> None:
            for kind, value in limits:
                with contextlib.suppress(ValueError, OSError):
                    resource.setrlimit(kind, (value, value))
            if unshare is not None:
                _unshare_network(unshare, uid, gid)
            if user is not None:  # a failure here fails the start: never run as root
                _give(Path(os.getcwd()), user)
                os.setgroups([])
                os.setgid(user)
                os.setuid(user)

        return apply

    def rlimits(self) -> list[tuple[int, int]]:
        """The ``(RLIMIT_…, value)`` pairs to set (``RLIMIT_CORE`` is always 0), each at most
        the hard limit this process already has (a limit can only be lowered)."""
        return [(kind, _within_hard(kind, value)) for kind, value in self._wanted()]

    def _wanted(self) -> list[tuple[int, int]]:
        pairs = [(resource.RLIMIT_CORE, 0)]
        if self.cpu_seconds is not None:
            pairs.append((resource.RLIMIT_CPU, self.cpu_seconds))
        if self.memory is not None:
            pairs.append((resource.RLIMIT_DATA, self.memory))
        if self.total_memory is not None:
            pairs.append((resource.RLIMIT_AS, self.total_memory))
        if self.file_size is not None and not self.isolate:  # isolated: set inside (confine)
            pairs.append((resource.RLIMIT_FSIZE, self.file_size))
        if self.processes is not None and not self.isolate:
            pairs.append((resource.RLIMIT_NPROC, user_processes() + self.processes))
        return pairs

    def status(self, code: int | None) -> int | None:
        """A program's exit status as the runner saw it, as the program ended: isolated, a
        program killed by signal N comes back as status 128 + N (bubblewrap reports it so,
        as a shell does), so 129–159 are taken for that signal (negative), as a shell would;
        a program that exits with such a status itself cannot be told apart."""
        if self.isolate and code is not None and 128 < code < 160:
            return 128 - code
        return code

    @property
    def disk_bytes(self) -> int:
        """What an isolated run's folder may hold in all."""
        return self.disk or DISK_BYTES

    @property
    def total_memory(self) -> int | None:
        """The address space allowed (``RLIMIT_AS``): ``address_space`` if given; isolated,
        ``memory`` + :data:`AS_ALLOWANCE` by default, so that shared memory counts too."""
        if self.address_space is not None or not self.isolate or self.memory is None:
            return self.address_space
        return self.memory + AS_ALLOWANCE

    def confine(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: Path,
        program_dir: Path | None,
        back: RunFolder | None = None,
    ) -> tuple[list[str], dict[str, str]]:
        """The argv and environment that run ``argv`` in its own sandbox when :attr:`isolate`
        (else unchanged): see :func:`confine`."""
        if not self.isolate:
            return list(argv), dict(env)
        return confine(argv, env, cwd, program_dir, self, back)


def _within_hard(kind: int, value: int) -> int:
    hard = resource.getrlimit(kind)[1]
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


def processes_enforced() -> bool:
    """Whether ``RLIMIT_NPROC`` binds programs started by this process (never for root)."""
    return os.geteuid() != 0


def user_processes() -> int:
    """How many processes (threads included) this user has now, from ``/proc``."""
    me, count = os.geteuid(), 0
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if entry.stat().st_uid == me:
                        count += len(os.listdir(f"/proc/{entry.name}/task"))
    return count


UnshareCall = Callable[[int], int]


def _libc_unshare() -> UnshareCall | None:
    """libc's ``unshare`` (``None`` where there is none)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        call: UnshareCall = ctypes.CDLL(None, use_errno=True).unshare
    except (OSError, AttributeError):
        return None
    return call


def _unshare_network(unshare: UnshareCall, uid: int, gid: int) -> bool:
    """Move this process into a new network namespace (with a user namespace mapping ``uid``
    and ``gid`` to themselves when not root); whether it worked."""
    if uid == 0:
        return unshare(CLONE_NEWNET) == 0
    if unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
        return False
    try:
        for name, text in (
            ("setgroups", "deny"),
            ("uid_map", f"{uid} {uid} 1"),
            ("gid_map", f"{gid} {gid} 1"),
        ):
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)
    except OSError:
        return False
    return True


def network_isolation_works() -> bool:
    """Whether this system lets casino start a program without network (tried once in a
    forked child, which only makes the call and exits)."""
    unshare = _libc_unshare()
    if unshare is None:
        return False
    uid, gid = os.geteuid(), os.getegid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os._exit(0 if _unshare_network(unshare, uid, gid) else 1)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


AS_ALLOWANCE = 512 << 20
"""Address space an isolated run gets beyond ``memory`` (code, libraries, thread stacks)."""
SANDBOX_UID = 1000
"""The uid (and gid) a program has inside its sandbox."""
RUN_UID_BASE = 0x40000000
"""Grading as root, each run's uid on the machine is this + a number of its own
(:func:`next_run_uid`): a uid no account has, not root's, different for every run going on
at once and for each run of one grading process."""
RUNS_PER_PROCESS = 512
"""How many runs of one grading process have uids of their own before the first comes back."""
TMP_BYTES = 64 << 20
"""The size of an isolated run's private ``/tmp`` and ``/dev/shm`` (when ``file_size`` is
not set)."""
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Top-level folders that are links into ``/usr`` (merged ``/usr``) or folders of their own."""
ETC_FILES = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime")
"""What of ``/etc`` a program sees (read-only), besides Java's ``/etc/java-*`` folders."""
KEPT_ENV = ("LANG", "TZ", "TERM", "CLASSPATH", "CASINO_SEED")
"""The environment variables a sandboxed program gets from the grader's (a fixed list: not
the grader's ``PYTHON*``, ``LC_*`` or ``LANGUAGE``); nothing else of the grader's environment
reaches it."""
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"


def exec_error(
    program: str, folders: Sequence[Path], sandbox: Sandbox | None = None
) -> OSError | None:
    """Why the sandbox could not start ``program`` (a path, or a name looked up on its
    ``PATH``), found out before it is asked to: it sees only ``/usr``, the system folders,
    the sandbox's :attr:`~Sandbox.paths` and ``folders`` (the submission, the run folder).
    ``None``: it can."""
    sandbox = sandbox or Sandbox()
    found = program if "/" in program else shutil.which(program, path=sandbox.search_path)
    path = Path(found) if found else None
    roots = [Path("/usr"), *map(Path, SYSTEM_DIRS), *map(Path, sandbox.paths), *folders]
    if path is None or not path.exists() or not any(r in (path, *path.parents) for r in roots):
        return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
    if path.is_dir() or not os.access(path, os.X_OK):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), program)
    return None


def java_options(sandbox: Sandbox) -> str | None:
    """``JAVA_TOOL_OPTIONS`` for a run whose address space is limited: a JVM otherwise
    reserves more address space than the limit (1 GiB for classes alone) and does not start."""
    total = sandbox.total_memory
    if total is None:
        return None
    heap = max(16, min(sandbox.memory or total, total) // 2 >> 20)
    return (
        f"-Xmx{heap}m -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=64m "
        "-XX:+UseSerialGC -Xss1m"
    )


def quiet(stderr: str) -> str:
    """``stderr`` without the line a JVM prints about :func:`java_options` (the sandbox's
    doing, not the program's)."""
    if "Picked up JAVA_TOOL_OPTIONS: " not in stderr:
        return stderr
    lines = stderr.splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith("Picked up JAVA_TOOL_OPTIONS: "))


def confine(
    argv: Sequence[str],
    env: Mapping[str, str],
    cwd: Path,
    program_dir: Path | None,
    sandbox: Sandbox,
    back: RunFolder | None = None,
) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that run ``argv`` in a bubblewrap sandbox of its own.

    It sees ``/usr`` and :data:`ETC_FILES` read-only, ``program_dir`` (its submission)
    read-only, ``cwd`` (its run folder) read-write, each at its own path, fresh ``/proc``,
    ``/dev``, and size-capped ``/tmp`` and ``/dev/shm``; nothing else of the machine. New PID,
    mount, network, IPC, UTS and cgroup namespaces; its own session. Its processes are counted
    per run: ``RLIMIT_NPROC`` is set inside its user namespace (or, grading as root, for a uid
    of its own, :data:`RUN_UID_BASE` + pid, which owns ``cwd`` for the run).

    With ``back`` (:class:`RunFolder`), the run folder is a tmpfs of ``disk`` bytes at
    ``cwd``'s path: ``cwd``'s files are copied in at the start, and what it holds at the end
    goes back through ``back`` (:data:`ROUND_TRIP`), so a run cannot write more than that in
    all. Without, ``cwd`` itself is bound read-write. With ``back`` and its memory cgroup
    (:mod:`~casino.harness.runners.cgroup`), the run joins that cgroup before bubblewrap starts.
    """
    bwrap = shutil.which("bwrap") or "bwrap"
    size = str(sandbox.file_size or TMP_BYTES)
    words = [bwrap, "--die-with-parent", "--new-session"]
    words += ["--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    if sandbox.isolate_network:
        words.append("--unshare-net")
    words += ["--unshare-cgroup-try", "--hostname", "sandbox"]
    root = os.geteuid() == 0
    if root:
        words += ["--cap-add", "CAP_SETUID,CAP_SETGID"]
    else:
        words += _own_user()
    words += ["--ro-bind", "/usr", "/usr", *_system_dirs(), "--perms", "0755", "--dir", "/etc"]
    words += [*_etc(), "--proc", "/proc", "--dev", "/dev"]
    for tmpfs in ("/tmp", "/dev/shm"):
        words += ["--perms", "1777", "--size", size, "--tmpfs", tmpfs]
    for path in sandbox.paths:
        words += [*_folders_to(Path(path)), "--ro-bind", path, path]
    if program_dir is not None and program_dir.resolve() != cwd.resolve():
        words += [*_folders_to(program_dir), "--ro-bind", str(program_dir), str(program_dir)]
    words += _folders_to(cwd)
    if back is None:
        words += ["--bind", str(cwd), str(cwd)]
    else:
        words += [*_folders_to(Path(COPY_IN)), "--ro-bind", str(cwd), COPY_IN]
        words += ["--perms", "1777", "--size"]
        words += [str(sandbox.disk_bytes), "--tmpfs", str(cwd)]
    words += ["--chdir", str(cwd), "--"]
    if root:
        uid = str(back.uid if back is not None else next_run_uid())
        _give(cwd, int(uid))
        words += [_tool("setpriv"), "--reuid", uid, "--regid", uid, "--clear-groups"]
        words += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        words += [bwrap, *_own_user(), "--dev-bind", "/", "/", "--chdir", str(cwd), "--"]
    if back is not None:
        words += ["/bin/sh", "-c", round_trip(back.fd, back.files), "sh"]
    command = [*_with_filter(words), *_limited(argv, sandbox)]
    if back is not None and back.cgroup is not None:
        command = back.cgroup.joined(command)
    return command, _clean_env(env, cwd, sandbox)


def _own_user() -> list[str]:
    """bubblewrap's words for a user namespace of the run's own (uid :data:`SANDBOX_UID`
    inside), no further user namespace in it, and the seccomp filter (:mod:`seccomp`) on
    :data:`FILTER_FD`: the innermost bubblewrap's (grading as root, a second bubblewrap
    started as the run's own uid inside the first one)."""
    words = ["--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    if _bwrap_knows("--disable-userns"):
        words.append("--disable-userns")
    if seccomp.filter_path() is not None:
        words += ["--seccomp", str(FILTER_FD)]
    return words


def _with_filter(words: list[str]) -> list[str]:
    """``words`` started by a shell that opens the seccomp filter on :data:`FILTER_FD`
    (afresh for each run: bubblewrap reads it to its end)."""
    path = seccomp.filter_path()
    if path is None:
        return words
    return ["/bin/sh", "-c", f'exec "$@" {FILTER_FD}<{path}', "sh", *words]


FILTER_FD = 9
"""The file descriptor a run's bubblewrap reads its seccomp filter from."""


@lru_cache(maxsize=8)
def _bwrap_knows(option: str) -> bool:
    """Whether this machine's bubblewrap has ``option`` (``--disable-userns``: 0.8.0 on)."""
    try:
        done = subprocess.run(
            [shutil.which("bwrap") or "bwrap", "--help"], capture_output=True, check=False
        )
    except OSError:
        return False
    return option.encode() in done.stdout + done.stderr


def _limited(argv: Sequence[str], sandbox: Sandbox) -> list[str]:
    """``argv`` under the limits set inside the sandbox, for the program alone: processes
    (counted in its own user namespace) and file size (not the copying in and out)."""
    limits = []
    if sandbox.processes is not None:  # each at most the hard limit there is already
        limits.append(f"--nproc={_within_hard(resource.RLIMIT_NPROC, sandbox.processes)}")
    if sandbox.file_size is not None:
        limits.append(f"--fsize={_within_hard(resource.RLIMIT_FSIZE, sandbox.file_size)}")
    return [_tool("prlimit"), *limits, "--", *argv] if limits else list(argv)


COPY_IN = "/run/casino-in"
"""Where an isolated run sees its run folder's files, read-only, to copy them in."""
DISK_BYTES = 256 << 20
"""What an isolated run's folder may hold in all unless told."""
TOO_MANY = b"casino: too many files\n"
"""What a run's folder sends back instead of a tar when it holds more than :data:`BACK_FILES`."""
ROUND_TRIP = f"""cp -pR {COPY_IN}/. . 2>/dev/null
"$@"
status=$?
if [ "$(find . -xdev 2>/dev/null | head -n LIMIT2 | wc -l)" -gt LIMIT1 ]
then printf '{TOO_MANY.decode().strip()}\\n' >/proc/self/fd/FD
else tar -cf /proc/self/fd/FD . 2>/dev/null
fi
exit $status"""
"""The shell that runs a program in a run folder of its own: copy the files in, run it, send
the folder back as a tar through the grader's file descriptor FD (or :data:`TOO_MANY` when it
holds more than LIMIT files and folders, counted before a byte of tar is written), and end
with its status (see :func:`round_trip`)."""


def round_trip(fd: int, files: int) -> str:
    """:data:`ROUND_TRIP` for file descriptor ``fd`` and at most ``files`` files."""
    words = {"FD": fd, "LIMIT2": files + 2, "LIMIT1": files + 1}
    return re.sub(r"\b(FD|LIMIT2|LIMIT1)\b", lambda m: str(words[m.group(1)]), ROUND_TRIP)


def too_many_files(files: int = BACK_FILES) -> str:
    """The problem of a run that left more than ``files`` files in its folder."""
    return f"stopped: it left more than {files:,} files and folders in its run folder"


def too_many_bytes(limit: int) -> str:
    """The problem of a run whose folder came back with more than ``limit`` bytes."""
    return f"stopped: its run folder came back with more than {limit:,} bytes"


class RunFolder:
    """The way an isolated run's folder comes back: a tar written by :data:`ROUND_TRIP` to an
    unlinked file of the grader's (at most about ``disk`` bytes: it is the tmpfs's content),
    unpacked into the run folder by :meth:`collect`. It also holds what else is the run's own:
    its uid and its memory cgroup. Use it as a context manager around the run."""

    def __init__(
        self,
        cwd: Path,
        disk: int = DISK_BYTES,
        files: int = BACK_FILES,
        memory: int | None = None,
    ) -> None:
        """A fresh, empty file for ``cwd``'s run, which may hold ``disk`` bytes and ``files``
        files and folders, and a memory cgroup of ``memory`` bytes where the machine allows
        one (:meth:`MemoryCgroup.for_run`)."""
        self.cwd = cwd
        self.disk = disk
        self.files = files
        self.cgroup = MemoryCgroup.for_run(memory)
        """The run's memory cgroup (``None``: none)."""
        self.fd, path = tempfile.mkstemp(prefix="casino-back-")
        os.unlink(path)
        self.uid = next_run_uid()
        """Grading as root, the run's uid on the machine (see :func:`next_run_uid`)."""
        if os.geteuid() == 0:
            os.fchown(self.fd, self.uid, self.uid)

    def __enter__(self) -> RunFolder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        try:
            if self.cgroup is not None:
                self.cgroup.remove()
        finally:
            os.close(self.fd)

    def collect(self) -> str | None:
        """Put what the run left in its folder into ``cwd``; the problem if it left more than
        it may (``files`` files and folders, ``disk`` bytes), and then nothing
        changes, as when it sent nothing back (it was stopped before its end).

        The tar is read as a stream, one file at a time, and its headers are checked before
        anything is unpacked: the grader's time and memory stay bounded by the limits,
        whatever the run left.

        A run its memory cgroup stopped fails so (:meth:`MemoryCgroup.problem`), its folder
        not collected."""
        stopped = self.cgroup.problem() if self.cgroup is not None else None
        if stopped is not None:
            return stopped
        size = os.fstat(self.fd).st_size
        if os.pread(self.fd, len(TOO_MANY), 0) == TOO_MANY:
            return too_many_files(self.files)
        if not size or size % 512 or os.pread(self.fd, 1024, size - 1024) != bytes(1024):
            return None  # nothing sent, or not all of it (a tar ends with two empty blocks)
        try:
            problem = self._check()
            if problem is None:
                self._unpack_all()
        except (tarfile.TarError, OSError, EOFError):
            return None
        return problem

    @contextlib.contextmanager
    def _archive(self) -> Iterator[tarfile.TarFile]:
        """The tar, read from its start as a stream."""
        os.lseek(self.fd, 0, os.SEEK_SET)
        with (
            os.fdopen(os.dup(self.fd), "rb") as stream,
            tarfile.open(fileobj=stream, mode="r|") as archive,
        ):
            yield archive

    def _check(self) -> str | None:
        """Count the files and bytes of the tar (its headers only)."""
        files = total = 0
        with self._archive() as archive:
            for member in archive:
                files += member.name.strip("/") not in ("", ".")  # not the folder itself
                total += member.size if member.isfile() else 0
                if files > self.files:
                    return too_many_files(self.files)
                if total > self.disk:
                    return too_many_bytes(self.disk)
        return None

    def _unpack_all(self) -> None:
        empty_folder(self.cwd)
        with self._archive() as archive:
            for member in archive:
                _unpack(archive, member, self.cwd)


def _unpack(archive: tarfile.TarFile, member: tarfile.TarInfo, cwd: Path) -> None:
    """One regular file or folder of ``archive`` into ``cwd`` (anything else, and any name
    leaving ``cwd``, is left out)."""
    parts = [part for part in member.name.split("/") if part not in ("", ".")]
    if not parts or ".." in parts or not (member.isfile() or member.isdir()):
        return
    target = cwd.joinpath(*parts)
    if member.isdir():
        make_folders(cwd, target)
        return
    make_folders(cwd, target.parent)
    source = archive.extractfile(member)
    if source is not None:
        target.write_bytes(source.read())
        target.chmod(0o755 if member.mode & 0o100 else 0o644)


_RUNS = itertools.count()


def next_run_uid() -> int:
    """A fresh uid for the next run when grading as root: :data:`RUN_UID_BASE` + this
    process's id (22 bits, Linux's largest) × :data:`RUNS_PER_PROCESS` + this run's number
    modulo :data:`RUNS_PER_PROCESS`, so that no two runs going on at once share one (a
    process's runs follow each other; a run's processes all end with it)."""
    pid = os.getpid() & ((1 << 22) - 1)
    return RUN_UID_BASE + pid * RUNS_PER_PROCESS + next(_RUNS) % RUNS_PER_PROCESS


def _tool(name: str) -> str:
    return shutil.which(name, path="/usr/bin:/bin:/usr/sbin:/sbin") or f"/usr/bin/{name}"


def _system_dirs() -> list[str]:
    words = []
    for name in SYSTEM_DIRS:
        if os.path.islink(name):
            words += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            words += ["--ro-bind", name, name]
    return words


MOUNTED = frozenset({"/", "/tmp", "/dev", "/usr", "/etc", "/proc"})
"""Folders the sandbox has made before its binds."""


def _folders_to(path: Path) -> list[str]:
    """Make the folders above ``path`` inside the sandbox, each one that anyone may enter
    (and nothing else in them): bubblewrap would make them for root alone."""
    words = []
    for folder in reversed(path.parents):
        if str(folder) not in MOUNTED:
            words += ["--perms", "0755", "--dir", str(folder)]
    return words


def _etc() -> list[str]:
    words = []
    names = [*ETC_FILES, *(p.name for p in Path("/etc").glob("java*"))]
    for name in sorted(set(names)):
        words += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return words


def _clean_env(env: Mapping[str, str], cwd: Path, sandbox: Sandbox) -> dict[str, str]:
    kept = {key: value for key, value in env.items() if key in KEPT_ENV}
    kept.update(PATH=sandbox.search_path, HOME=str(cwd), TMPDIR="/tmp", MALLOC_ARENA_MAX="2")
    options = java_options(sandbox)
    if options is not None:
        kept["JAVA_TOOL_OPTIONS"] = options
    return kept


def _give(folder: Path, uid: int) -> None:
    """Make ``uid`` the owner of ``folder`` and everything in it (links not followed)."""
    todo = [str(folder)]
    while todo:
        here = todo.pop()
        with contextlib.suppress(OSError):
            os.lchown(here, uid, uid)
            if stat.S_ISDIR(os.lstat(here).st_mode):
                todo += [os.path.join(here, name) for name in os.listdir(here)]


@lru_cache(maxsize=1)
def isolation_works() -> bool:
    """Whether this machine can run a program in :func:`confine`'s sandbox (tried once)."""
    if not sys.platform.startswith("linux") or shutil.which("bwrap") is None:
        return False
    probe = Path(tempfile.mkdtemp(prefix="casino-probe-"))
    try:
        sandbox = Sandbox(isolate=True, isolate_network=True)
        argv, env = confine(["/bin/sh", "-c", "exit 0"], {}, probe, None, sandbox)
        done = subprocess.run(argv, env=env, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    return done.returncode == 0
