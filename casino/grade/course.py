"""A course to grade: its transcripts (as data a worker anywhere can use) and its students.

The transcripts are loaded and checked once, by the process that grades the course; each is
carried with the bytes of its fixtures (:class:`Material`), so a worker on another machine (a
Ray cluster) needs nothing but the :class:`Course`. A transcript's path is shown relative to
the ``--transcripts`` directory, so the reports do not depend on where casino was started.

A student is a folder under SUBMISSIONS (hidden ones and anything not a folder are left out).
Only its regular files are taken (symbolic links, FIFOs and devices are not), at most
:data:`MAX_SUBMISSION_BYTES` in all. Every file, transcript, fixture and setting that can
change a grade goes into a content hash, which is how a re-run knows what it can skip.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import casino
from casino.harness.model import (
    MAX_FIXTURE_BYTES,
    Fixture,
    Transcript,
    TranscriptError,
    load_transcript,
    read_capped,
)
from casino.harness.runners.sandbox import Sandbox

MAX_SUBMISSION_BYTES = 64 << 20
"""A student's folder is graded only if its regular files hold at most this many bytes."""
MAX_SUBMISSION_FILES = 10_000
"""… and at most this many files."""


class CourseError(Exception):
    """The course cannot be graded as given (a transcript that cannot be read); one line."""


@dataclass(frozen=True)
class Material:
    """One transcript, ready to play anywhere: its fixtures' bytes come with it."""

    transcript: Transcript
    fixtures: tuple[tuple[str, bytes], ...]
    """Each fixture's path as written in the transcript, and its content."""
    digest: str
    """A hash of the transcript's file and its fixtures."""

    @property
    def path(self) -> str:
        """The transcript's path as reported (relative to the ``--transcripts`` directory)."""
        return str(self.transcript.path)

    def placed(self, folder: Path) -> Transcript:
        """The transcript with its fixtures written into ``folder`` and read from there."""
        files = []
        by_path = dict(self.fixtures)
        for index, (name, content) in enumerate(self.transcript.files or ()):
            if isinstance(content, Fixture):
                where = folder / f"fixture-{index}"
                where.write_bytes(by_path[content.path])
                content = Fixture(str(where))
            files.append((name, content))
        return dataclasses.replace(self.transcript, files=tuple(files) or None)


@dataclass(frozen=True)
class Course:
    """What every student is graded with: transcripts, commands, runner and sandbox."""

    materials: tuple[Material, ...]
    run: tuple[str, ...]
    build: str | None = None
    runner: str = "pipe"
    sandbox: Sandbox | None = None
    build_timeout: float = 120.0

    @property
    def settings_digest(self) -> str:
        """A hash of everything but the transcripts that can change a grade."""
        settings = {
            "casino": casino.__version__,
            "run": list(self.run),
            "build": self.build,
            "runner": self.runner,
            "sandbox": dataclasses.asdict(self.sandbox) if self.sandbox else None,
            "build_timeout": self.build_timeout,
        }
        return _digest(json.dumps(settings, sort_keys=True).encode())


def _digest(*parts: bytes) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(len(part).to_bytes(8, "big"))
        hasher.update(part)
    return hasher.hexdigest()


def load_material(path: Path, shown: str) -> Material:
    """The transcript at ``path``, shown as ``shown``, with its fixtures read
    (:class:`CourseError` if it cannot be read)."""
    try:
        transcript = load_transcript(path)
        raw = path.read_bytes()
    except (TranscriptError, OSError) as error:
        raise CourseError(str(error)) from None
    fixtures, budget = [], MAX_FIXTURE_BYTES
    for name, content in transcript.files or ():
        if isinstance(content, Fixture):
            try:
                data = read_capped(path.parent / content.path, budget)
            except ValueError as error:
                raise CourseError(
                    f"{shown}: files: {name!r}: fixture {content.path}: {error}"
                ) from None
            budget -= len(data)
            fixtures.append((content.path, data))
    parts = [part for pair in fixtures for part in (pair[0].encode(), pair[1])]
    if transcript.allowed:  # a folder's casino.yaml changes the verdict: regrade when it does
        parts.append(("match:" + ",".join(transcript.allowed)).encode())
    digest = _digest(raw, *parts)
    transcript = dataclasses.replace(transcript, path=Path(shown))
    return Material(transcript, tuple(fixtures), digest)


@dataclass(frozen=True)
class Student:
    """One submission: the student's name (its folder's) and the folder."""

    name: str
    folder: Path


def find_students(submissions: Path) -> list[Student]:
    """Every folder directly under ``submissions``, by name (hidden ones left out)."""
    found = []
    for entry in sorted(os.scandir(submissions), key=lambda entry: entry.name):
        if not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False):
            found.append(Student(entry.name, Path(entry.path)))
    return found


class TooLargeSubmission(Exception):
    """A folder over :data:`MAX_SUBMISSION_BYTES` or :data:`MAX_SUBMISSION_FILES`."""


def submission_files(folder: Path) -> Iterator[tuple[str, Path]]:
    """The regular files under ``folder`` (relative path, path), sorted; links not followed.
    :class:`TooLargeSubmission` once there are too many of them or they are too large."""
    total = count = 0
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = Path(here, name)
            info = path.lstat()
            if not stat.S_ISREG(info.st_mode):
                continue
            total += info.st_size
            count += 1
            if total > MAX_SUBMISSION_BYTES or count > MAX_SUBMISSION_FILES:
                limit = f"{MAX_SUBMISSION_BYTES >> 20} MiB or {MAX_SUBMISSION_FILES} files"
                raise TooLargeSubmission(f"the submission is over {limit}: not graded")
            yield path.relative_to(folder).as_posix(), path


Packed = tuple[tuple[str, bool, bytes], ...]
"""A submission as data: each regular file's relative path, whether it is executable, and its
content."""


def pack(folder: Path) -> Packed:
    """The submission in ``folder`` as data (to send to another machine)."""
    return tuple(
        (name, os.access(path, os.X_OK), path.read_bytes())
        for name, path in submission_files(folder)
    )


def unpack(files: Packed, folder: Path) -> None:
    """Write a packed submission into the (empty) ``folder``."""
    for name, executable, data in files:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        target.chmod(0o755 if executable else 0o644)


def copy_submission(source: Path, folder: Path) -> None:
    """Copy the submission's regular files from ``source`` into the (empty) ``folder``, as
    :func:`pack` and :func:`unpack` would."""
    for name, path in submission_files(source):
        unpack(((name, os.access(path, os.X_OK), path.read_bytes()),), folder)


def submission_digest(folder: Path) -> str:
    """A hash of the submission's file names and contents."""
    hasher = hashlib.sha256()
    for name, path in submission_files(folder):
        mode = b"x" if os.access(path, os.X_OK) else b""
        hasher.update(_digest(name.encode(), mode, path.read_bytes()).encode())
    return hasher.hexdigest()
