"""Writing files so that nothing the user had is ever lost."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically: a crash leaves the old file or the new one.

    The text is written byte for byte (no newline translation).
    """
    write_atomic_bytes(path, text.encode(encoding))


def write_atomic_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data``: a temporary file in the same directory, flushed to
    disk, then moved over ``path`` with :func:`os.replace`."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
