"""Thousands of random command lines: never a traceback, and the player records stay consistent."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.nim import storage

from .helpers import Run, nimsys

COMMANDS = [
    "addplayer",
    "addaiplayer",
    "removeplayer",
    "editplayer",
    "resetstats",
    "displayplayer",
    "rankings",
    "startgame",
    "startadvancedgame",
    "exit",
    "createplayer",
    "ADDPLAYER",
    "",
]
NUMBERS = ["0", "1", "2", "3", "5", "11", "-1", "2.5", "abc", "1000", "1001", "9" * 40, " 7 "]
USERNAMES = ["a", "b", "c", "zoë", "ai", ""]

no_newline = st.text(st.characters(exclude_characters="\n\r", codec="utf-8"), max_size=12)
argument = st.one_of(st.sampled_from(USERNAMES + NUMBERS + ["asc", "desc"]), no_newline)
command = st.builds(
    lambda word, args, sep: (word + sep + ",".join(args)).rstrip(" ") if args else word,
    st.sampled_from(COMMANDS),
    st.lists(argument, max_size=5),
    st.sampled_from([" ", "  ", "\t"]),
)
players = st.sampled_from(["a,b", "b,a", "ai,a", "a,ai", "ai,ai", "a,c", "a,a"])
stones = st.sampled_from(["1", "2", "3", "4", "5", "8", "11", "0", "x"])
game_start = st.one_of(
    st.builds("startgame {},{},{}".format, stones, st.sampled_from(["1", "2", "3", "0"]), players),
    st.builds("startadvancedgame {},{}".format, stones, players),
)
move = st.one_of(
    st.sampled_from(["1", "2", "3", "1 1", "2 2", "3 1", "1 2", "0", "", "y", "Y", "n"]),
    st.builds("{} {}".format, st.integers(-2, 13), st.integers(-1, 3)),
)
setup = ["addplayer a,A,Aa", "addplayer b,B,Bb", "addaiplayer ai,I,A"]
finish = st.sampled_from([[], ["1"] * 12, [f"{k} 1" for k in range(1, 12)]])  # ends ≤ 11 stones
game = st.builds(
    lambda start, moves, end: [start, *moves, *end], game_start, st.lists(move, max_size=12), finish
)
chunk = st.one_of(command.map(lambda text: [text]), no_newline.map(lambda text: [text]), game, game)
sessions = st.lists(chunk, min_size=3, max_size=12).map(
    lambda chunks: setup + [text for lines in chunks for text in lines]
)


@contextlib.contextmanager
def fresh_directory() -> Iterator[Path]:
    """A new empty working directory for one session (hypothesis reuses the test's own)."""
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            yield Path(folder)
        finally:
            os.chdir(here)


def _run(lines: list[str]) -> tuple[Run, str]:
    with fresh_directory():
        run = nimsys("".join(text + "\n" for text in lines))
        return run, Path("players.dat").read_text(encoding="utf-8")


DISPLAY = re.compile(r"(.*),(\d+) games,(\d+) wins")


@settings(max_examples=300, deadline=None)
@given(sessions)
def test_random_sessions_never_crash_and_keep_records_consistent(lines: list[str]) -> None:
    run, saved = _run(lines)
    assert (run.status, run.err) == (0, "")
    assert run.out.startswith("Welcome to Nim\n\n$")
    assert run.out.endswith("\n")

    players = storage.loads(saved)
    assert [p.username for p in players] == sorted({p.username for p in players})
    games = run.out.count("\nGame Over\n")
    assert run.out.count(" wins!\n") >= games
    assert sum(p.won for p in players) <= games
    assert sum(p.played for p in players) <= 2 * games

    assert _run(lines) == (run, saved)  # same input, same bytes

    with fresh_directory():
        Path("players.dat").write_text(saved, encoding="utf-8")
        shown = nimsys("displayplayer\nrankings\n").out
    listing = shown.split("\n$")[1]
    assert listing == "".join(
        f"{p.username},{p.given_name},{p.family_name},{p.played} games,{p.won} wins\n"
        for p in players
    )
    assert shown.split("\n$")[2].count("\n") == min(10, len(players))
    for text in listing.split("\n")[:-1]:
        assert DISPLAY.fullmatch(text)


@settings(max_examples=12, deadline=None)
@given(sessions)
def test_random_sessions_in_a_real_process_write_nothing_on_stderr(lines: list[str]) -> None:
    """A crash would show on the real process's stderr (the in-process run would raise): a
    few sessions run as ``python -m casino.nimsys``, and print what the in-process run prints."""
    text = "".join(line + "\n" for line in lines)
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [sys.executable, "-m", "casino.nimsys"],
            input=text.encode(),
            capture_output=True,
            cwd=folder,
            timeout=60,
            check=False,
        )
    assert (done.returncode, done.stderr.decode()) == (0, "")
    run, _ = _run(lines)
    assert done.stdout.decode() == run.out
