"""``reference: casino`` transcripts: run against casino's own program, skipped under
``--program`` (with a note, a count in the summary, and no weight in the score or reports)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from casino.harness.load import load_transcript
from casino.harness.model import TranscriptError
from casino.harness.parse import parse_transcript
from harness.harness_support import run_cli, write_transcript

GREETING = "casino demo calculator (type help)\\n$ "
SESSION = f"""\
program: demo
steps:
  - out: "{GREETING}"
  - in: add 2 3
  - out: "2 + 3 = 5\\n$ bye\\n"
points: 2
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """One ordinary transcript and one that only casino's own program can pass."""
    write_transcript(tmp_path / "t" / "a.yaml", f"name: anybody\n{SESSION}")
    write_transcript(tmp_path / "t" / "b.yaml", f"name: ours only\nreference: casino\n{SESSION}")
    return tmp_path / "t"


DEMO = f"{sys.executable} -m casino.demo"


def test_casinos_own_program_runs_reference_transcripts(folder: Path) -> None:
    result = run_cli("replay", "--score", folder)
    assert result.status == 0
    assert result.out.splitlines()[-2:] == ["2 passed, 0 failed (2 transcripts)", "score: 4/4"]


def test_program_skips_reference_transcripts_with_a_note(folder: Path) -> None:
    result = run_cli("replay", "--score", "--program", DEMO, folder)
    assert result.status == 0, result.out
    assert result.out.splitlines() == [
        f"PASS [2/2] anybody ({folder}/a.yaml)",
        f"SKIP ours only ({folder}/b.yaml): only casino's own program can pass it "
        "(reference: casino)",
        "1 passed, 0 failed, 1 skipped (2 transcripts)",
        "score: 2/2",
    ]


def test_reports_leave_skipped_transcripts_out_of_the_score(folder: Path, tmp_path: Path) -> None:
    files = {kind: tmp_path / f"r.{kind}" for kind in ("json", "junit", "gradescope")}
    for kind, file in files.items():
        run_cli("replay", "--program", DEMO, "--report", kind, "--report-file", file, folder)
    report = json.loads(files["json"].read_text())
    assert (report["passed"], report["skipped"], report["score"], report["max_score"]) == (
        1,
        1,
        2,
        2,
    )
    assert [t["status"] for t in report["transcripts"]] == ["pass", "skip"]
    suite = ET.parse(files["junit"]).getroot().find("testsuite")
    assert suite is not None and suite.get("skipped") == "1"
    assert len(suite.findall("testcase/skipped")) == 1
    gradescope = json.loads(files["gradescope"].read_text())
    assert [test["name"] for test in gradescope["tests"]] == [f"anybody ({folder}/a.yaml)"]
    assert gradescope["score"] == 2


def test_reference_round_trips_and_rejects_other_values(folder: Path) -> None:
    from casino.harness.dump import dump_transcript

    transcript = load_transcript(folder / "b.yaml")
    assert transcript.reference == "casino"
    assert "reference: casino\n" in dump_transcript(transcript)
    assert parse_transcript(dump_transcript(transcript), folder / "b.yaml") == transcript
    with pytest.raises(TranscriptError, match="'reference' must be one of casino, not 'java'"):
        parse_transcript(f"name: x\nreference: java\n{SESSION}", folder / "c.yaml")
