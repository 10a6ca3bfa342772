"""A small on-disk cache for precomputed tables (never a download).

Tables live under the user's cache directory: ``$CASINO_CACHE_DIR`` if set, else
``$XDG_CACHE_HOME/casino``, else ``~/.cache/casino``. A missing, corrupt or unwritable cache
is never an error: the table is rebuilt in memory and, when possible, written atomically.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from casino.files import write_atomic_bytes

_MAGIC = b"casino-cache-1\n"


def cache_dir() -> Path:
    """The directory casino keeps its precomputed tables in."""
    explicit = os.environ.get("CASINO_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "casino"


def load_or_build(name: str, version: str, build: Callable[[], bytes]) -> bytes:
    """The bytes cached as ``name`` at ``version``, building and storing them if needed.

    The file holds a checksum of its payload; a file whose checksum does not match (a torn
    or tampered write) is ignored and rebuilt.
    """
    path = cache_dir() / f"{name}-{version}.bin"
    cached = _read(path)
    if cached is not None:
        return cached
    payload = build()
    digest = hashlib.sha256(payload).hexdigest().encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic_bytes(path, _MAGIC + digest + b"\n" + payload)
    except OSError:
        pass  # a read-only or full disk only costs the rebuild next time
    return payload


def _read(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header_end = len(_MAGIC) + 65
    if not data.startswith(_MAGIC) or len(data) < header_end:
        return None
    digest, payload = data[len(_MAGIC) : header_end - 1], data[header_end:]
    return payload if hashlib.sha256(payload).hexdigest().encode() == digest else None
