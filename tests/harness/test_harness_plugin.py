"""The pytest plugin: transcripts/**/*.yaml become items, other YAML is left alone, and a
failure shows the replay report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from casino.harness.pytest_plugin import is_transcript
from harness.harness_support import write_transcript

PASSING = """\
name: adds
program: demo
steps:
  - out: "casino demo calculator (type help)\\n$ "
  - in: add 1 1
  - out: "1 + 1 = 2\\n$ bye\\n"
"""


def test_only_yaml_below_a_transcripts_directory_is_collected(tmp_path: Path) -> None:
    assert is_transcript(tmp_path / "transcripts" / "nim" / "a.yaml", tmp_path)
    assert not is_transcript(tmp_path / "transcripts" / "a.yml", tmp_path)
    assert not is_transcript(tmp_path / "fixtures" / "a.yaml", tmp_path)
    assert not is_transcript(tmp_path / "transcripts.yaml", tmp_path)
    assert not is_transcript(tmp_path / "x" / "transcripts", tmp_path)


def test_pytest_collects_transcripts_and_reports_failures_like_replay(tmp_path: Path) -> None:
    write_transcript(tmp_path / "transcripts" / "demo" / "ok.yaml", PASSING)
    write_transcript(
        tmp_path / "transcripts" / "demo" / "wrong.yaml", PASSING.replace("1 + 1 = 2", "1 + 1 = 3")
    )
    write_transcript(tmp_path / "transcripts" / "demo" / "broken.yaml", "name: [\n")
    write_transcript(tmp_path / "config" / "settings.yaml", "not: a transcript\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-rf", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = done.stdout
    assert done.returncode == 1, out
    assert "2 failed, 1 passed in" in out
    assert "settings" not in out
    assert "FAIL adds (transcripts/demo/wrong.yaml)" in out
    assert "  output differs at step 3 (out), line 2, column 11:" in out
    assert "transcripts/demo/broken.yaml: line 2, column 1: not valid YAML" in out
    assert "Traceback" not in out
