"""The in-process runner: chunks split at reads, timeouts, crashes, files and chained runs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

import pytest

from casino.harness.model import In, Out, Run
from casino.harness.parse import parse_transcript
from casino.harness.report import render
from casino.harness.runners.base import Job, Target, TargetError
from casino.harness.runners.inproc import Capture, InProcessRunner, ScriptedInput
from casino.harness.session import Status, check
from casino.programs import MainFunction

Body = Callable[[list[str], TextIO, TextIO], int]


def program(body: Body) -> MainFunction:
    """A casino-style ``main`` around ``body(argv, stdin, stdout)``."""

    def main(
        argv: Sequence[str] | None = None,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
    ) -> int:
        assert stdin is not None and stdout is not None
        return body(list(argv or []), stdin, stdout)

    return main


@program
def echo_main(argv: list[str], source: TextIO, out: TextIO) -> int:
    """Prompt ``> ``, echo each line upper-cased; ``quit`` stops with status 4."""
    out.write(f"args {argv}\n> ")
    out.flush()
    for line in source:
        if line.strip() == "quit":
            return 4
        out.write(line.upper() + "> ")
    out.write("eof\n")
    return 0


@program
def hung_main(argv: list[str], source: TextIO, out: TextIO) -> int:
    """Greets, reads one line, then never reads again."""
    out.write("hello\n$ ")
    source.readline()
    out.write("thinking...")
    while True:
        pass


@program
def crashing_main(argv: list[str], source: TextIO, out: TextIO) -> int:
    """Prints (with ``print``, to sys.stdout) and then fails."""
    print("about to fail")
    raise ValueError("bad thing")


@program
def exiting_main(argv: list[str], source: TextIO, out: TextIO) -> int:
    """Calls sys.exit with a message."""
    raise SystemExit("fatal: no cards")


RUNNER = InProcessRunner(
    {"echo": echo_main, "hung": hung_main, "crash": crashing_main, "exits": exiting_main}
)


def test_output_splits_exactly_where_the_program_reads(tmp_path: Path) -> None:
    outcome = RUNNER.run(Job(Target("echo"), Run((In("a"), In(""), In("b\tc "))), tmp_path, seed=5))
    assert outcome.chunks == ("args ['--seed', '5']\n> ", "A\n> ", "\n> ", "B\tC \n> eof\n")
    assert (outcome.exit, outcome.problem, outcome.consumed) == (0, None, 3)


def test_a_program_that_stops_reading_early_consumes_fewer_lines(tmp_path: Path) -> None:
    outcome = RUNNER.run(Job(Target("echo"), Run((In("quit"), In("never"))), tmp_path))
    assert outcome.chunks == ("args []\n> ", "")
    assert (outcome.exit, outcome.consumed) == (4, 1)


def test_a_hung_program_is_stopped_at_its_timeout_with_what_it_printed(tmp_path: Path) -> None:
    outcome = RUNNER.run(Job(Target("hung"), Run((In("go"), In("more"))), tmp_path, timeout=0.2))
    assert outcome.chunks == ("hello\n$ ", "thinking...")
    assert outcome.exit is None
    assert outcome.problem == (
        "timed out: no input was read for 0.2 s (after 1 input line); it was stopped"
    )


def test_a_crash_is_reported_with_its_traceback_on_stderr(tmp_path: Path) -> None:
    outcome = RUNNER.run(Job(Target("crash"), Run(()), tmp_path))
    assert outcome.chunks == ("about to fail\n",)
    assert outcome.exit == 1
    assert outcome.problem == "crashed: ValueError: bad thing"
    assert outcome.stderr.startswith("Traceback (most recent call last):\n")
    assert outcome.stderr.endswith("ValueError: bad thing\n")
    assert "casino/harness/runners" not in outcome.stderr


def test_sys_exit_with_a_message_is_status_1_and_the_message_on_stderr(tmp_path: Path) -> None:
    outcome = RUNNER.run(Job(Target("exits"), Run(()), tmp_path))
    assert (outcome.exit, outcome.stderr, outcome.problem) == (1, "fatal: no cards\n", None)


def test_unknown_and_external_targets_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TargetError, match="unknown program 'nope' \\(casino has: demo"):
        RUNNER.run(Job(Target("nope"), Run(()), tmp_path))
    with pytest.raises(TargetError, match="casino's own programs only"):
        RUNNER.run(Job(Target("demo", ("sh",)), Run(()), tmp_path))


def test_scripted_input_serves_lines_by_readline_read_and_iteration() -> None:
    out = Capture()
    source = ScriptedInput(["one", "two", "three"], out, lambda: None)
    out.write("ab")
    assert source.readline() == "one\n"
    out.write("c")
    assert source.read(2) == "tw"
    assert source.readline() == "o\n"
    assert list(source) == ["three\n"]
    assert source.readline() == "" and source.read() == ""
    assert source.marks == [2, 3, 3]


def test_files_and_fixtures_start_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "memory.dat").write_bytes(b"12\n")
    text = (
        "name: files\nprogram: demo\nfiles:\n  demo.dat:\n    fixture: fixtures/memory.dat\n"
        '  notes/readme.txt: "hi\\n"\n'
        'steps:\n  - out: "casino demo calculator (type help)\\n$ "\n  - in: recall\n'
        '  - out: "recalled 12\\n$ bye\\n"\n'
    )
    transcript = parse_transcript(text, tmp_path / "t.yaml")
    result = check(transcript, InProcessRunner(), Target("demo"))
    assert result.status is Status.PASS, render(result)


def test_a_missing_fixture_is_a_one_line_error(tmp_path: Path) -> None:
    text = "name: f\nprogram: demo\nfiles: {a.dat: {fixture: nothere.dat}}\nsteps: []\n"
    result = check(parse_transcript(text, tmp_path / "t.yaml"), InProcessRunner(), Target("demo"))
    assert result.status is Status.ERROR
    assert result.error == (
        f"{tmp_path / 't.yaml'}: files: 'a.dat': fixture nothere.dat: No such file or directory"
    )


def test_runs_share_one_fresh_directory_in_order(tmp_path: Path) -> None:
    greeting = "casino demo calculator (type help)\n$ "
    first = Run((Out(greeting), In("store 9"), Out("stored 9\n$ bye\n")))
    second = Run((Out(greeting), In("recall"), Out("recalled 9\n$ bye\n")))
    text = "name: chained\nprogram: demo\nruns:\n  - steps: []\n"
    transcript = parse_transcript(text, tmp_path / "t.yaml").with_runs((first, second))
    for _ in range(2):  # a second replay starts from a fresh directory again
        result = check(transcript, InProcessRunner(), Target("demo"))
        assert result.status is Status.PASS, render(result)
    assert not (tmp_path / "demo.dat").exists()


def test_the_runner_restores_the_working_directory_and_streams(tmp_path: Path) -> None:
    import os
    import sys

    before = (os.getcwd(), sys.stdin, sys.stdout, sys.stderr)
    RUNNER.run(Job(Target("crash"), Run(()), tmp_path))
    RUNNER.run(Job(Target("hung"), Run((In("x"),)), tmp_path, timeout=0.1))
    assert (os.getcwd(), sys.stdin, sys.stdout, sys.stderr) == before
