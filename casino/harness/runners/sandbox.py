"""Resource limits set in a program's own process, just before it starts (``preexec_fn``).

A :class:`Sandbox` is what a grader allows each run of a student's program beyond the limits
every run has anyway (:class:`~casino.harness.runners.base.Limits`: time, output): CPU
seconds, memory, address space, processes, the size of a file it writes, no core dumps, and
optionally no network. The pipe and pty runners apply it in the child between ``fork`` and
``exec`` (:meth:`Sandbox.preexec`), so the program and everything it starts inherit it; the
in-process runner (casino's own programs) ignores it.

- ``memory`` is ``RLIMIT_DATA``: what a program really allocates (heap, private writable
  mappings). ``address_space`` (``RLIMIT_AS``) is off unless asked for, since a JVM reserves
  several GB of address space it never uses and would not start under a sensible one.
- ``processes`` counts *in addition* to the processes the user already has, because
  ``RLIMIT_NPROC`` counts all of the user's processes (and threads); the kernel does not apply
  it to root at all (:func:`processes_enforced`).
- ``isolate_network``: a new, empty network namespace (``unshare(CLONE_NEWNET)``, plus a user
  namespace that maps the user to itself when not root), the kernel call behind
  ``unshare --net``. Use :func:`network_isolation_works` first: where the system does not
  allow it, the run goes ahead with the network.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import sys
from collections.abc import Callable
from dataclasses import dataclass

CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000


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

    def preexec(self) -> Callable[[], None]:
        """The function to call in the child before ``exec``: computed here, in the parent,
        so the child only makes system calls."""
        limits = self.rlimits()
        unshare = _libc_unshare() if self.isolate_network else None
        uid, gid = os.geteuid(), os.getegid()

        def apply() -> None:
            for kind, value in limits:
                with contextlib.suppress(ValueError, OSError):
                    resource.setrlimit(kind, (value, value))
            if unshare is not None:
                _unshare_network(unshare, uid, gid)

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
        if self.address_space is not None:
            pairs.append((resource.RLIMIT_AS, self.address_space))
        if self.file_size is not None:
            pairs.append((resource.RLIMIT_FSIZE, self.file_size))
        if self.processes is not None:
            pairs.append((resource.RLIMIT_NPROC, user_processes() + self.processes))
        return pairs


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
