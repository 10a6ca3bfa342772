"""A failed run shows what the program wrote to stderr (not compared unless the transcript
states ``stderr``), after the diff, in the text report and every machine-readable one; a flood
is cut with a visible ``… N more bytes`` line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino.harness.report import STDERR_SHOWN, stderr_shown
from harness.harness_support import run_cli, sh_program, write_transcript

CRASHER = """\
printf '$ '
read line
echo 'Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: 3' >&2
printf '\\tat Nimsys.addplayer(Nimsys.java:100)\\n' >&2
exit 1
"""

TRANSCRIPT = """\
name: addplayer
program: nimsys
steps:
  - out: "$ "
  - in: addplayer a,b
  - out: "\\n$ "
exit: 0
timeout: 5
"""


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_a_crash_shows_its_stack_trace_after_the_diff(tmp_path: Path, runner: str) -> None:
    path = write_transcript(tmp_path / "t.yaml", TRANSCRIPT)
    crasher = sh_program(tmp_path, "crasher", CRASHER)
    result = run_cli("replay", "--runner", runner, "--program", crasher, path)
    lines = result.out.splitlines()
    assert result.status == 1
    tail = lines[lines.index("  exit status 1, expected 0") :]
    assert tail[:4] == [
        "  exit status 1, expected 0",
        "  stderr (not compared):",
        '    Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: 3',
        "    \tat Nimsys.addplayer(Nimsys.java:100)",
    ]
    assert lines.index("  --- expected output") < lines.index("  stderr (not compared):")


def test_machine_readable_reports_carry_the_stderr(tmp_path: Path) -> None:
    path = write_transcript(tmp_path / "t.yaml", TRANSCRIPT)
    crasher = sh_program(tmp_path, "crasher", CRASHER)
    for kind in ("json", "gradescope", "junit"):
        report = tmp_path / f"report.{kind}"
        run_cli("replay", "--program", crasher, "--report", kind, "--report-file", report, path)
        text = report.read_text(encoding="utf-8")
        if kind != "junit":
            text = json.dumps(json.loads(text))  # the escaped form, as the report holds it
        assert "Nimsys.addplayer(Nimsys.java:100)" in text, kind


def test_a_passing_run_shows_no_stderr(tmp_path: Path) -> None:
    program = sh_program(tmp_path, "ok", "printf '$ '; read l; printf '\\n$ '; echo noise >&2\n")
    path = write_transcript(tmp_path / "t.yaml", TRANSCRIPT)
    result = run_cli("replay", "--program", program, path)
    assert (result.status, "noise" in result.out) == (0, False)


def test_a_flood_is_cut_with_a_count_of_what_is_not_shown() -> None:
    text = "x" * (STDERR_SHOWN + 10) + "é"
    lines = stderr_shown(text, dropped=1000)
    assert lines[0] == "stderr (not compared):"
    assert lines[1] == "  " + "x" * STDERR_SHOWN
    assert lines[-1] == f"  … {10 + 2 + 1000} more bytes"


def test_control_characters_in_stderr_are_made_visible() -> None:
    assert stderr_shown("a\x1b[31mb\tc\n", dropped=0) == [
        "stderr (not compared):",
        "  a\\x1b[31mb\tc",
    ]
