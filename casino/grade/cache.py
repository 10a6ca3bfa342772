"""The grade cache under ``--out``: each student's result, signed, for a re-run to reuse.

``cache/STUDENT.json`` holds ``{"mac": …, "result": …}``: the result as
:meth:`~casino.grade.results.StudentResult.to_json` gives it and an HMAC-SHA256 of it, keyed
with a secret kept in the grader's own cache folder (``$XDG_CACHE_HOME/casino/grade.key``, else
``~/.cache/casino/grade.key``; the folder 0700, the key 0600; created the first time). No run
of a student's program can see that folder (nor ``--out``: see the sandbox), and a copy of
``--out`` handed to others does not carry the key. An entry that does not verify (edited,
forged, from another key, unreadable) is simply not reused: that student is graded again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

from casino.files import write_atomic
from casino.grade.course import file_stem
from casino.grade.results import StudentResult

KEY_BYTES = 32


def key_path() -> Path:
    """Where the signing key is kept."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base, "casino", "grade.key")


def signing_key(fallback: Path) -> bytes:
    """The signing key: read, or made once (:func:`key_path`; ``fallback`` if that folder
    cannot be written)."""
    for path in (key_path(), fallback):
        try:
            return _key_at(path)
        except OSError:
            continue
    return secrets.token_bytes(KEY_BYTES)  # nowhere to keep one: nothing cached is reused


def _key_at(path: Path) -> bytes:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) < KEY_BYTES:
            raise OSError(f"{path}: too short to be a key") from None
        return key
    key = secrets.token_bytes(KEY_BYTES)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


class Cache:
    """The signed results under ``folder`` (``--out``'s ``cache/``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.key = signing_key(folder / ".key")

    def _file(self, student: str) -> Path:
        return self.folder / f"{file_stem(student)}.json"

    def _mac(self, data: Any) -> str:
        text = json.dumps(data, sort_keys=True).encode("utf-8")
        return hmac.new(self.key, text, hashlib.sha256).hexdigest()

    def load(self, student: str) -> StudentResult | None:
        """``student``'s stored result, if there is one and it verifies."""
        try:
            stored = json.loads(self._file(student).read_text(encoding="utf-8"))
            data, mac = stored["result"], stored["mac"]
            if not isinstance(mac, str) or not hmac.compare_digest(mac, self._mac(data)):
                return None
            result = StudentResult.from_json(data)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return result if result.student == student else None

    def store(self, result: StudentResult) -> None:
        """Keep ``result`` (``OSError`` if it cannot be written)."""
        data = result.to_json()
        text = json.dumps({"mac": self._mac(data), "result": data}) + "\n"
        write_atomic(self._file(result.student), text)
