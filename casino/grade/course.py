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
from casino.cmdline import UsageError
from casino.errors import OverLimit, SetupError
from casino.explore.feedback import ExploreSpec
from casino.harness.command import find_transcripts
from casino.harness.load import MAX_FIXTURE_BYTES, load_transcript, read_capped
from casino.harness.model import Fixture, Transcript, TranscriptError
from casino.harness.report import escaped_controls
from casino.harness.runners.folders import make_folders
from casino.harness.runners.sandbox import Sandbox

MAX_SUBMISSION_BYTES = 64 << 20
"""A student's folder is graded only if its regular files hold at most this many bytes."""
MAX_SUBMISSION_FILES = 10_000
"""… and at most this many files."""


class CourseError(SetupError):
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
    explore: ExploreSpec | None = None
    """Explore each submission too (``--explore NAME``): its shrunk session in its feedback."""

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
            "explore": dataclasses.asdict(self.explore) if self.explore else None,
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
    if transcript.grading:  # and so does its rubric
        parts.append(repr(transcript.grading).encode())
    digest = _digest(raw, *parts)
    transcript = dataclasses.replace(transcript, path=Path(shown))
    return Material(transcript, tuple(fixtures), digest)


@dataclass(frozen=True)
class Student:
    """One submission: the student's name (its folder's, see :func:`shown_name`) and the
    folder."""

    name: str
    folder: Path


def shown_name(name: str) -> str:
    """A file name as text: as it is when it is UTF-8, else with each byte that is not shown
    as ``\\xNN`` (``Jos\\xe9`` for ``José`` written in Latin-1 by a Windows zip)."""
    return escaped_controls(os.fsencode(name).decode("utf-8", errors="backslashreplace"))


def find_students(submissions: Path) -> list[Student]:
    """Every folder directly under ``submissions``, by name (hidden ones left out). Two
    folders shown alike (``Jos\\xe9`` in Latin-1, and one named so) are told apart by a
    number: ``Jos\\xe9 (2)``."""
    found: list[Student] = []
    taken: set[str] = set()
    for entry in sorted(os.scandir(submissions), key=lambda entry: os.fsencode(entry.name)):
        if not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False):
            name = shown = shown_name(entry.name)
            number = 1
            while name in taken:
                number += 1
                name = f"{shown} ({number})"
            taken.add(name)
            found.append(Student(name, Path(entry.path)))
    return found


MAX_FILE_STEM = 200
"""Bytes of a student's name kept in the names of their files under ``--out``."""


def file_stem(student: str) -> str:
    """The name of ``student``'s files under ``--out`` (``feedback/STEM.txt``,
    ``cache/STEM.json``): the name itself, or when it is too long for a file name (a name
    of escaped bytes is four times as long), its start and a hash of the whole."""
    student = escaped_controls(student)  # a name from an LMS's download may hold an ESC
    data = student.encode("utf-8", errors="surrogateescape")
    if len(data) <= MAX_FILE_STEM:
        return student
    start = data[: MAX_FILE_STEM - 20].decode("utf-8", errors="ignore")
    return f"{start}-{hashlib.sha256(data).hexdigest()[:16]}"


class TooLargeSubmission(OverLimit):
    """A folder over :data:`MAX_SUBMISSION_BYTES` or :data:`MAX_SUBMISSION_FILES`."""


def submission_files(folder: Path) -> Iterator[tuple[str, Path]]:
    """The regular files under ``folder`` (relative path, path), sorted; links not followed.
    :class:`TooLargeSubmission` once there are too many of them or they are too large.

    A hard link is its target, mode included: one that others may not read (a link to the
    grader's ``0600`` file, which a copy would make readable) is left out (:func:`shared`)."""
    total = count = 0
    for path, info in walk(folder):
        if stat.S_ISREG(info.st_mode) and shared(info):
            total += info.st_size
            count += 1
            if total > MAX_SUBMISSION_BYTES or count > MAX_SUBMISSION_FILES:
                limit = f"{MAX_SUBMISSION_BYTES >> 20} MiB or {MAX_SUBMISSION_FILES} files"
                raise TooLargeSubmission(f"the submission is over {limit}: not graded")
            yield path.relative_to(folder).as_posix(), path


def shared(info: os.stat_result) -> bool:
    """Whether a regular file may be copied into a run: a file of the submission alone (one
    link), or a hard link to a file anyone may read anyway."""
    return info.st_nlink == 1 or bool(info.st_mode & stat.S_IROTH)


def walk(folder: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """Everything under ``folder`` with its ``lstat``, in the order of the names' bytes,
    each folder before what it holds; links not followed. Without recursion, so that a tree
    of any depth is walked (the path's own limits aside: an error there is an ``OSError``).
    Each path is its folder's and a name (``Path(entry.path)`` would parse every path again:
    for a tree 1,100 folders deep, a second of CPU per walk)."""
    todo = [folder]
    while todo:
        here = todo.pop()
        with os.scandir(here) as entries:
            found = sorted(entries, key=lambda entry: os.fsencode(entry.name), reverse=True)
        for entry in reversed(found):
            yield here / entry.name, entry.stat(follow_symlinks=False)
        todo += [here / e.name for e in found if e.is_dir(follow_symlinks=False)]


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
        make_folders(folder, target.parent)
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
        hasher.update(_digest(os.fsencode(name), mode, path.read_bytes()).encode())
    return hasher.hexdigest()


def course_materials(folders: list[str]) -> tuple[tuple[Material, ...], tuple[str, ...]]:
    """Every transcript under the ``--transcripts`` folders (or files), shown relative to
    the one it was found in; ``reference: casino`` ones are left out (no other program can
    pass them) and returned apart, by path."""
    materials, skipped = [], []
    for raw in folders:
        base = Path(raw)
        for path in find_transcripts([raw]):
            shown = path.name if base.is_file() else path.relative_to(base).as_posix()
            material = load_material(path, shown)
            if material.transcript.reference is None:
                materials.append(material)
            else:
                skipped.append(material.path)
    if not materials:
        raise UsageError("no transcripts to grade with (reference: casino ones cannot be used)")
    paths = [m.path for m in materials]
    if len(set(paths)) < len(paths):
        raise UsageError("two transcripts have the same path: give each --transcripts once")
    return tuple(materials), tuple(skipped)
