"""A memory cgroup per isolated run: all of a run's memory counts, memory files and tmpfs too.

``RLIMIT_DATA`` and ``RLIMIT_AS`` bound each process's own memory, not what it writes to an
anonymous memory file (``memfd_create``), ``/dev/shm``, ``/tmp`` or its run folder (tmpfs all,
so memory), nor the sum over a run's processes. A memory cgroup bounds all of it: every page
the run's processes are charged for (their memory, those files, the page cache they read
through), with ``--memory`` as its limit and no swap beyond it.

Which kind, found once per process (:func:`hierarchy`):

- **cgroup v2** where it is delegated: a child of the grader's own cgroup (or, since a v2
  cgroup that holds processes cannot give controllers to its children, of that cgroup's
  parent, beside it) that casino may write and whose ``cgroup.subtree_control`` holds
  ``memory``; the run's cgroup gets ``memory.max`` = the limit and ``memory.swap.max`` = 0.
- else **cgroup v1** where the memory hierarchy is writable (as root on most machines): a
  child of the grader's own memory cgroup, with ``memory.limit_in_bytes`` and, where the
  kernel has it, ``memory.memsw.limit_in_bytes`` (memory and swap) both the limit.
- else, for an ordinary user, **systemd's delegation**: cgroup v2's
  ``user.slice/user-UID.slice/user@UID.service/`` (the user's own manager's, given to the
  user with ``memory`` among its controllers where systemd delegates it), taken only if a
  process of the grader's can join a cgroup made there (v2 lets a process move only below
  a common ancestor it may write: a grader in a login session's scope cannot, one started
  by ``systemd-run --user`` can), tried by a shell joining one once.
- else none; the summary's ``sandbox:`` line says that memory is not bounded.

How a run gets in (:func:`joined`): the run's command starts with a tiny shell that writes its
own pid into the cgroup's ``cgroup.procs`` and only then ``exec``\\ s bubblewrap, so everything
the run does is counted from its first page, and no code runs between ``fork`` and ``exec`` in
the (threaded) grader. A shell that cannot join ends the run with status 125 and one line.

A run the cgroup's OOM killer stopped (``oom_kill`` in v1's ``memory.oom_control``, v2's
``memory.events``) fails, naming the limit (:meth:`MemoryCgroup.problem`). After the run the
cgroup is removed (:meth:`MemoryCgroup.remove`): any process still in it is killed first, and
that also happens when casino is stopped (Ctrl-C, SIGTERM), since the run's ``with`` unwinds.
A grader killed outright leaves its cgroups behind; the next grader on the machine removes
every empty ``casino-PID-…`` cgroup whose PID no longer runs (:func:`sweep`).
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import secrets
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PREFIX = "casino-"
"""The start of the name of every cgroup casino makes: ``casino-PID-N-TOKEN``."""
REMOVE_SECONDS = 5.0
"""How long removing a run's cgroup may wait for its killed processes to go."""
SWEEP_AGE = 60.0
"""How old a dead grader's empty cgroup must be for :func:`sweep` to remove it."""
JOIN_FAILED = 125
"""The exit status of a run whose shell could not join its cgroup."""
_NAMES = itertools.count()
_MIB = 1 << 20


@dataclass(frozen=True)
class Hierarchy:
    """Where casino makes its runs' memory cgroups."""

    version: int
    """1 or 2."""
    parent: Path
    """The folder the runs' cgroups are made in."""

    def describe(self) -> str:
        """What the summary's ``sandbox:`` line says of it."""
        name = "cgroup v2" if self.version == 2 else "cgroup v1"
        return f"memory cgroup per run ({name}: memory files, tmpfs, /dev/shm, page cache count)"


def describe() -> str:
    """The summary's words for the memory cgroup in effect, or for there being none."""
    found = hierarchy()
    if found is not None:
        return found.describe()
    return "no memory cgroup (memory not bounded: tmpfs, memory files, the sum of processes)"


@lru_cache(maxsize=1)
def hierarchy() -> Hierarchy | None:
    """Where this process can make memory cgroups, tried once (``None``: nowhere)."""
    mounts = _mounts()
    own = _own_cgroups()
    for found in (_v2(mounts, own), _v1(mounts, own)):
        if found is not None and _can_make(found):
            return found
    found = _user_delegated(mounts, os.getuid())
    return found if found is not None and _can_make(found, join=True) else None


def _mounts() -> list[tuple[str, str, str]]:
    """``(mount point, type, super options)`` of every cgroup file system."""
    found = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            left, _, right = line.partition(" - ")
            fields, rest = left.split(), right.split()
            if len(fields) > 4 and len(rest) > 2 and rest[0] in ("cgroup", "cgroup2"):
                found.append((fields[4], rest[0], rest[2]))
    return found


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup per controller list (``""`` for v2), from ``/proc/self/cgroup``."""
    own = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            own[controllers] = path
    return own


def _v2(mounts: list[tuple[str, str, str]], own: dict[str, str]) -> Hierarchy | None:
    point = next((m for m, kind, _ in mounts if kind == "cgroup2"), None)
    if point is None or "" not in own:
        return None
    mine = Path(point + own[""].rstrip("/"))
    for folder in (mine, mine.parent):
        try:
            delegated = "memory" in (folder / "cgroup.subtree_control").read_text().split()
        except OSError:
            continue
        if delegated and os.access(folder, os.W_OK):
            return Hierarchy(2, folder)
    return None


def _user_delegated(mounts: list[tuple[str, str, str]], uid: int) -> Hierarchy | None:
    """An ordinary user's cgroup v2 that systemd delegates (``user@UID.service``), if it has
    ``memory`` among its children's controllers and the user may write it."""
    point = next((m for m, kind, _ in mounts if kind == "cgroup2"), None)
    if point is None or uid == 0:
        return None
    folder = Path(point, "user.slice", f"user-{uid}.slice", f"user@{uid}.service")
    try:
        delegated = "memory" in (folder / "cgroup.subtree_control").read_text().split()
    except OSError:
        return None
    return Hierarchy(2, folder) if delegated and os.access(folder, os.W_OK) else None


def _v1(mounts: list[tuple[str, str, str]], own: dict[str, str]) -> Hierarchy | None:
    point = next(
        (m for m, k, opts in mounts if k == "cgroup" and "memory" in opts.split(",")), None
    )
    path = next((p for names, p in own.items() if "memory" in names.split(",")), None)
    if point is None or path is None:
        return None
    folder = Path(point + path.rstrip("/"))
    return Hierarchy(1, folder) if os.access(folder, os.W_OK) else None


def _can_make(found: Hierarchy, join: bool = False) -> bool:
    """Whether a cgroup with a memory limit can be made there (one made and removed); with
    ``join``, also joined by a shell of the grader's, as a run's is."""
    try:
        group = MemoryCgroup.make(found, 64 * _MIB)
    except OSError:
        return False
    with group:
        if not join:
            return True
        try:
            done = subprocess.run(group.joined(["true"]), capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0


class MemoryCgroup:
    """One run's memory cgroup (see the module's text). Made by :meth:`make`; removed by
    :meth:`remove` (or as a context manager)."""

    def __init__(self, found: Hierarchy, path: Path, limit: int) -> None:
        """The cgroup at ``path`` (already made) in ``found``, of ``limit`` bytes."""
        self.hierarchy = found
        self.path = path
        self.limit = limit

    @classmethod
    def make(cls, found: Hierarchy, limit: int) -> MemoryCgroup:
        """A new cgroup of ``limit`` bytes in ``found`` (``OSError`` if it cannot be made)."""
        sweep(found)
        name = f"{PREFIX}{os.getpid()}-{next(_NAMES)}-{secrets.token_hex(4)}"
        path = found.parent / name
        path.mkdir()
        group = cls(found, path, limit)
        try:
            group._set_limit()
        except OSError:
            group.remove()
            raise
        return group

    @classmethod
    def for_run(cls, limit: int | None) -> MemoryCgroup | None:
        """A run's cgroup of ``limit`` bytes where the machine allows one (else ``None``)."""
        found = hierarchy()
        if found is None or limit is None:
            return None
        try:
            return cls.make(found, limit)
        except OSError:
            return None

    def _set_limit(self) -> None:
        if self.hierarchy.version == 2:
            _write(self.path / "memory.max", self.limit)
            with contextlib.suppress(FileNotFoundError):  # a kernel without swap accounting
                _write(self.path / "memory.swap.max", 0)
            return
        _write(self.path / "memory.limit_in_bytes", self.limit)
        with contextlib.suppress(FileNotFoundError):  # a kernel without swap accounting
            _write(self.path / "memory.memsw.limit_in_bytes", self.limit)

    @property
    def procs(self) -> Path:
        """The file a process writes its pid to, to join."""
        return self.path / "cgroup.procs"

    def joined(self, argv: list[str]) -> list[str]:
        """``argv`` started by a shell that first joins this cgroup (see the module's text)."""
        script = (
            f"{{ echo $$ >{shlex.quote(str(self.procs))}; }} 2>/dev/null || "
            f"{{ echo 'casino: could not join the run'\"'\"'s memory cgroup' >&2; "
            f'exit {JOIN_FAILED}; }}; exec "$@"'
        )
        return ["/bin/sh", "-c", script, "sh", *argv]

    def oom_kills(self) -> int:
        """How many processes of the run its OOM killer has killed."""
        name = "memory.events" if self.hierarchy.version == 2 else "memory.oom_control"
        try:
            text = (self.path / name).read_text()
        except OSError:
            return 0
        found = re.search(r"^oom_kill (\d+)$", text, re.MULTILINE)
        return int(found.group(1)) if found else 0

    def problem(self) -> str | None:
        """Why the run failed, if its cgroup's OOM killer stopped it."""
        if not self.oom_kills():
            return None
        return over_memory(self.limit)

    def remove(self) -> None:
        """Kill whatever is still in the cgroup, then remove it (waiting at most
        :data:`REMOVE_SECONDS`; one left behind is removed by a later :func:`sweep`)."""
        _remove(self.path)

    def __enter__(self) -> MemoryCgroup:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


def over_memory(limit: int) -> str:
    """The problem of a run stopped by its memory cgroup."""
    return (
        f"stopped: it used more than its {limit // _MIB:,} MiB of memory (--memory; "
        "memory files, /tmp, /dev/shm and its run folder count)"
    )


def _write(path: Path, value: int) -> None:
    with open(path, "w") as handle:
        handle.write(str(value))


def _remove(path: Path) -> None:
    deadline = time.monotonic() + REMOVE_SECONDS
    while True:
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError as error:  # busy: processes are still in it (else give up)
            if error.errno != errno.EBUSY or time.monotonic() > deadline:
                return
        _kill_all(path)
        time.sleep(0.01)


def _kill_all(path: Path) -> None:
    """SIGKILL every process in the cgroup at ``path``."""
    with contextlib.suppress(OSError):
        for word in (path / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(word), signal.SIGKILL)


def sweep(found: Hierarchy) -> None:
    """Remove the empty cgroups casino made in ``found`` whose grader (``casino-PID-…``) is
    gone, made more than :data:`SWEEP_AGE` seconds ago (a grader in another PID namespace may
    be about to join one it just made; a cgroup that still holds processes is left alone)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(found.parent):
            pid = re.fullmatch(rf"{PREFIX}(\d+)-.*", entry.name)
            if pid and entry.is_dir() and not _alive(int(pid.group(1))):
                with contextlib.suppress(OSError):  # only empty ones, made a while ago
                    if time.time() - entry.stat().st_mtime > SWEEP_AGE:
                        os.rmdir(entry.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
