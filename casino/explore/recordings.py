"""The reference's recordings kept between runs of ``casino explore``: a cache file a grammar
and a version of casino's code, under ``explore/`` in casino's cache folder
(:func:`casino.cache.cache_dir`: ``$CASINO_CACHE_DIR``, else ``$XDG_CACHE_HOME/casino``,
else ``~/.cache/casino``).

An entry is a session (its runs of units, the data it keeps) and what recording it gave: the
transcript (``None``: the reference refused it) and, where it was recorded under the
coverage tracer, the arcs it reached. The version is a digest of every ``.py`` file of the
``casino`` package (the reference, its grammar and the recorder), the folder it lies in and
the Python version: any change to casino's code makes a new file (the old ones of that
grammar are removed when it is written). Files are written atomically, with a checksum
(:func:`casino.cache.load_or_build`'s format); a missing, torn, tampered or unwritable file
is never an error, only a cold start. Reading unpickles only the classes a recording holds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import pickle
import sys
from dataclasses import dataclass, field
from pathlib import Path

from casino.explore.coverage import CASINO, Arc
from casino.explore.plan import Session
from casino.harness.model import Transcript

Entry = tuple[Transcript | None, frozenset[Arc] | None]
"""A session's recording and the arcs it reached (``None``: not traced)."""
_MAGIC = b"casino-explore-recordings-1\n"
_ALLOWED = ("casino.harness.model", "casino.explore.plan")
"""The modules whose classes a cache file may name (besides ``re``'s compiled patterns)."""


def version_of(root: Path = CASINO) -> str:
    """A digest of the sources under ``root`` (every ``.py``, by path and bytes), ``root``
    itself and the Python version: what a recording depends on."""
    digest = hashlib.sha256(f"{root}\n{sys.version}\n".encode())
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:20]


class _Unpickler(pickle.Unpickler):
    """Unpickles a recording's classes only: anything else is a corrupt file."""

    def find_class(self, module: str, name: str) -> object:
        if module in _ALLOWED or (module, name) in (("re", "_compile"), ("builtins", "set")):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not in a recording")


@dataclass
class Recordings:
    """The recordings of one grammar at one version, loaded from and saved to ``folder``."""

    folder: Path
    grammar: str
    version: str
    entries: dict[Session, Entry] = field(default_factory=dict)
    changed: bool = False

    @property
    def path(self) -> Path:
        """The cache file."""
        return self.folder / f"{self.grammar}-{self.version}.bin"

    @classmethod
    def load(cls, folder: Path, grammar: str, version: str | None = None) -> Recordings:
        """The recordings kept in ``folder`` (none if there is no good file)."""
        recordings = cls(folder, grammar, version or version_of())
        try:
            data = recordings.path.read_bytes()
        except OSError:
            return recordings
        end = len(_MAGIC) + 65
        digest, payload = data[len(_MAGIC) : end - 1], data[end:]
        if not data.startswith(_MAGIC) or hashlib.sha256(payload).hexdigest().encode() != digest:
            return recordings
        try:
            entries = _Unpickler(io.BytesIO(payload)).load()
        except Exception:  # a corrupt cache is a cold start, never an error
            return recordings
        if isinstance(entries, dict):
            recordings.entries = entries
        return recordings

    def get(self, session: Session, name: str, *, traced: bool = False) -> Entry | None:
        """The entry for ``session`` (its transcript named ``name``), or ``None`` if there is
        none (or, ``traced``, none with its arcs)."""
        entry = self.entries.get(session)
        if entry is None or (traced and entry[1] is None):
            return None
        transcript, arcs = entry
        if transcript is not None and transcript.name != name:
            transcript = dataclasses.replace(transcript, name=name)
        return transcript, arcs

    def put(self, session: Session, transcript: Transcript | None, arcs: set[Arc] | None) -> None:
        """Keep ``session``'s recording (its arcs, where traced; an untraced one keeps the
        arcs an earlier entry had)."""
        old = self.entries.get(session)
        kept = frozenset(arcs) if arcs is not None else (old[1] if old else None)
        self.entries[session] = (transcript, kept)
        self.changed = True

    def save(self) -> None:
        """Write the file atomically if anything was added (and drop this grammar's files of
        other versions); a disk that refuses is not an error."""
        from casino.files import write_atomic_bytes

        if not self.changed:
            return
        payload = pickle.dumps(self.entries, protocol=pickle.HIGHEST_PROTOCOL)
        digest = hashlib.sha256(payload).hexdigest().encode()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomic_bytes(self.path, _MAGIC + digest + b"\n" + payload)
            for old in self.folder.glob(f"{self.grammar}-*.bin"):
                if old != self.path and old.stem[len(self.grammar) + 1 :].isalnum():
                    old.unlink(missing_ok=True)
        except OSError:
            return
        self.changed = False


def default_folder() -> Path:
    """Where explore keeps its recordings: ``explore/`` in casino's cache folder."""
    from casino.cache import cache_dir

    return cache_dir() / "explore"
