"""Reading and writing the user's files so that nothing they had or set is ever lost.

- :func:`write_atomic` replaces a file all at once (a crash leaves the old file or the new
  one), keeping what the user set: the file's permission bits (a new file gets the usual
  ``0666 & ~umask``), a symlink (the write goes to its target, atomically at the target's
  place), and a read-only file, which is refused with :class:`ReadOnlyFile`. Temporary files
  that a killed writer left next to the file (``.NAME.PID-RANDOM.tmp``) are removed on the
  next write.
- :func:`read_bytes` reads a regular file only, up to a size cap: a FIFO, a device
  (``/dev/zero``) or a huge file is an :class:`UnsuitableFile`, never a hang or a MemoryError.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from pathlib import Path

DEFAULT_READ_LIMIT = 16 * 1024 * 1024
"""The most bytes :func:`read_bytes` reads unless told (16 MiB)."""

_STARTED = time.time()  # temp files older than this process were left by an earlier writer
_NEW_FILE_MODE = 0o666  # the kernel applies the umask


class ReadOnlyFile(PermissionError):
    """The file is read-only: the user made it so, and it is not replaced."""


class UnsuitableFile(OSError):
    """Not a file to read: not a regular file, or larger than the cap."""


def write_atomic(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically (see :func:`write_atomic_bytes`).

    The text is written byte for byte (no newline translation).
    """
    write_atomic_bytes(path, text.encode(encoding))


def write_atomic_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data``: a temporary file beside it, flushed to disk, then moved
    over it with :func:`os.replace`. A symlink is written through (its target is replaced);
    the old file's permission bits are kept; a read-only file raises :class:`ReadOnlyFile`."""
    target = resolve_target(Path(path))
    mode = _mode_to_keep(target)
    remove_stale_temps(target)
    fd, tmp = _create_temp(target)
    try:
        with os.fdopen(fd, "wb") as handle:
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_directory(target.parent)


def resolve_target(path: Path) -> Path:
    """The file a write to ``path`` must replace: ``path``, or the end of its symlink chain
    (which need not exist yet). A symlink loop raises ``OSError`` (ELOOP)."""
    if not path.is_symlink():
        return path
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:  # a dangling link: create the file it points to
        return Path(os.path.realpath(path))


def _mode_to_keep(target: Path) -> int | None:
    """The permission bits of the existing ``target`` (``None`` if there is none yet);
    :class:`ReadOnlyFile` if the user cannot or chose not to write it."""
    try:
        info = target.stat()
    except FileNotFoundError:
        return None
    if not info.st_mode & stat.S_IWUSR or not os.access(target, os.W_OK):
        raise ReadOnlyFile(errno.EACCES, "read-only file, not replaced", str(target))
    return stat.S_IMODE(info.st_mode)


def _temp_prefix(target: Path) -> str:
    return f".{target.name}."


def _create_temp(target: Path) -> tuple[int, str]:
    """A new temporary file beside ``target``, named ``.NAME.PID-RANDOM.tmp``, created with
    mode 0666 so that the umask decides a new file's permissions."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        name = f"{_temp_prefix(target)}{os.getpid()}-{os.urandom(4).hex()}.tmp"
        tmp = str(target.with_name(name))
        try:
            return os.open(tmp, flags, _NEW_FILE_MODE), tmp
        except FileExistsError:
            continue


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove the temporary files an earlier writer of ``target`` left (killed before its
    ``os.replace``): ``.NAME.PID-RANDOM.tmp`` beside it whose process is gone, and
    ``.NAME.*.tmp`` of older writers (no process number) from before this process started.
    Returns what was removed; problems are ignored."""
    removed: list[Path] = []
    prefix = _temp_prefix(target)
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(".tmp")):
            continue
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            middle = entry.name[len(prefix) : -len(".tmp")]
            if stat.S_ISREG(info.st_mode) and _is_stale(middle, info.st_mtime):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def _is_stale(middle: str, mtime: float) -> bool:
    """Whether the temp file whose name holds ``middle`` (``PID-RANDOM``) was left by a writer
    that is gone: its process no longer runs (this process counts as running), or, for a
    name without a process number, it is older than this process."""
    pid_text, dash, _ = middle.partition("-")
    if not dash or not pid_text.isdigit():
        return mtime < _STARTED
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it runs, as someone else
    return False


def _sync_directory(directory: Path) -> None:
    """Make the rename durable (where the system allows opening a directory)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def read_bytes(path: str | os.PathLike[str], limit: int = DEFAULT_READ_LIMIT) -> bytes:
    """The bytes of the regular file at ``path`` (a symlink to one is fine), at most ``limit``.

    Opening never blocks (a FIFO is refused, not waited on); a device, directory or FIFO, or
    a file over ``limit`` bytes, raises :class:`UnsuitableFile`; other problems ``OSError``.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise UnsuitableFile(errno.EISDIR, "is a directory", os.fspath(path))
        if not stat.S_ISREG(kind):
            raise UnsuitableFile(errno.EINVAL, "not a regular file", os.fspath(path))
        chunks, wanted = [], limit + 1
        while wanted > 0 and (chunk := os.read(fd, min(wanted, 1 << 20))):
            chunks.append(chunk)
            wanted -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise UnsuitableFile(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))
    return data


def read_text(
    path: str | os.PathLike[str], limit: int = DEFAULT_READ_LIMIT, *, encoding: str = "utf-8"
) -> str:
    """The text of the regular file at ``path`` (see :func:`read_bytes`); a file that is not
    valid ``encoding`` raises ``UnicodeDecodeError``."""
    return read_bytes(path, limit).decode(encoding)
