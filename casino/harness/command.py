"""What the harness's commands share, below every one of them (``casino replay`` and ``record``
in :mod:`casino.harness.cli`, ``casino grade`` in :mod:`casino.grade.cli`): running a
subcommand as a program that a stop signal unwinds, and finding the transcripts its PATHs name.

``casino.__main__`` dispatches each subcommand to its own module; those modules import this
one and never each other.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from casino.cmdline import Invocation, UsageError, run_program, run_subcommand
from casino.shell import Streams
from casino.stopping import stop_on_signals

Command = Callable[[list[str], Streams], int]
"""A harness subcommand: its arguments (after the subcommand word) and the streams."""


def run_command(
    commands: Mapping[str, Command],
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``casino COMMAND …`` (``argv`` starts with the subcommand word, one of
    ``commands``) under the program-entry contract of :mod:`casino.cmdline`."""

    def dispatch(invocation: Invocation) -> int:
        args = invocation.argv
        command = args[0] if args else ""
        if command not in commands:
            raise UsageError(f"expected one of {', '.join(commands)}, got {command or 'nothing'!r}")
        return run_subcommand(invocation, "casino", lambda sub: _stoppable(commands[command], sub))

    return run_program("casino", dispatch, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _stoppable(command: Command, invocation: Invocation) -> int:
    """Run ``command``; a signal stops it as Ctrl-C does, after every run it started has been
    ended and its scratch folder removed (``finally`` blocks all the way up), and is remembered
    so that a program run in-process that caught it still stops casino."""
    with stop_on_signals():
        return command(invocation.argv, invocation.streams)


def find_transcripts(paths: list[str]) -> list[Path]:
    """The files named, and every ``*.yaml`` under the directories named (sorted), but a
    folder's settings file (``casino.yaml``).

    A directory below that cannot be listed is in the list too, so that it is reported (as
    ``ERROR dir: cannot read: …``) rather than skipped without a word.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += sorted(_below(path))
        elif path.is_file():
            found.append(path)
        elif path.exists():
            raise UsageError(f"not a file or directory: {raw}")
        elif _is_pattern(raw):
            found += _matching_below(raw)
        else:
            raise UsageError(f"no such file or directory: {raw}")
    if not found:
        raise UsageError(f"no transcripts (*.yaml) in {' '.join(paths)}")
    return list(dict.fromkeys(found))


def _is_pattern(raw: str) -> bool:
    """Whether ``raw`` is a shell pattern (``transcripts/*.yaml``) that reached casino as typed:
    the shell leaves one that matches no file."""
    return any(char in raw for char in "*?[")


def _matching_below(pattern: str) -> list[Path]:
    """What ``transcripts/*.yaml`` means when the transcripts are in folders below: the files
    under the pattern's folder (at any depth) whose names match its last part, sorted;
    a usage error saying what to type when there are none (or the folder is a pattern too)."""
    folder, name = os.path.split(pattern)
    found = []
    if folder and not _is_pattern(folder) and Path(folder).is_dir():
        found = sorted(p for p in _below(Path(folder)) if fnmatch.fnmatchcase(p.name, name))
    if not found:
        where = f"{folder.rstrip('/')}/" if folder and not _is_pattern(folder) else "FOLDER/"
        raise UsageError(
            f"no file matches {pattern}: to replay every transcript below a folder, "
            f"name the folder ({where})"
        )
    return found


def _below(directory: Path) -> Iterator[Path]:
    """Every ``*.yaml`` that is not a directory under ``directory``, and every directory there
    that cannot be listed (symbolic links to directories are not followed)."""
    unreadable: list[Path] = []
    for folder, _, files in os.walk(
        directory, onerror=lambda e: unreadable.append(Path(e.filename))
    ):
        yaml = [name for name in files if name.endswith(".yaml")]
        if yaml:  # the transcripts' own modules: imported once there are some
            from casino.harness.load import is_settings_file

            yield from (Path(folder, name) for name in yaml if not is_settings_file(Path(name)))
    yield from unreadable
