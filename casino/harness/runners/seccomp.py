"""The seccomp filter of a sandboxed run: the kernel calls a student's program is refused.

casino writes the filter itself, as a small classic-BPF program (what ``seccomp(2)`` loads and
bubblewrap's ``--seccomp FD`` reads: an array of ``struct sock_filter``), rather than asking
libseccomp for it: the filter is a few dozen instructions, casino's test environments (tox
virtualenvs) cannot import Debian's ``python3-seccomp``, and a filter made here is the same on
every machine and can be read and tested in full (``tests/grade/test_sandbox_seccomp.py`` runs
programs under it on the real kernel).

The filter, for the machine's own system-call ABI (x86-64 or AArch64):

- refuses with ``EPERM`` every call of :data:`REFUSED` (the kernel keyring, mounting, new or
  other namespaces, tracing, BPF, io_uring, performance counters, modules, …);
- refuses ``clone`` with any namespace flag (a new user namespace above all) with ``EPERM``,
  and ``clone3`` (whose flags the filter cannot read) with ``ENOSYS``, so that the C library
  falls back to ``clone``;
- makes every file lock a no-op that succeeds (:data:`LOCKS`): ``flock`` and ``fcntl``'s
  ``F_SETLK``, ``F_SETLKW``, ``F_OFD_SETLK``, ``F_OFD_SETLKW`` return 0 and lock nothing.
  Locks live on inodes, which every run shares through the read-only ``/usr`` and the
  ``--sandbox-path`` folders whatever the mount namespace: a lock held by one run and tested
  by another (``LOCK_SH | LOCK_NB``, ``F_GETLK``) was a channel between two students graded at
  once. A lock that succeeds keeps honest programs running (the JVM, SQLite, Python's
  ``fcntl.lockf`` all lock files of their own, which no one else uses in a run); refusing it
  would not (SQLite stops on ``ENOLCK``). ``F_GETLK`` stays (no run holds a lock to see);
  ``F_SETLEASE`` and ``F_NOTIFY`` (a lease, dnotify: both tell of another's opens and reads)
  are refused with ``EPERM``;
- refuses ``socket`` for :data:`FAMILIES` (``AF_ALG``, ``AF_VSOCK``) with ``EAFNOSUPPORT``, as
  Docker's default profile does: the kernel's crypto and a virtual machine's host sockets are
  no student program's business;
- refuses every call of another ABI (x32 on x86-64, 32-bit calls) with ``ENOSYS``: a
  32-bit program cannot run;
- allows everything else.
"""

from __future__ import annotations

import errno
import os
import platform
import struct
import sys
from dataclasses import dataclass
from functools import lru_cache

# Classic BPF opcodes (linux/filter.h) and seccomp's return values (linux/seccomp.h).
_LD_W_ABS = 0x20
_JEQ = 0x15
_JGE = 0x35
_JSET = 0x45
_RET = 0x06
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000

_NR, _ARCH, _ARG0 = 0, 4, 16
"""Offsets in ``struct seccomp_data`` of the call's number, its ABI and its first argument."""
NAMESPACE_FLAGS = 0x7E020000
"""``CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID
| CLONE_NEWNET``."""
X32_BIT = 0x40000000


def _words(text: str) -> tuple[str, ...]:
    """The words of ``text``."""
    return tuple(text.split())


def _numbers(text: str) -> dict[str, int]:
    """``name=number`` pairs, separated by spaces."""
    pairs = (word.partition("=") for word in text.split())
    return {name: int(number) for name, _, number in pairs}


REFUSED = _words(
    "add_key request_key keyctl "
    "mount umount2 pivot_root open_tree move_mount fsopen fsconfig fsmount fspick mount_setattr "
    "unshare setns "
    "ptrace process_vm_readv process_vm_writev kcmp "
    "bpf perf_event_open userfaultfd io_uring_setup io_uring_enter io_uring_register "
    "kexec_load kexec_file_load init_module finit_module delete_module "
    "acct swapon swapoff reboot sethostname setdomainname quotactl syslog vhangup "
    "open_by_handle_at name_to_handle_at fanotify_init inotify_init inotify_init1"
)
"""The calls a sandboxed program may not make (each answers ``EPERM``; a name an ABI does not
have, ``inotify_init`` on AArch64, is skipped). ``inotify``'s and ``fanotify``'s watches see
another run's opens and reads of the shared ``/usr``."""
F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW = 6, 7, 37, 38
F_SETLEASE, F_NOTIFY = 1024, 1026
LOCKS = (F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW)
"""``fcntl`` commands that become a no-op that succeeds (as ``flock`` does)."""
WATCHES = (F_SETLEASE, F_NOTIFY)
"""``fcntl`` commands refused with ``EPERM``."""
AF_ALG, AF_VSOCK = 38, 40
FAMILIES = (AF_ALG, AF_VSOCK)
"""Socket families refused with ``EAFNOSUPPORT``."""


@dataclass(frozen=True)
class Abi:
    """One system-call ABI: its ``AUDIT_ARCH_…`` value and the numbers of the calls that
    matter here."""

    arch: int
    numbers: dict[str, int]
    x32: bool = False
    """Whether calls with :data:`X32_BIT` set reach this ABI's kernel (x86-64)."""


X86_64 = Abi(
    0xC000003E,
    _numbers(
        "clone=56 clone3=435 add_key=248 request_key=249 keyctl=250 mount=165 umount2=166 "
        "pivot_root=155 open_tree=428 move_mount=429 fsopen=430 fsconfig=431 fsmount=432 "
        "fspick=433 mount_setattr=442 unshare=272 setns=308 ptrace=101 process_vm_readv=310 "
        "process_vm_writev=311 kcmp=312 bpf=321 perf_event_open=298 userfaultfd=323 "
        "io_uring_setup=425 io_uring_enter=426 io_uring_register=427 kexec_load=246 "
        "kexec_file_load=320 init_module=175 finit_module=313 delete_module=176 acct=163 "
        "swapon=167 swapoff=168 reboot=169 sethostname=170 setdomainname=171 quotactl=179 "
        "syslog=103 vhangup=153 open_by_handle_at=304 name_to_handle_at=303 "
        "fanotify_init=300 inotify_init=253 inotify_init1=294 flock=73 fcntl=72 socket=41"
    ),
    x32=True,
)
AARCH64 = Abi(
    0xC00000B7,
    _numbers(
        "clone=220 clone3=435 add_key=217 request_key=218 keyctl=219 mount=40 umount2=39 "
        "pivot_root=41 open_tree=428 move_mount=429 fsopen=430 fsconfig=431 fsmount=432 "
        "fspick=433 mount_setattr=442 unshare=97 setns=268 ptrace=117 process_vm_readv=270 "
        "process_vm_writev=271 kcmp=272 bpf=280 perf_event_open=241 userfaultfd=282 "
        "io_uring_setup=425 io_uring_enter=426 io_uring_register=427 kexec_load=104 "
        "kexec_file_load=294 init_module=105 finit_module=273 delete_module=106 acct=89 "
        "swapon=224 swapoff=225 reboot=142 sethostname=161 setdomainname=162 quotactl=60 "
        "syslog=116 vhangup=58 open_by_handle_at=265 name_to_handle_at=264 fanotify_init=262 "
        "inotify_init1=26 flock=32 fcntl=25 socket=198"
    ),
)
ABIS = {"x86_64": X86_64, "amd64": X86_64, "aarch64": AARCH64, "arm64": AARCH64}
"""The machines casino can make a filter for, by ``platform.machine()``."""

Instruction = tuple[int, str | int, str | int, int]
"""``(code, jump if true, jump if false, k)``, a jump being a label or 0 (the next one)."""
Code = list[Instruction | str]
"""Instructions and the labels (strings) jumps go to."""


def native_abi() -> Abi | None:
    """This machine's ABI, ``None`` where casino has no filter for it."""
    if not sys.platform.startswith("linux"):
        return None
    return ABIS.get(platform.machine().lower())


def program(abi: Abi) -> Code:
    """The filter for ``abi`` as instructions with labels (see the module docstring)."""
    code: Code = [(_LD_W_ABS, 0, 0, _ARCH), (_JEQ, 0, "foreign", abi.arch)]
    code.append((_LD_W_ABS, 0, 0, _NR))
    if abi.x32:
        code.append((_JGE, "foreign", 0, X32_BIT))
    code.append((_JEQ, "clone", 0, abi.numbers["clone"]))
    code.append((_JEQ, "foreign", 0, abi.numbers["clone3"]))
    code.append((_JEQ, "noop", 0, abi.numbers["flock"]))
    code.append((_JEQ, "fcntl", 0, abi.numbers["fcntl"]))
    code.append((_JEQ, "socket", 0, abi.numbers["socket"]))
    code += [(_JEQ, "refuse", 0, abi.numbers[name]) for name in REFUSED if name in abi.numbers]
    code.append((_RET, 0, 0, RET_ALLOW))
    code.append("clone")
    code += [(_LD_W_ABS, 0, 0, _low(0)), (_JSET, "refuse", 0, NAMESPACE_FLAGS)]
    code.append((_RET, 0, 0, RET_ALLOW))
    code.append("fcntl")
    code.append((_LD_W_ABS, 0, 0, _low(1)))
    code += [(_JEQ, "noop", 0, command) for command in LOCKS]
    code += [(_JEQ, "refuse", 0, command) for command in WATCHES]
    code.append((_RET, 0, 0, RET_ALLOW))
    code.append("socket")
    code.append((_LD_W_ABS, 0, 0, _low(0)))
    code += [(_JEQ, "family", 0, family) for family in FAMILIES]
    code.append((_RET, 0, 0, RET_ALLOW))
    code.append("noop")
    code.append((_RET, 0, 0, RET_ERRNO | 0))
    code.append("family")
    code.append((_RET, 0, 0, RET_ERRNO | errno.EAFNOSUPPORT))
    code.append("refuse")
    code.append((_RET, 0, 0, RET_ERRNO | errno.EPERM))
    code.append("foreign")
    code.append((_RET, 0, 0, RET_ERRNO | errno.ENOSYS))
    return code


def _low(index: int) -> int:
    """The offset of the low 32 bits of argument ``index`` (every argument read here is a C
    ``int``: the kernel ignores the high bits)."""
    return _ARG0 + 8 * index + (4 if sys.byteorder == "big" else 0)


def assemble(code: Code) -> bytes:
    """``code`` as the bytes of an array of ``struct sock_filter``, labels resolved (every
    jump goes forward)."""
    labels: dict[str, int] = {}
    real: list[Instruction] = []
    for entry in code:
        if isinstance(entry, str):
            labels[entry] = len(real)
        else:
            real.append(entry)
    out = bytearray()
    for index, (op, true, false, k) in enumerate(real):
        jt, jf = (_offset(labels, index, jump) for jump in (true, false))
        out += struct.pack("=HBBI", op, jt, jf, k)
    return bytes(out)


def _offset(labels: dict[str, int], index: int, jump: str | int) -> int:
    if isinstance(jump, int):
        return jump
    distance = labels[jump] - index - 1
    if not 0 <= distance < 256:
        raise ValueError(f"a jump too far to {jump!r}: {distance}")
    return distance


@lru_cache(maxsize=1)
def filter_bytes() -> bytes | None:
    """The filter for this machine, ``None`` where casino has none."""
    abi = native_abi()
    return None if abi is None else assemble(program(abi))


_FILES: dict[int, int] = {}
"""The memory file holding the filter, per process (a forked worker makes its own)."""


def filter_path() -> str | None:
    """A path that opens the filter from its start, each time it is opened: a memory file of
    this process, seen through ``/proc``, so that a shell started for each run can hand it to
    bubblewrap (``--seccomp FD`` reads its FD to the end). ``None`` where casino has none."""
    data = filter_bytes()
    if data is None:
        return None
    pid = os.getpid()
    if pid not in _FILES:
        fd = os.memfd_create("casino-seccomp", os.MFD_CLOEXEC)
        os.write(fd, data)
        _FILES[pid] = fd
    return f"/proc/{pid}/fd/{_FILES[pid]}"
