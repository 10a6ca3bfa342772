"""``players.dat``: the players Nimsys keeps between runs (Project C, section 2.3).

The format is our own, in UTF-8 text::

    casino-nimsys players 1
    human<TAB>lskywalker<TAB>Skywalker<TAB>Luke<TAB>3<TAB>3
    ai<TAB>artoo<TAB>D2<TAB>R2<TAB>1<TAB>1

The first line names the format and its version. Each further line is one player: kind,
username, family name, given name, games played, games won. A backslash, tab, carriage return
or newline inside a field is written ``\\\\``, ``\\t``, ``\\r``, ``\\n``. Players are written in
username order, so the same players always give the same bytes.

Reading is strict: a file that is not exactly this (wrong header, a field missing, a bad number,
more wins than games, a username twice, bytes that are not UTF-8) is rejected whole with a
:class:`~casino.errors.ParseError` naming the line — a partial load would save a partial file.
Only a regular file (or a symlink to one) of at most 16 MiB is read: a FIFO or a device is
refused at once, never waited on or read without end.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from casino.errors import ParseError
from casino.files import read_bytes, write_atomic
from casino.nim.players import Player, PlayerKind
from casino.numbers import is_digits

FILE_NAME = "players.dat"
MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest players file read (about 200,000 players); a larger one is not ours."""
HEADER = "casino-nimsys players 1"
_FIELDS = 6
_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\r": "\\r", "\n": "\\n"}
_UNESCAPES = {"\\": "\\", "t": "\t", "r": "\r", "n": "\n"}


def _escape(text: str) -> str:
    return "".join(_ESCAPES.get(char, char) for char in text)


def _unescape(text: str, line: int) -> str:
    out, chars = [], iter(text)
    for char in chars:
        if char == "\\":
            code = next(chars, "")
            if code not in _UNESCAPES:
                raise ParseError(f"line {line}: bad escape '\\{code}'")
            char = _UNESCAPES[code]
        out.append(char)
    return "".join(out)


def dumps(players: list[Player]) -> str:
    """The text of a players file holding ``players``, in username order."""
    lines = [HEADER]
    for player in sorted(players, key=lambda p: p.username):
        fields = (player.kind.value, player.username, player.family_name, player.given_name)
        lines.append("\t".join([*map(_escape, fields), str(player.played), str(player.won)]))
    return "\n".join(lines) + "\n"


def _count(text: str, line: int, what: str) -> int:
    if not is_digits(text):
        raise ParseError(f"line {line}: {what} is not a count: {text!r}")
    return int(text)


def _player(text: str, line: int) -> Player:
    fields = text.split("\t")
    if len(fields) != _FIELDS:
        raise ParseError(f"line {line}: {len(fields)} fields, {_FIELDS} expected")
    kind_word, username, family, given = (_unescape(f, line) for f in fields[:4])
    try:
        kind = PlayerKind(kind_word)
    except ValueError:
        raise ParseError(f"line {line}: unknown kind of player {kind_word!r}") from None
    if not username:
        raise ParseError(f"line {line}: empty username")
    played, won = _count(fields[4], line, "games"), _count(fields[5], line, "wins")
    if won > played:
        raise ParseError(f"line {line}: {won} wins in {played} games")
    return Player(username, family, given, kind, played, won)


def loads(text: str) -> list[Player]:
    """The players in the text of a players file; :class:`ParseError` if it is not one."""
    lines = text.split("\n")
    if lines[0] != HEADER:
        raise ParseError(f"line 1: not a players file (expected {HEADER!r})")
    if lines[-1] != "":
        raise ParseError(f"line {len(lines)}: the file does not end with a newline")
    players, seen = [], set()
    for number, line in enumerate(lines[1:-1], start=2):
        player = _player(line, number)
        if player.username in seen:
            raise ParseError(f"line {number}: username {player.username!r} appears twice")
        seen.add(player.username)
        players.append(player)
    return players


@dataclass(frozen=True)
class Loaded:
    """What loading found: the players, and a one-line warning when the file was unusable.

    ``writable`` is False when an unusable file could not be moved aside: saving would then
    overwrite it, so the caller must not save.
    """

    players: list[Player]
    warning: str | None = None
    writable: bool = True


def _aside_name(path: Path) -> Path:
    """A free name next to ``path`` for keeping a bad file: ``players.dat.bad``, ``.bad.2``…"""
    candidate, number = path.with_name(path.name + ".bad"), 1
    while candidate.exists() or candidate.is_symlink():
        number += 1
        candidate = path.with_name(f"{path.name}.bad.{number}")
    return candidate


def load(path: Path) -> Loaded:
    """Read the players file at ``path``; a missing file is no players and no warning.

    A file that cannot be read or parsed is renamed aside (never overwritten later) and
    reported; the program then starts with no players.
    """
    try:
        text = read_bytes(path, MAX_FILE_BYTES).decode("utf-8")
        return Loaded(loads(text))
    except FileNotFoundError:
        return Loaded([])
    except (OSError, UnicodeDecodeError, ParseError) as error:
        problem = _describe(error)
    aside = _aside_name(path)
    try:
        os.rename(path, aside)
    except OSError as error:
        return Loaded(
            [],
            f"{path}: {problem}; could not move it aside ({_describe(error)}), "
            "so it will not be overwritten: players of this session will not be saved",
            writable=False,
        )
    return Loaded([], f"{path}: {problem}; kept as {aside}, starting with no players")


def save(path: Path, players: list[Player]) -> str | None:
    """Write ``players`` to ``path`` atomically; a one-line problem report, or None if saved.

    As :func:`casino.files.write_atomic` does: a symlink is written through, the file's mode is
    kept, and a read-only file is left as it is (reported, not replaced)."""
    try:
        write_atomic(path, dumps(players))
    except OSError as error:
        return f"{path}: players not saved: {_describe(error)}"
    return None


def _describe(error: Exception) -> str:
    """A short reason for ``error``, without the file name OSError repeats."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror[:1].lower() + error.strerror[1:]
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text"
    return str(error)
