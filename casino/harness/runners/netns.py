"""A program started without network: a new, empty network namespace, made between ``fork`` and
``exec`` (:meth:`casino.harness.runners.sandbox.Sandbox.preexec`), the kernel call behind
``unshare --net``; not root, with a user namespace that maps the user to itself.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable

CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000


UnshareCall = Callable[[int], int]


def libc_unshare() -> UnshareCall | None:
    """libc's ``unshare`` (``None`` where there is none)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        call: UnshareCall = ctypes.CDLL(None, use_errno=True).unshare
    except (OSError, AttributeError):
        return None
    return call


def unshare_network(unshare: UnshareCall, uid: int, gid: int) -> bool:
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
    unshare = libc_unshare()
    if unshare is None:
        return False
    uid, gid = os.geteuid(), os.getegid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os._exit(0 if unshare_network(unshare, uid, gid) else 1)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0
