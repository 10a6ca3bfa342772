"""``casino explore --jobs N``: the program's runs judged ahead in a pool of processes, and what
is found, shrunk, written and said the same as with ``--jobs 1`` (but for the seconds)."""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from casino.explore.ahead import Ahead
from casino.explore.judge import Program
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner

MUTANTS = Path(__file__).resolve().parents[2] / "benchmarks" / "mutants.py"
SECONDS = re.compile(r"\d+\.\d s\b")


def _explore(folder: Path, program: str, jobs: int, *more: str) -> tuple[int, str, bytes]:
    """``casino explore`` of ``program`` in ``folder``: its status, its stdout with every
    figure in seconds masked, and the bytes of the transcript it wrote (``b""``: none)."""
    output = folder / f"jobs-{jobs}.yaml"
    done = subprocess.run(
        [sys.executable, "-m", "casino", "explore", "--reference", "nimsys", "--program", program,
         "--jobs", str(jobs), "-o", str(output), *more],
        capture_output=True, text=True, timeout=600, cwd=folder, check=False,
    )  # fmt: skip
    written = output.read_bytes() if output.exists() else b""
    shown = SECONDS.sub("S s", done.stdout.replace(output.name, "FILE"))
    return done.returncode, shown, written


def test_two_jobs_find_and_shrink_a_mutant_byte_for_byte_as_one(tmp_path: Path) -> None:
    program = f"{sys.executable} {MUTANTS} display-missing-silent"
    one = _explore(tmp_path, program, 1)
    two = _explore(tmp_path, program, 2)
    assert one[0] == two[0] == 1
    assert "differs" in one[1] and "shrunk to" in one[1]
    assert two == one
    assert b"displayplayer" in one[2]


def test_two_jobs_say_no_difference_on_an_honest_program_as_one(tmp_path: Path) -> None:
    program = f"{sys.executable} -m casino nimsys"
    one = _explore(tmp_path, program, 1, "--sessions", "24")
    two = _explore(tmp_path, program, 2, "--sessions", "24")
    assert one == two
    assert one[0] == 0 and one[2] == b""
    assert one[1].startswith("no difference in 24 sessions (")


def test_a_program_run_in_this_process_is_never_judged_ahead() -> None:
    program = Program(InProcessRunner(), Target("nimsys"))
    assert Ahead.of(program, 4) is None


def test_ctrl_c_with_two_jobs_keeps_what_was_found(tmp_path: Path) -> None:
    """Stopped while shrinking (a program that starts 0.2 s late, so shrinking lasts): the
    smallest session so far is written and replays as a difference; status 130."""
    wrapper = tmp_path / "slow.sh"
    wrapper.write_text(
        f'#!/bin/sh\nsleep 0.2\nexec "{sys.executable}" "{MUTANTS}" display-missing-silent "$@"\n'
    )
    wrapper.chmod(0o755)
    explore = subprocess.Popen(
        [sys.executable, "-m", "casino", "explore", "--reference", "nimsys", "--program",
         str(wrapper), "--jobs", "2", "-o", "found.yaml"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert explore.stderr is not None
    for line in explore.stderr:
        if "shrinking" in line:
            break
    else:
        pytest.fail("explore ended without shrinking")
    os.kill(explore.pid, signal.SIGINT)
    out, _ = explore.communicate(timeout=120)
    assert explore.returncode == 130
    assert "wrote found.yaml: replay it with" in out
    assert "partly shrunk" in out
    replay = subprocess.run(
        [sys.executable, "-m", "casino", "replay", "--program", str(wrapper), "found.yaml"],
        cwd=tmp_path, capture_output=True, timeout=300, check=False,
    )  # fmt: skip
    assert replay.returncode == 1


def _cli(folder: Path, cache: Path, *more: str) -> tuple[int, str, bytes]:
    output = folder / "found.yaml"
    output.unlink(missing_ok=True)
    program = f"{sys.executable} {MUTANTS} display-missing-silent"
    done = subprocess.run(
        [sys.executable, "-m", "casino", "explore", "--reference", "nimsys", "--program", program,
         "--jobs", "2", "-o", str(output), *more],
        capture_output=True, text=True, timeout=600, cwd=folder, check=False,
        env={**os.environ, "CASINO_CACHE_DIR": str(cache)},
    )  # fmt: skip
    return done.returncode, SECONDS.sub("S s", done.stdout), output.read_bytes()


def test_casino_explore_cached_says_and_writes_what_uncached_does(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    uncached = _cli(tmp_path, cache, "--no-cache")
    assert not cache.exists()  # --no-cache writes nothing
    cold = _cli(tmp_path, cache)
    (kept,) = (cache / "explore").iterdir()
    written = kept.read_bytes()
    warm = _cli(tmp_path, cache)
    assert uncached == cold == warm
    assert uncached[0] == 1 and "shrunk to" in uncached[1]
    assert kept.read_bytes() == written  # the warm run had nothing to add


def test_video_poker_keeps_no_recordings_between_runs() -> None:
    """Its tables are built once a process, so a kept session's arcs would depend on the run
    that recorded it (``keeps_recordings``), as five-card draw's (the evaluator's tables);
    Nimsys's are kept."""
    from casino.explore.cli import _recordings
    from casino.explore.grammars import grammar_of

    args = argparse.Namespace(no_cache=False, choices=False)
    assert _recordings(args, grammar_of("videopoker")) is None
    assert _recordings(args, grammar_of("draw")) is None
    kept = _recordings(args, grammar_of("nimsys"))
    assert kept is not None and kept.path.name.startswith("nimsys-")
    chosen = _recordings(argparse.Namespace(no_cache=False, choices=True), grammar_of("nimsys"))
    assert chosen is not None and chosen.path.name.startswith("nimsys-choices-")
    assert (
        _recordings(argparse.Namespace(no_cache=True, choices=False), grammar_of("nimsys")) is None
    )
