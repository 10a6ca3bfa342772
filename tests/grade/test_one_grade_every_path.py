"""One grade on every path: a chain's runs share one folder (``players.dat`` carries over)
however the program is run — in process, through a pipe, in a terminal, in its own sandbox
or not — so every path gives every run the same verdict and the same points."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from casino.harness.diff import compare_run
from casino.harness.load import is_settings_file, load_transcript
from casino.harness.model import Transcript
from casino.harness.parse import parse_transcript
from casino.harness.runners import make_runner
from casino.harness.runners.base import FailureKind, Outcome, Problem, Target, timed_out
from casino.harness.runners.sandbox import Sandbox
from casino.harness.session import TranscriptResult, check
from casino.programs import PROGRAMS
from grade.grade_support import ROOT, SANDBOXED

SYSTEM_PYTHON = "/usr/bin/python3"
"""A Python the sandbox can see (it shows only ``/usr`` of the machine)."""
CHAINS = sorted(
    path
    for path in (ROOT / "transcripts").rglob("*.yaml")
    if not is_settings_file(path) and load_transcript(path).runs[1:]
)
"""Every shipped transcript of two or more runs."""
SANDBOXES = [None, Sandbox(isolate=True)] if SANDBOXED else [None]

KEEP = """\
[ -f saved.txt ] && cat saved.txt
read line
echo "got $line"
echo "$line" > saved.txt
"""
"""Saves its input in a file and prints it at its next run."""
KEEP_CHAIN = """\
name: keeps a file
runs:
  - steps:
      - in: hello
      - out: "got hello\\n"
  - steps:
      - out: "hello\\n"
      - in: again
      - out: "got again\\n"
timeout: 5
"""

LAUNCH = """\
import os, runpy, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
runpy.run_module(sys.argv.pop(1), run_name="__main__", alter_sys=True)
"""
"""Runs one of casino's programs from a folder holding a copy of casino, as a submission."""


@pytest.fixture(scope="module")
def readable() -> Iterator[Path]:
    """A folder the sandbox's user may read (pytest's own are its owner's only)."""
    folder = Path(tempfile.mkdtemp(prefix="casino-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def scores(result: TranscriptResult) -> list[tuple[bool, float]]:
    """Each run's verdict and points."""
    return [(v.passed, result.run_earned(i)) for i, v in enumerate(result.verdicts)]


def graded(
    transcript: Transcript, runner: str, target: Target, sandbox: Sandbox | None
) -> list[tuple[bool, float]]:
    """Each run's verdict and points on one path."""
    return scores(check(transcript, make_runner(runner), target, sandbox))


@pytest.mark.parametrize("sandbox", SANDBOXES, ids=lambda s: "sandboxed" if s else "trusted")
@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_a_file_written_by_one_run_reaches_the_next(
    readable: Path, runner: str, sandbox: Sandbox | None
) -> None:
    (readable / "keep.sh").write_text(KEEP)
    (readable / "chain.yaml").write_text(KEEP_CHAIN)
    transcript = load_transcript(readable / "chain.yaml")
    target = Target(None, ("sh", "keep.sh"), readable)
    assert graded(transcript, runner, target, sandbox) == [(True, 0.5), (True, 0.5)]


@pytest.mark.parametrize("sandbox", SANDBOXES, ids=lambda s: "sandboxed" if s else "trusted")
@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_a_run_that_differs_still_leaves_its_file_for_the_next(
    readable: Path, runner: str, sandbox: Sandbox | None
) -> None:
    """It ends its lines with ``\r\n`` and saves its input after answering: through a
    terminal too, it is not stopped at the difference, so the next run reads what it saved and
    each run keeps its behaviour points (the rubric's 9/10)."""
    answer = 'printf "got %s\\r\\n" "$line"\nsleep 0.2  # then it saves, as a program saves at exit'
    (readable / "crlf.sh").write_text(KEEP.replace('echo "got $line"', answer))
    (readable / "crlf.yaml").write_text(KEEP_CHAIN + "rubric: {format: 1, behaviour: 9}\n")
    transcript = load_transcript(readable / "crlf.yaml")
    target = Target(None, ("sh", "crlf.sh"), readable)
    assert graded(transcript, runner, target, sandbox) == [(False, 0.45), (False, 0.45)]


@pytest.fixture(scope="module")
def submission(readable: Path) -> Path:
    """A folder holding a copy of casino and a launcher: casino's programs as a student's."""
    folder = readable / "submission"
    folder.mkdir(mode=0o755)
    shutil.copytree(ROOT / "casino", folder / "casino")  # with its bytecode: quick to start
    (folder / "launch.py").write_text(LAUNCH)
    return folder


@pytest.mark.skipif(not Path(SYSTEM_PYTHON).exists(), reason="no /usr/bin/python3")
@pytest.mark.parametrize("path", CHAINS, ids=lambda p: p.stem)
def test_every_shipped_chain_scores_alike_on_every_path(path: Path, submission: Path) -> None:
    # casino's program is the reference, so even a ``reference: casino`` chain is run
    transcript = replace(load_transcript(path), reference=None)
    assert transcript.program is not None
    inproc = graded(transcript, "inproc", Target(transcript.program), None)
    assert all(passed for passed, _ in inproc)
    command = (SYSTEM_PYTHON, "launch.py", PROGRAMS[transcript.program])
    target = Target(transcript.program, command, submission)
    # Unsandboxed, a chain a student can pass already passes through a pipe and a terminal
    # (test_own_programs_as_program.py); the rest is run here, each path once.
    sandboxes = SANDBOXES if load_transcript(path).reference else SANDBOXES[1:]
    for runner in ("pipe", "pty"):
        for sandbox in sandboxes:
            assert graded(transcript, runner, target, sandbox) == inproc, (runner, sandbox)


ANSWERS = """\
read a
echo "got $a"
read b
echo "got $b"
"""
"""Answers each line, but reads it without the prompt the transcript expects first."""
ANSWERS_TRANSCRIPT = """\
name: answers without a prompt
steps:
  - out: "bet? "
  - in: "1"
  - out: "got 1\\nbet? "
  - in: "2"
  - out: "got 2\\n"
timeout: 2
rubric: {format: 1, behaviour: 9}
facts: {numbers: true}
"""


def _graded_sh(folder: Path, name: str, program: str, runner: str) -> list[tuple[bool, float]]:
    (folder / f"{name}.sh").write_text(program)
    (folder / f"{name}.yaml").write_text(ANSWERS_TRANSCRIPT)
    transcript = load_transcript(folder / f"{name}.yaml")
    return graded(transcript, runner, Target(None, ("sh", f"{name}.sh"), folder), None)


def test_a_prompt_that_never_comes_scores_alike_through_a_pipe_and_a_terminal(
    readable: Path,
) -> None:
    """The terminal waits the step timeout for ``bet? ``, then types the rest as the pipe
    gave it: the program ends by itself, and both runs are judged on the same output (before,
    the terminal's run was a time-out worth 0)."""
    piped = _graded_sh(readable, "answers", ANSWERS, "pipe")
    assert piped[0][0] is False and piped[0][1] > 0  # it kept its behaviour points
    assert _graded_sh(readable, "answers", ANSWERS, "pty") == piped


def test_a_program_that_stops_answering_keeps_the_same_points_on_every_runner(
    readable: Path,
) -> None:
    """It answers the first line and then hangs: stopped on both runners, each judged on the
    ``got 1`` it printed (half the facts), never a pass and never worth nothing."""
    hangs = ANSWERS.replace('echo "got $b"', "sleep 60")
    piped = _graded_sh(readable, "hangs", hangs, "pipe")
    whole = _graded_sh(readable, "answers", ANSWERS, "pipe")
    assert piped[0][0] is False and 0 < piped[0][1] < whole[0][1]
    assert _graded_sh(readable, "hangs", hangs, "pty") == piped


@pytest.mark.parametrize(
    ("problem", "judged"),
    [
        (timed_out("timed out: no output for 2 s; it was stopped"), True),  # pipe
        (timed_out("timed out: waited 2 s for step 3 (out); it was stopped"), True),  # pty
        (
            timed_out("timed out: no input was read for 2 s (after 1 input line); it was stopped"),
            True,
        ),
        (timed_out("timed out: still running after 10 s; it was stopped"), True),  # deadline
        (Problem("stopped: it printed more than 65536 bytes", FailureKind.FLOOD), False),
        (Problem("killed by signal SIGSEGV"), False),
        (Problem("cannot start 'x': No such file or directory", FailureKind.CANNOT_START), False),
    ],
)
def test_a_time_out_keeps_the_behaviour_of_what_was_printed_and_nothing_else_does(
    problem: str, judged: bool
) -> None:
    """The verdict's rule, whichever runner stopped the program (the in-process one too): a
    time-out is judged on the facts printed before it (its exit status unknown, not a
    difference); a flood, a signal or a program that never started keeps nothing."""
    text = ANSWERS_TRANSCRIPT.replace("timeout: 2", "timeout: 2\nexit: 0")
    transcript = parse_transcript(text, Path("answers.yaml"))
    run, grading = transcript.runs[0], transcript.grading
    ended = compare_run(run, Outcome(chunks=("got 1\n",), exit=0), (), grading)
    verdict = compare_run(run, Outcome(chunks=("got 1\n",), problem=problem), (), grading)
    assert not verdict.passed and 0 < ended.credit < 1
    assert verdict.credit == (ended.credit if judged else 0)
