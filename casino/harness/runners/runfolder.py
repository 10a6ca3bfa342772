"""An isolated run's folder: a size-capped tmpfs its files are copied into, and what it left
there sent back as a tar and unpacked, within limits (:class:`RunFolder`); and the run's own uid.

The sandbox (:func:`casino.harness.runners.sandbox.confine`) runs the program under
:data:`ROUND_TRIP`; the grader reads back what came through the run's file descriptor.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

from casino.harness.runners.cgroup import MemoryCgroup
from casino.harness.runners.folders import empty_folder, make_folders

BACK_FILES = 1_000
"""How many files and folders a run may leave in its folder unless told (a build: as many as
a submission may hold): beyond that nothing comes back and the run fails, naming the limit.
Each file that comes back costs the grader a file written (about 1 ms on a busy machine)."""
RUN_UID_BASE = 0x40000000
"""Grading as root, each run's uid on the machine is this + a number of its own
(:func:`next_run_uid`): a uid no account has, not root's, different for every run going on
at once and for each run of one grading process."""
RUNS_PER_PROCESS = 512
"""How many runs of one grading process have uids of their own before the first comes back."""


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
