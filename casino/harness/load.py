"""Transcripts from files: read bounded, validated, and given their folder's settings.

A transcript may come from anyone, so reading is bounded: a file of at most
:data:`MAX_TRANSCRIPT_BYTES`, read only if it is a regular file (never a FIFO or a device), its
fixtures together at most :data:`MAX_FIXTURE_BYTES`; the text is validated by
:mod:`casino.harness.parse`. A folder's settings file (:data:`FOLDER_SETTINGS`) says what its
transcripts allow, how they are graded and what feedback shows of them, when they say nothing.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from casino.errors import OverLimit
from casino.harness.model import VISIBILITIES, Transcript, TranscriptError
from casino.harness.parse import match_kinds, parse_transcript
from casino.harness.rubric import (
    EVERY_WORD_AND_NUMBER,
    Facts,
    Grading,
    Rubric,
    parse_facts,
    parse_rubric,
)
from casino.harness.yamltext import TextError, load_text, position

MAX_TRANSCRIPT_BYTES = 4 << 20
"""A transcript file is at most 4 MiB (casino's own are under 20 KB)."""
MAX_FIXTURE_BYTES = 16 << 20
"""A transcript's fixtures together are at most 16 MiB."""


class TooLarge(OverLimit, ValueError):
    """A file over the size :func:`read_capped` was allowed to read."""


def read_capped(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``; ``ValueError`` (one line) if it cannot be
    read, is not a regular file (a FIFO, a device such as ``/dev/zero``, a directory), or holds
    more than ``limit`` bytes (:class:`TooLarge`). Opening never blocks, and at most
    ``limit + 1`` bytes are read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise ValueError(error.strerror or str(error)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError("is a directory" if stat.S_ISDIR(mode) else "not a regular file")
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise ValueError(error.strerror or str(error)) from None
    if len(data) > limit:
        size = f"{limit >> 20} MiB" if limit % (1 << 20) == 0 else f"{limit} bytes"
        raise TooLarge(f"more than {size}")
    return data


def load_transcript(path: str | Path) -> Transcript:
    """Read and validate the transcript at ``path``; :class:`TranscriptError` if it is not one."""
    try:
        data = read_capped(path, MAX_TRANSCRIPT_BYTES)
    except ValueError as problem:
        raise TranscriptError(f"{path}: cannot read: {problem}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, start) + 1
        column = len(data[start : error.start].decode("utf-8", "replace")) + 1
        raise TranscriptError(f"{path}: line {line}, column {column}: not UTF-8 text") from None
    transcript = parse_transcript(text, Path(path))
    folder = folder_settings(Path(path))
    allowed = folder.match or () if transcript.match is None else transcript.match
    shown = transcript.visibility or folder.visibility or "visible"
    rubric = transcript.rubric or folder.rubric
    facts = transcript.facts or folder.facts or EVERY_WORD_AND_NUMBER
    grading = None if rubric is None else Grading(rubric, facts)
    return replace(transcript, allowed=allowed, shown=shown, grading=grading)


FOLDER_SETTINGS = "casino.yaml"
"""A folder's settings file (``match``, ``rubric``, ``facts``, ``visibility``, and the course
rubric's ``lines``, read by :mod:`casino.grade.lines`): never a transcript itself."""
SETTINGS_KEYS = ("match", "rubric", "facts", "visibility", "lines")


@dataclass(frozen=True)
class Settings:
    """What a folder's settings say (``None``: it says nothing of that)."""

    match: tuple[str, ...] | None = None
    rubric: Rubric | None = None
    facts: Facts | None = None
    visibility: str | None = None


def is_settings_file(path: Path) -> bool:
    """Whether ``path`` is a folder's settings file rather than a transcript."""
    return path.name == FOLDER_SETTINGS


def folder_match(path: Path) -> tuple[str, ...]:
    """What the nearest folder settings file above the transcript at ``path`` allows
    (:func:`folder_settings`); ``()`` when none says."""
    return folder_settings(path).match or ()


def folder_settings(path: Path) -> Settings:
    """What the folder settings files above the transcript at ``path`` say, each key from
    the nearest one that states it: its own folder's ``casino.yaml``, else its parent's, and
    so on up to the nearest folder named ``transcripts`` (only its own folder when it is in
    none)."""
    folders = [path.parent, *path.parent.parents]
    top = next((i for i, f in enumerate(folders) if f.name == "transcripts"), 0)
    found: dict[str, Any] = {}
    for folder in folders[: top + 1]:
        settings = folder / FOLDER_SETTINGS
        if settings.is_file():
            for key, value in vars(read_settings(settings)).items():
                if value is not None:
                    found.setdefault(key, value)
    return Settings(**found)


def _visibility_value(value: Any, where: str) -> str:
    if value not in VISIBILITIES:
        raise TranscriptError(
            f"{where}'visibility' must be one of {', '.join(VISIBILITIES)}, not {value!r}"
        )
    return str(value)


def read_settings(settings: Path) -> Settings:
    """What one settings file states (:class:`TranscriptError` naming it if it is not one)."""
    try:
        data = load_text(read_capped(settings, MAX_TRANSCRIPT_BYTES).decode("utf-8"))
    except (ValueError, TextError) as problem:
        raise TranscriptError(f"{settings}: {problem}") from None
    if not isinstance(data, dict) or set(data) - set(SETTINGS_KEYS):
        keys = ", ".join(SETTINGS_KEYS)
        raise TranscriptError(f"{settings}: a folder's settings file holds only {keys}")

    def error(key: str) -> Callable[[str], Exception]:
        where = position(data, key)
        at = f"line {where[0]}, column {where[1]}: " if where else ""
        return lambda problem: TranscriptError(f"{settings}: {at}{problem}")

    return Settings(
        match_kinds(data["match"], error("match")) if "match" in data else None,
        parse_rubric(data["rubric"], error("rubric")) if "rubric" in data else None,
        parse_facts(data["facts"], error("facts")) if "facts" in data else None,
        _visibility_value(data["visibility"], f"{settings}: ") if "visibility" in data else None,
    )
