"""Atomic writes keep exact bytes, the file's mode, symlinks and read-only files, and never
leave a half-written file or a temp file behind; reads take regular files of bounded size."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from casino.files import (
    ReadOnlyFile,
    UnsuitableFile,
    read_bytes,
    remove_stale_temps,
    write_atomic,
)

ROOT = Path(__file__).resolve().parents[1]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_write_atomic_keeps_exact_text_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "players.dat"
    target.write_text("old")
    write_atomic(target, "line one  \r\n\ttab\n")
    assert target.read_bytes() == b"line one  \r\n\ttab\n"
    assert names(tmp_path) == ["players.dat"]


def test_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "players.dat"
    target.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "\udcff", encoding="utf-8")
    assert target.read_text() == "old"
    assert names(tmp_path) == ["players.dat"]


def test_the_files_mode_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "players.dat"
    target.write_text("old")
    target.chmod(0o640)
    write_atomic(target, "new")
    assert (target.read_text(), mode(target)) == ("new", 0o640)


def test_a_new_file_gets_the_umasks_mode(tmp_path: Path) -> None:
    before = os.umask(0o027)
    try:
        write_atomic(tmp_path / "report.json", "{}")
    finally:
        os.umask(before)
    assert mode(tmp_path / "report.json") == 0o640


def test_a_symlink_is_written_through_to_its_target(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "players.dat"
    target.write_text("old")
    target.chmod(0o604)
    link = tmp_path / "players.dat"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert (target.read_text(), mode(target)) == ("new", 0o604)
    assert names(tmp_path / "real") == ["players.dat"]


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "players.dat"
    link.symlink_to(tmp_path / "elsewhere.dat")
    write_atomic(link, "new")
    assert link.is_symlink() and (tmp_path / "elsewhere.dat").read_text() == "new"


def test_a_read_only_file_is_refused_and_kept(tmp_path: Path) -> None:
    target = tmp_path / "players.dat"
    target.write_text("mine")
    target.chmod(0o444)
    with pytest.raises(ReadOnlyFile) as refused:
        write_atomic(target, "new")
    assert refused.value.filename == str(target)
    assert refused.value.strerror == "read-only file, not replaced"
    assert (target.read_text(), mode(target)) == ("mine", 0o444)
    assert names(tmp_path) == ["players.dat"]


def test_the_temp_file_of_a_killed_writer_is_removed_by_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "players.dat"
    target.write_text("old")
    killed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys, signal, pathlib\n"
            "from casino.files import _create_temp\n"
            "_create_temp(pathlib.Path(sys.argv[1]))\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n",
            str(target),
        ],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert killed.returncode == -9
    left = [name for name in names(tmp_path) if name != "players.dat"]
    assert len(left) == 1 and left[0].startswith(".players.dat.") and left[0].endswith(".tmp")
    write_atomic(target, "new")
    assert names(tmp_path) == ["players.dat"] and target.read_text() == "new"


def test_only_temp_files_of_writers_that_are_gone_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "players.dat"
    old_name = tmp_path / ".players.dat.k2j4x9qa.tmp"  # an older casino's mkstemp name
    running = tmp_path / f".players.dat.{os.getppid()}-0000abcd.tmp"  # a writer still running
    recent = tmp_path / ".players.dat.x8c7f9ab.tmp"  # no process number, but new
    other = tmp_path / ".other.dat.k2j4x9qa.tmp"
    for path in (old_name, running, recent, other):
        path.write_text("partial")
    for path in (old_name, running, other):
        os.utime(path, (1_000_000_000, 1_000_000_000))
    assert remove_stale_temps(target) == [old_name]
    assert names(tmp_path) == sorted([running.name, recent.name, other.name])


def test_read_bytes_reads_a_regular_file_or_a_symlink_to_one(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"12")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert read_bytes(tmp_path / "a") == read_bytes(tmp_path / "b", limit=2) == b"12"


def test_read_bytes_refuses_what_is_not_a_regular_file_or_too_large(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")  # opening it for reading would wait for a writer
    (tmp_path / "zero").symlink_to("/dev/zero")  # reading it would never end
    (tmp_path / "big").write_bytes(b"x" * 11)
    for name, reason in [
        ("fifo", "not a regular file"),
        ("zero", "not a regular file"),
        (".", "is a directory"),
        ("big", "larger than 10 bytes"),
    ]:
        with pytest.raises(UnsuitableFile) as refused:
            read_bytes(tmp_path / name, limit=10)
        assert refused.value.strerror == reason
