"""Every run is bounded: memory whatever a program prints, time whatever it does, and a pty
run that can no longer match is stopped at once (issue 10 items 1-2, issue 9 item 3)."""

from __future__ import annotations

import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import pytest

from casino.harness.diff import compare_run
from casino.harness.model import In, Out, OutRe, Run
from casino.harness.parse import parse_transcript
from casino.harness.runners import make_runner
from casino.harness.runners.base import (
    OUTPUT_MARGIN,
    PATTERN_MARGIN,
    STDERR_KEPT,
    STDERR_MARGIN,
    Job,
    Limits,
    Target,
    output_limit,
)
from casino.harness.runners.inproc import InProcessRunner
from harness.harness_support import sh_program, write_transcript

MENU = """\
name: menu
program: menu
steps:
  - out: "Welcome\\n> "
  - in: list
  - out: "nothing\\n> "
  - in: quit
  - out: "bye\\n"
timeout: 5
"""
MENU_LIMIT = 24 + 65536
"""What MENU's ``out`` steps hold (24 bytes) plus the fixed margin."""
MENU_PATTERN = MENU.replace('- out: "nothing\\n> "', '- out_re: "[a-z]+\\n> "')
MENU_PATTERN_LIMIT = 14 + 65536 + 65536
"""Its two ``out`` steps (14 bytes), one ``out_re`` step's margin, the fixed margin."""

ADDRESS_SPACE = 256 << 20
"""casino fits in this (it runs in under 100 MB of it); keeping a flood does not."""


def test_a_runs_limits_follow_its_transcript() -> None:
    run = Run((Out("abc"), In("x"), Out("é\n"), OutRe(".*"), In("y")), stderr="oops\n")
    assert output_limit(run) == 3 + 3 + PATTERN_MARGIN + OUTPUT_MARGIN
    assert OUTPUT_MARGIN == PATTERN_MARGIN == STDERR_KEPT == 65536
    job = Job(Target("demo"), run, Path("."), timeout=2.5)
    assert Limits.of(job) == Limits(
        output=6 + 2 * 65536, stderr_kept=5 + STDERR_KEPT, stderr=5 + STDERR_MARGIN, seconds=12.5
    )
    empty = Job(Target("demo"), Run(()), Path("."), timeout=3)
    assert Limits.of(empty).seconds == 3


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def _replay(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``casino replay ARGS`` in a process of its own with at most :data:`ADDRESS_SPACE`."""
    return subprocess.run(
        [sys.executable, "-m", "casino", "replay", *args],
        cwd=tmp_path,
        preexec_fn=_limited,
        capture_output=True,
        text=True,
        timeout=120,
    )


FLOODS = [
    ("pipe", "yes Invalid", MENU, f"stopped: it printed more than {MENU_LIMIT} bytes"),
    (
        "pipe",
        "head -c 500000000 /dev/zero",
        MENU,
        f"stopped: it printed more than {MENU_LIMIT} bytes",
    ),
    (
        "pty",
        "head -c 500000000 /dev/zero",
        MENU,
        f"stopped: it printed more than {MENU_LIMIT} bytes",
    ),
    (
        "pty",
        "yes Invalid",
        MENU_PATTERN,
        f"stopped: it printed more than {MENU_PATTERN_LIMIT} bytes",
    ),
    ("pipe", "sh -c 'yes err >&2'", MENU, "stopped: it printed more than 1048576 bytes to stderr"),
    ("pty", "sh -c 'yes err >&2'", MENU, "stopped: it printed more than 1048576 bytes to stderr"),
]


@pytest.mark.parametrize(
    ("runner", "program", "transcript", "problem"),
    FLOODS,
    ids=["pipe-yes", "pipe-500MB", "pty-500MB", "pty-yes", "pipe-stderr", "pty-stderr"],
)
def test_a_flood_is_stopped_within_a_memory_limit(
    tmp_path: Path, runner: str, program: str, transcript: str, problem: str
) -> None:
    path = write_transcript(tmp_path / "menu.yaml", transcript)
    result = _replay(tmp_path, "--runner", runner, "--program", program, str(path))
    assert result.stderr == ""
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[:2] == [f"FAIL menu ({path})", f"  {problem}"]
    assert lines[-1] == "0 passed, 1 failed (1 transcript)"
    assert len(result.stdout) < 20 * MENU_PATTERN_LIMIT  # the kept part, not the flood


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_a_flood_keeps_exactly_the_limit_of_stdout(tmp_path: Path, runner: str) -> None:
    run = parse_transcript(MENU_PATTERN, Path("menu.yaml")).runs[0]
    job = Job(Target(None, ("yes", "Invalid")), run, tmp_path, timeout=5)
    outcome = make_runner(runner).run(job)
    assert outcome.problem == f"stopped: it printed more than {MENU_PATTERN_LIMIT} bytes"
    assert outcome.exit is None
    assert len(outcome.output) == MENU_PATTERN_LIMIT
    assert set(outcome.output.split("\n")[:-1]) == {"Invalid"}


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_stderr_keeps_its_start_and_counts_the_rest(tmp_path: Path, runner: str) -> None:
    noisy = sh_program(
        tmp_path, "noisy", "head -c 100000 /dev/zero | tr '\\0' e >&2\nprintf 'Welcome\\n> '\n"
    )
    run = Run((Out("Welcome\n> "),))
    job = Job(Target(None, tuple(noisy.split())), run, tmp_path, timeout=5)
    outcome = make_runner(runner).run(job)
    assert (outcome.problem, outcome.exit, outcome.output) == (None, 0, "Welcome\n> ")
    assert outcome.stderr == "e" * STDERR_KEPT
    assert outcome.stderr_dropped == 100000 - STDERR_KEPT


def _flooding_main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Prints 700 KB to stderr and 800 KB to stdout (a bounded flood: a missing cap fails the
    test rather than hanging it)."""
    assert stdout is not None and stderr is not None
    for _ in range(100_000):
        stderr.write("Error\n\n")
    for _ in range(100_000):
        stdout.write("Invalid\n")
    return 0


def test_the_in_process_runner_caps_output_and_stderr_too(tmp_path: Path) -> None:
    run = Run((Out("Welcome\n> "), In("x"), Out("bye\n")))
    runner = InProcessRunner({"flood": _flooding_main})
    outcome = runner.run(Job(Target("flood"), run, tmp_path, timeout=5))
    limit = 14 + OUTPUT_MARGIN
    assert outcome.problem == f"stopped: it printed more than {limit} bytes"
    assert outcome.output == ("Invalid\n" * limit)[:limit]
    assert outcome.stderr == ("Error\n\n" * STDERR_KEPT)[:STDERR_KEPT]
    assert outcome.stderr_dropped == 700_000 - STDERR_KEPT


# ------------------------------------------------------------------ every run ends

DOTS = "while true; do printf .; sleep 0.05; done\n"


def test_the_pty_runner_stops_a_program_printing_forever_at_the_overall_deadline(
    tmp_path: Path,
) -> None:
    dots = sh_program(tmp_path, "dots", DOTS)
    path = write_transcript(
        tmp_path / "dots.yaml",
        'name: dots\nprogram: dots\nsteps:\n  - out_re: "\\\\.*"\ntimeout: 1\n',
    )
    result = subprocess.run(
        [sys.executable, "-m", "casino", "replay", "--runner", "pty", "--program", dots, path],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = result.stdout.splitlines()
    assert lines[:2] == [
        f"FAIL dots ({path})",
        "  timed out: still running after 1 s; it was stopped",
    ]


def _record(tmp_path: Path, program: str, lines: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "in.txt").write_text(lines, encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "casino",
            "record",
            "--program",
            program,
            "--timeout",
            "1",
            "--settle",
            "0.5",
            "--stdin",
            "in.txt",
            "-o",
            "out.yaml",
            "dots",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_record_stops_a_program_that_never_settles(tmp_path: Path) -> None:
    result = _record(tmp_path, sh_program(tmp_path, "dots", DOTS), "a\nb\n")
    assert result.stderr == (
        "casino record: timed out: it kept printing for 1 s without a pause of 0.5 s;"
        " it was stopped; nothing was written\n"
    )
    assert result.returncode == 1
    assert not (tmp_path / "out.yaml").exists()


def test_record_stops_a_program_that_prints_forever_after_its_input(tmp_path: Path) -> None:
    program = sh_program(tmp_path, "late", "while read x; do echo ok; done\n" + DOTS)
    result = _record(tmp_path, program, "a\nb\n")
    assert result.stderr == (
        "casino record: timed out: it did not end within 1 s after its input ended;"
        " nothing was written\n"
    )
    assert not (tmp_path / "out.yaml").exists()


# ------------------------------------------------------------------ a mismatch, not a hang

WRONG_SPACE = """\
import sys


def main(argv=None, *, stdin=None, stdout=None, stderr=None):
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    stdout.write("Welcome\\n> ")
    stdout.flush()
    while line := stdin.readline():
        stdout.write(f"got  {line.strip()}\\n> ")  # one space too many
        stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
"""

GOT = """\
name: got
program: got
steps:
  - out: "Welcome\\n> "
  - in: a
  - out: "got a\\n> "
  - in: b
  - out: "got b\\n> "
exit: 0
timeout: 2
"""


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_a_program_stuck_after_a_mismatch_is_judged_alike_by_pipe_and_pty(
    tmp_path: Path, runner: str
) -> None:
    """It differs, then waits forever at end of input: the terminal, like the pipe, gives it
    the rest of its input and waits for its end (a chain's next run, and a rubric, see what it
    did), so both name the difference and the time-out."""
    stuck = sh_program(
        tmp_path,
        "stuck",
        "printf 'Welcome\\n> '\nwhile read x; do printf 'got  %s\\n> ' \"$x\"; done\nsleep 30\n",
    )
    path = write_transcript(tmp_path / "got.yaml", GOT)
    result = subprocess.run(
        [sys.executable, "-m", "casino", "replay", "--runner", runner, "--program", stuck, path],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = result.stdout.splitlines()
    assert lines[0] == f"FAIL got ({path})"
    assert lines[1].startswith("  timed out: ")
    assert lines[2:6] == [
        "  output differs at step 3 (out), line 2, column 7:",
        "    expected: >·got·a⏎",
        "    actual:   >·got··a⏎",
        "                    ^",
    ]
    assert "  +> got  b" in lines  # it was given its second line too


@pytest.mark.parametrize("runner", ["inproc", "pipe", "pty"])
def test_a_diverging_program_fails_alike_under_every_runner(tmp_path: Path, runner: str) -> None:
    script = tmp_path / "got.py"
    script.write_text(WRONG_SPACE, encoding="utf-8")
    namespace: dict[str, object] = {}
    exec(compile(WRONG_SPACE, str(script), "exec"), namespace)
    run = parse_transcript(GOT, Path("got.yaml")).runs[0]
    if runner == "inproc":
        job = Job(Target("got"), run, tmp_path, timeout=2)
        outcome = InProcessRunner({"got": namespace["main"]}).run(job)  # type: ignore[dict-item]
    else:
        job = Job(Target(None, (sys.executable, str(script))), run, tmp_path, timeout=2)
        outcome = make_runner(runner).run(job)
    verdict = compare_run(run, outcome)
    assert not verdict.passed
    assert verdict.problem is None
    difference = verdict.output.difference
    assert difference is not None
    assert (difference.line, difference.column, difference.step) == (2, 7, "step 3 (out)")
    assert outcome.output.startswith("Welcome\n> got  a\n")
