"""Where a course's submissions come from: a folder of folders, a zip of them, a learning
platform's bulk download, or a list of Git repositories.

:func:`open_submissions` turns SUBMISSIONS into one folder per student:

- **a folder of folders** (casino's own layout): each folder is a student, named by it;
- **a learning platform's bulk download** (:mod:`casino.grade.platforms`): Moodle's
  "Download all submissions", Canvas's "Download Submissions", Blackboard's "Assignment File
  Download"; each platform's module says how its names give the student and their files;
- **a zip** of any of these (unpacked safely: no absolute paths, no ``..``, no links, at most
  :data:`MAX_UNZIPPED_BYTES` and :data:`MAX_UNZIPPED_FILES`);
- **a text file of Git repositories** (URLs or paths, one a line, ``#`` comments), as GitHub
  Classroom lists an assignment's repositories: each is cloned (``--depth 1``, no prompt for a
  password) and named by its repository name.

What could not be taken in (a clone that fails, a zip entry refused, a student's folder that
is a symbolic link, a platform's file named ``..``) is a problem of that student alone
(:attr:`Intake.problems`), graded as not graded with its reason; the rest go on. The
identities found (a platform's) are what :mod:`casino.grade.lms` writes grades back with,
a student not graded included (a row saying why, never a student missing from the import).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path, PurePosixPath

from casino.errors import SetupError
from casino.grade.course import Student, find_students, shown_name
from casino.grade.platforms import PLATFORMS, Entry, Identity, Platform, find_platform

MAX_UNZIPPED_BYTES = 2 << 30
"""A zip of submissions may unpack to at most this many bytes …"""
MAX_UNZIPPED_FILES = 200_000
"""… and this many files."""
CLONE_SECONDS = 300
"""How long one ``git clone`` may take."""


class IntakeError(SetupError):
    """SUBMISSIONS cannot be read at all (one line)."""


@dataclass
class Intake:
    """The students found, how they were laid out, and what could not be taken in."""

    layout: str
    """``folders``, ``git`` or a platform's name (``moodle``, ``canvas``, ``blackboard``: a
    zip says what was inside it)."""
    students: list[Student]
    identities: dict[str, Identity] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    """Students that could not be taken in, and why."""

    @property
    def platform(self) -> Platform | None:
        """The learning platform the submissions came from, if any."""
        return find_platform(self.layout)


Pick = Callable[[str, Path], None]
"""Called with a cloned repository's student and folder (its history in ``.git``) before its
``.git`` is removed: :mod:`casino.grade.submitted` checks out the commit to grade there."""


def open_submissions(source: Path, scratch: Path, pick: Pick | None = None) -> Intake:
    """One folder per student from ``source`` (a folder, a zip or a list of repositories);
    what has to be unpacked or cloned goes under ``scratch`` (an empty folder of the
    grader's). With ``pick``, repositories are cloned with their history and handed to it."""
    if source.is_dir():
        return _classify(source, scratch / "grouped")
    if not source.is_file():
        raise IntakeError(f"no such folder or file: {source}")
    if zipfile.is_zipfile(source):
        unzipped = scratch / "unzipped"
        _unzip(source, unzipped)
        return _classify(_inner(unzipped), scratch / "grouped")
    return _clone_all(source, scratch / "repositories", pick)


def _inner(folder: Path) -> Path:
    """The folder a zip really holds: its only entry, when that is a folder whose entries look
    like a platform's download (a zip of the download folder), else the folder itself."""
    entries = [e for e in os.scandir(folder) if not e.name.startswith((".", "__MACOSX"))]
    if len(entries) == 1 and entries[0].is_dir(follow_symlinks=False):
        inside = Path(entries[0].path)
        if _layout_of(inside) is not None:
            return inside
    return folder


def _layout_of(folder: Path) -> Platform | None:
    """Which platform's download ``folder`` looks like (``None`` for none): the one whose
    naming more than half of its entries follow, the most of them (a tie: the earlier in
    :data:`~casino.grade.platforms.PLATFORMS`); the others are those students' problems, so
    that one odd name (a ``\\`` in a Moodle name, which a zip makes a folder) costs that
    student alone, not the platform's import for everyone."""
    entries = [e for e in os.scandir(folder) if not e.name.startswith(".")]
    best, most = None, 0
    for platform in PLATFORMS:
        count = sum(_entry_of(platform, entry) is not None for entry in entries)
        if count * 2 > len(entries) and count > most:
            best, most = platform, count
    return best


def _entry_of(platform: Platform, entry: os.DirEntry[str]) -> Entry | None:
    """How ``platform`` named ``entry`` (a folder or a file of its download), if it did."""
    if entry.is_dir(follow_symlinks=False):
        return platform.folder(entry.name)
    return platform.file(entry.name) if entry.is_file(follow_symlinks=False) else None


ODD_NAME = "{name!r} is not named as {platform} names a submission; not graded"
ODD_FILE = "its file {name!r} in {platform}'s download cannot be a file's name; not graded"
LINKED = "its folder is a symbolic link; not graded (a submission is a folder of its own)"


def _odd(intake: Intake, name: str, why: str) -> None:
    """``name`` (an entry of the download, or a student) is a problem of its own: a row saying
    why, and nobody else is affected."""
    intake.problems[name] = why


def _classify(folder: Path, grouped: Path) -> Intake:
    platform = _layout_of(folder)
    return _folders(folder) if platform is None else _download(platform, folder, grouped)


def _folders(folder: Path) -> Intake:
    """casino's own layout: a folder per student; a symbolic link to a folder there is a
    student not graded, with a row saying why (it was left out without a word)."""
    intake = Intake("folders", find_students(folder))
    taken = {student.name for student in intake.students}
    for entry in sorted(os.scandir(folder), key=lambda entry: os.fsencode(entry.name)):
        linked = entry.is_symlink() and entry.is_dir() and not entry.name.startswith(".")
        if linked and shown_name(entry.name) not in taken:
            _odd(intake, shown_name(entry.name), LINKED)
    return intake


def _download(platform: Platform, folder: Path, grouped: Path) -> Intake:
    """A platform's download: each entry (a folder, or a file its name prefixes) gathered into
    its student's folder; of a student's attempts only the newest (where the names say when)."""
    intake = Intake(platform.name, [])
    entries = sorted((e for e in os.scandir(folder) if not e.name.startswith(".")), key=_name)
    newest = _newest_stamps(platform, entries)
    for entry in entries:
        found = _entry_of(platform, entry)
        if found is None:
            _odd(intake, entry.name, ODD_NAME.format(name=entry.name, platform=platform.title))
            continue
        intake.identities[found.student] = found.identity
        if found.stamp is not None and found.stamp < newest[found.student]:
            continue  # an earlier attempt
        if found.file in (".", ".."):
            _odd(intake, found.student, ODD_FILE.format(name=found.file, platform=platform.title))
            continue
        _take(found, Path(entry.path), grouped / found.student)
    _settle(intake, grouped)
    return intake


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _newest_stamps(platform: Platform, entries: list[os.DirEntry[str]]) -> dict[str, datetime]:
    """Each student's newest submission time the names state (none where they state none)."""
    newest: dict[str, datetime] = {}
    for entry in entries:
        found = _entry_of(platform, entry)
        if found is not None and found.stamp is not None:
            newest[found.student] = max(found.stamp, newest.get(found.student, found.stamp))
    return newest


def _take(found: Entry, source: Path, target: Path) -> None:
    """One entry into its student's folder ``target``: a folder's files, a file (a receipt:
    nothing, but the student is there)."""
    target.mkdir(parents=True, exist_ok=True)
    if found.file is None:
        _merge(source, target)
    elif not found.receipt:
        _place(source, target / found.file)


def _settle(intake: Intake, grouped: Path) -> None:
    """The students found, in name order; one with an odd entry is not graded at all (a row
    saying why, in the platform's import too), even if the rest of its entries were fine."""
    found = sorted(set(intake.identities) - set(intake.problems))
    intake.students = [Student(name, grouped / name) for name in found]


def _place(source: Path, target: Path) -> None:
    """Copy one regular file to ``target`` (a later one of the same name wins: the newest
    submission comes last in name order on both platforms)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    if os.access(source, os.X_OK):
        target.chmod(0o755)


def _merge(source: Path, target: Path) -> None:
    """Copy the regular files under ``source`` into ``target`` (links are not followed)."""
    for here, dirs, files in os.walk(source):
        dirs.sort()
        for name in sorted(files):
            path = Path(here, name)
            if stat.S_ISREG(path.lstat().st_mode):
                _place(path, target / path.relative_to(source))


def _unzip(archive: Path, folder: Path) -> None:
    """Unpack ``archive`` into ``folder``: regular files and folders only, inside ``folder``,
    within the size and count limits (:class:`IntakeError` otherwise)."""
    try:
        with zipfile.ZipFile(archive) as opened:
            members = opened.infolist()
            _check_members(members)
            for member in members:
                _extract(opened, member, folder)
    except (zipfile.BadZipFile, OSError, RuntimeError) as error:
        raise IntakeError(f"cannot unpack {archive}: {error}") from None


def _check_members(members: Iterable[zipfile.ZipInfo]) -> None:
    total = count = 0
    for member in members:
        path = PurePosixPath(member.filename.replace("\\", "/"))
        if path.is_absolute() or ".." in path.parts:
            raise IntakeError(f"the zip holds a path outside its folder: {member.filename!r}")
        total += member.file_size
        count += 1
    if total > MAX_UNZIPPED_BYTES or count > MAX_UNZIPPED_FILES:
        raise IntakeError(
            f"the zip unpacks to {total} bytes in {count} files: over "
            f"{MAX_UNZIPPED_BYTES >> 20} MiB or {MAX_UNZIPPED_FILES} files"
        )


def _extract(opened: zipfile.ZipFile, member: zipfile.ZipInfo, folder: Path) -> None:
    """One member: a folder, or a regular file (a link or device is left out)."""
    kind = stat.S_IFMT(member.external_attr >> 16)
    target = folder / PurePosixPath(member.filename.replace("\\", "/"))
    if member.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        return
    if kind not in (0, stat.S_IFREG):
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with opened.open(member) as source, open(target, "wb") as sink:
        shutil.copyfileobj(source, sink)
    if member.external_attr >> 16 & 0o111:
        target.chmod(0o755)


def _clone_all(listing: Path, folder: Path, pick: Pick | None = None) -> Intake:
    """Clone every repository ``listing`` names (one a line) into ``folder``."""
    try:
        lines = listing.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise IntakeError(f"cannot read {listing}: {error}") from None
    sources = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not sources:
        raise IntakeError(f"{listing} names no repository (one URL or path a line)")
    intake = Intake("git", [])
    folder.mkdir(parents=True, exist_ok=True)
    for source in sources:
        name = _repository_name(source, {s.name for s in intake.students} | set(intake.problems))
        target = folder / name
        hook = None if pick is None else partial(pick, name)
        problem = _clone(source, target, base=listing.parent, pick=hook)
        if problem is None:
            intake.students.append(Student(name, target))
        else:
            intake.problems[name] = problem
    intake.students.sort(key=lambda student: student.name)
    return intake


def _repository_name(source: str, taken: set[str]) -> str:
    """The repository's name (its last path part, without ``.git``), made unique."""
    base = re.sub(r"\.git$", "", source.rstrip("/").replace(":", "/").rsplit("/", 1)[-1])
    base = base if base and not base.startswith(".") else "repository"
    name, number = base, 2
    while name in taken:
        name, number = f"{base}-{number}", number + 1
    return name


def _clone(
    source: str, target: Path, base: Path, pick: Callable[[Path], None] | None = None
) -> str | None:
    """``git clone --depth 1`` of ``source`` (a relative path from ``base``) into ``target``
    (its whole history for ``pick``, called before ``.git`` goes); why it failed, or ``None``."""
    if "://" not in source and not re.match(r"^[\w.-]+@[\w.-]+:", source):
        source = str((base / source).resolve())
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="true", LC_ALL="C")
    depth = [] if pick else ["--depth", "1"]
    command = ["git", "clone", "--quiet", *depth, "--no-tags", "--", source, str(target)]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=CLONE_SECONDS, check=False
        )
    except FileNotFoundError:
        return "cannot clone it: git is not installed"
    except subprocess.TimeoutExpired:
        return f"cannot clone it: git clone took over {CLONE_SECONDS} s"
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        return f"cannot clone it: {lines[-1].strip() if lines else f'git exited {done.returncode}'}"
    if pick is not None:
        pick(target)
    shutil.rmtree(target / ".git", ignore_errors=True)
    return None
