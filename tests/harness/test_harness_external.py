"""Any program, any language: a few lines of sh graded under the pipe and pty runners."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.harness_support import run_cli, sh_program, write_transcript

GREETER = """\
printf 'name? '
read name
printf 'hello %s  \\n\\t> ' "$name"
read cmd
echo "seed=$CASINO_SEED cmd=$cmd args=$*"
echo bye >&2
exit 3
"""

TRANSCRIPT = """\
name: greeter
program: greeter
args: [x, "y z"]
seed: 11
steps:
  - out: "name? "
  - in: Ada
  - out: "hello Ada  \\n\\t> "
  - in: go
  - out: "seed=11 cmd=go args=x y z\\n"
exit: 3
stderr: "bye\\n"
timeout: 5
"""

RUNNERS = ["pipe", "pty"]


@pytest.fixture
def greeter(tmp_path: Path) -> str:
    return sh_program(tmp_path, "greeter", GREETER)


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_shell_program_passes(tmp_path: Path, greeter: str, runner: str) -> None:
    path = write_transcript(tmp_path / "t" / "greeter.yaml", TRANSCRIPT)
    result = run_cli("replay", "--program", greeter, "--runner", runner, path)
    assert result.out == f"PASS greeter ({path})\n1 passed, 0 failed (1 transcript)\n"
    assert result.status == 0


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_wrong_shell_program_fails_at_the_right_line_and_column(
    tmp_path: Path, runner: str
) -> None:
    wrong = sh_program(tmp_path, "wrong", GREETER.replace("hello %s  ", "hello %s "))
    path = write_transcript(tmp_path / "greeter.yaml", TRANSCRIPT)
    result = run_cli("replay", "--program", wrong, "--runner", runner, path)
    assert result.status == 1
    lines = result.out.splitlines()
    near_miss = "  output differs only in trailing spaces on 1 line"
    assert lines.pop(1) == near_miss  # the terminal, like the pipe, runs it to its end
    assert lines[:5] == [
        f"FAIL greeter ({path})",
        "  output differs at step 3 (out), line 1, column 17:",
        "    expected: name?·hello·Ada··⏎",
        "    actual:   name?·hello·Ada·⏎",
        "                              ^",
    ]
    assert "  -name? hello Ada··" in lines and "  +name? hello Ada·" in lines


@pytest.mark.parametrize("runner", RUNNERS)
def test_exit_status_and_stderr_are_checked(tmp_path: Path, greeter: str, runner: str) -> None:
    text = TRANSCRIPT.replace("exit: 3", "exit: 0").replace('"bye\\n"', '"ciao\\n"')
    path = write_transcript(tmp_path / "greeter.yaml", text)
    result = run_cli("replay", "--program", greeter, "--runner", runner, path)
    assert result.status == 1
    assert "  stderr differs at line 1, column 1:" in result.out
    assert result.out.splitlines()[-2] == "  exit status 3, expected 0"


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_hung_program_is_stopped_and_reported_with_what_it_printed(
    tmp_path: Path, runner: str
) -> None:
    hung = sh_program(tmp_path, "hung", "printf 'name? '\nread name\necho thinking\nsleep 60\n")
    path = write_transcript(
        tmp_path / "greeter.yaml", TRANSCRIPT.replace("timeout: 5", "timeout: 0.5")
    )
    result = run_cli("replay", "--program", hung, "--runner", runner, path)
    assert result.status == 1
    problem = {
        "pipe": "  timed out: no output for 0.5 s; it was stopped",
        # its output already left the transcript's: the pty runner stops it there, no timeout
        "pty": "  output differs at step 3 (out), line 1, column 7:",
    }[runner]
    assert problem in result.out.splitlines()
    assert "  +name? thinking" in result.out.splitlines()


def test_pty_waits_for_each_prompt_and_reports_a_program_silent_at_a_step(tmp_path: Path) -> None:
    silent = sh_program(tmp_path, "silent", "printf 'name? '\nread name\nsleep 60\n")
    path = write_transcript(
        tmp_path / "greeter.yaml", TRANSCRIPT.replace("timeout: 5", "timeout: 0.5")
    )
    result = run_cli("replay", "--program", silent, "--runner", "pty", path)
    lines = result.out.splitlines()
    assert lines[1] == "  timed out: waited 0.5 s for step 3 (out); it was stopped"
    assert "  +name?·" in lines  # what it printed, in the diff


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_command_that_cannot_start_fails_clearly(tmp_path: Path, runner: str) -> None:
    path = write_transcript(tmp_path / "greeter.yaml", TRANSCRIPT)
    result = run_cli("replay", "--program", "no-such-program-casino", "--runner", runner, path)
    assert result.status == 1
    assert result.out.splitlines()[1].startswith("  cannot start")
    assert "no-such-program-casino" in result.out.splitlines()[1]


def test_casino_programs_run_as_processes_get_seed_as_an_argument(tmp_path: Path) -> None:
    text = (
        "name: seeded demo\nprogram: demo\nseed: 7\nsteps:\n"
        '  - out: "casino demo calculator (type help)\\n$ "\n  - in: roll\n'
        '  - out: "rolled 3\\n$ bye\\n"\nexit: 0\n'
    )
    path = write_transcript(tmp_path / "demo.yaml", text)
    for runner in ("inproc", *RUNNERS):
        result = run_cli("replay", "--runner", runner, path)
        assert result.status == 0, result.out
