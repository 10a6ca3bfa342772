"""The pipe runner's stdin: all of a run's input reaches the program, whatever its size, the
program's pace, or whether it reads at all; written from the read loop (no thread a run)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from casino.harness.model import In, Out, Run
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Outcome, Target

LINES = 20_000
"""Input lines of 10 bytes each: 200,000 bytes, three times a Linux pipe's 64 KiB."""


def big_input(expected: str) -> Run:
    """A run typing :data:`LINES` numbered lines, then expecting ``expected``."""
    return Run((*(In(f"line {n:04}"[:9]) for n in range(LINES)), Out(expected)))


def run_sh(tmp_path: Path, body: str, run: Run, timeout: float = 10.0) -> Outcome:
    """``run`` through the pipe runner against the shell program ``body``."""
    script = tmp_path / "program.sh"
    script.write_text(body, encoding="utf-8")
    job = Job(Target("x", ("sh", str(script))), run, tmp_path, timeout=timeout)
    return make_runner("pipe").run(job)


def test_input_beyond_a_pipes_capacity_all_arrives(tmp_path: Path) -> None:
    outcome = run_sh(tmp_path, "wc -c\n", big_input("200000\n"))
    assert (outcome.output.strip(), outcome.exit, outcome.problem) == ("200000", 0, None)


def test_a_slow_reader_gets_all_of_it(tmp_path: Path) -> None:
    body = "sleep 0.3\nwc -l\n"  # the pipe fills and stays full while it sleeps
    outcome = run_sh(tmp_path, body, big_input(f"{LINES}\n"))
    assert (outcome.output.strip(), outcome.exit, outcome.problem) == (str(LINES), 0, None)


def test_a_program_that_never_reads_is_judged_on_its_output(tmp_path: Path) -> None:
    outcome = run_sh(tmp_path, "echo hi\n", big_input("hi\n"))
    assert (outcome.output, outcome.exit, outcome.problem) == ("hi\n", 0, None)


def test_a_program_that_closes_its_output_first_still_reads_the_rest(tmp_path: Path) -> None:
    """Its output ends before its input is all written: the rest still comes (its exit
    status says it counted every byte), never an early end of file."""
    body = 'exec >&- 2>&-\nsleep 0.2\ntest "$(wc -c)" -eq 200000\n'
    outcome = run_sh(tmp_path, body, big_input(""))
    assert (outcome.output, outcome.exit, outcome.problem) == ("", 0, None)


def test_a_program_that_reads_nothing_more_and_lives_on_times_out(tmp_path: Path) -> None:
    body = "exec >&- 2>&-\nsleep 30\n"
    outcome = run_sh(tmp_path, body, big_input(""), timeout=0.5)
    assert outcome.problem is not None
    assert "closed its output but did not exit within 0.5 s" in outcome.problem


@pytest.mark.parametrize("lines", [1, LINES])
def test_a_run_starts_no_thread_when_its_output_ends_with_it(
    tmp_path: Path, lines: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = threading.active_count()
    started: list[threading.Thread] = []
    original = threading.Thread.start

    def note(thread: threading.Thread) -> None:
        started.append(thread)
        original(thread)

    monkeypatch.setattr(threading.Thread, "start", note)
    run = Run((*(In(f"{n:09}") for n in range(lines)), Out(f"{lines * 10}\n")))
    outcome = run_sh(tmp_path, "wc -c\n", run)
    monkeypatch.undo()
    assert (outcome.output, outcome.problem) == (f"{lines * 10}\n", None)
    assert started == []
    assert threading.active_count() == before
