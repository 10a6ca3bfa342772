"""A transcript is data, never code: its ``files:`` cannot be imported by casino's programs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.harness_support import run_cli, write_transcript

TRANSCRIPT = """\
name: files that look like modules
program: demo
files:
  random.py: {code}
  casino/__init__.py: {code}
  casino/demo.py: {code}
steps:
  - out: "casino demo calculator (type help)\\n$ "
  - in: add 2 3
  - out: "2 + 3 = 5\\n$ "
  - in: roll
  - out_re: "rolled [1-6]\\n\\\\$ "
  - out: "bye\\n"
exit: 0
timeout: 20
"""


@pytest.mark.parametrize("runner", ["pipe", "pty", "inproc"])
def test_files_named_like_modules_are_not_run(tmp_path: Path, runner: str) -> None:
    pwned = tmp_path / "pwned"
    code = f"open({str(pwned)!r}, 'a').write('PWNED')\nprint('PWNED')\nraise SystemExit(99)\n"
    path = write_transcript(tmp_path / "t.yaml", TRANSCRIPT.format(code=json.dumps(code)))
    result = run_cli("replay", "--runner", runner, path)
    assert result.out.startswith("PASS files that look like modules"), result.out
    assert not pwned.exists()
