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

The run folder that comes back (:class:`RunFolder`, :data:`ROUND_TRIP`, :data:`DISK_BYTES`,
:data:`RUN_UID_BASE`) is :mod:`casino.harness.runners.runfolder`'s; the network namespace
(:func:`network_isolation_works`) :mod:`casino.harness.runners.netns`'s.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from casino.harness.runners import seccomp
from casino.harness.runners.netns import libc_unshare, unshare_network
from casino.harness.runners.runfolder import (
    BACK_FILES,
    COPY_IN,
    DISK_BYTES,
    RunFolder,
    next_run_uid,
    round_trip,
)


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
        unshare = libc_unshare() if self.isolate_network and not self.isolate else None
        uid, gid = os.geteuid(), os.getegid()
        user = None if self.isolate else self.user

        def apply() -> None:
            for kind, value in limits:
                with contextlib.suppress(ValueError, OSError):
                    resource.setrlimit(kind, (value, value))
            if unshare is not None:
                unshare_network(unshare, uid, gid)
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
        own: Mapping[str, str] | None = None,
    ) -> tuple[list[str], dict[str, str]]:
        """The argv and environment that run ``argv`` in its own sandbox when :attr:`isolate`
        (else unchanged): see :func:`confine`."""
        if not self.isolate:
            return list(argv), dict(env)
        return confine(argv, env, cwd, program_dir, self, back, own)


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


AS_ALLOWANCE = 512 << 20
"""Address space an isolated run gets beyond ``memory`` (code, libraries, thread stacks)."""
SANDBOX_UID = 1000
"""The uid (and gid) a program has inside its sandbox."""
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


def confine(
    argv: Sequence[str],
    env: Mapping[str, str],
    cwd: Path,
    program_dir: Path | None,
    sandbox: Sandbox,
    back: RunFolder | None = None,
    own: Mapping[str, str] | None = None,
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
    Its environment is the few :data:`KEPT_ENV` of ``env`` and ``own``, the variables its
    command needs (``PYTHONPATH``: the submission's folder, for ``python3 -m pkg``).
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
    return command, {**_clean_env(env, cwd, sandbox), **(own or {})}


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
