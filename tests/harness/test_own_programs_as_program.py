"""Each transcript folder grades exactly one assignment: casino's own program for it, started as
a course would start a student's (``casino replay --program CMD FOLDER``), passes every transcript
there and skips exactly the ``reference: casino`` ones, through a pipe and through a terminal."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from casino.harness.load import is_settings_file, load_transcript
from harness.harness_support import ROOT, run_cli

TRANSCRIPTS = ROOT / "transcripts"
PYTHON = shlex.quote(sys.executable)

FOLDERS = {
    "nimsys/project-a": f"{PYTHON} -m casino.nimsys --stage a",
    "nimsys/project-b": f"{PYTHON} -m casino.nimsys --stage b",
    "nimsys/project-c": f"{PYTHON} -m casino.nimsys",
    "videopoker/double-bonus": f"{PYTHON} -m casino.videopoker",
    "demo": f"{PYTHON} -m casino.demo",
    "draw": f"{PYTHON} -m casino.draw",
    "holdem/casino-royal": f"{PYTHON} -m casino.holdem",
    "domino/casino-royal": f"{PYTHON} -m casino.domino",
}
"""Every graded folder under ``transcripts/`` and the command that is its assignment's program."""


def transcripts_in(folder: Path) -> list[Path]:
    """The transcripts below ``folder`` (not its folders' settings files)."""
    return [path for path in folder.rglob("*.yaml") if not is_settings_file(path)]


def _expected(folder: Path) -> dict[Path, str]:
    """Each transcript in ``folder`` → the verdict word its line must start with."""
    return {
        path: "SKIP" if load_transcript(path).reference else "PASS"
        for path in sorted(folder.rglob("*.yaml"))
        if not is_settings_file(path)
    }


def test_every_transcript_lies_in_exactly_one_graded_folder() -> None:
    graded = [path for name in FOLDERS for path in transcripts_in(TRANSCRIPTS / name)]
    assert sorted(graded) == sorted(transcripts_in(TRANSCRIPTS))
    assert len(set(graded)) == len(graded)


def test_the_reference_transcripts_are_the_ones_docs_explain() -> None:
    marked = {
        path.relative_to(TRANSCRIPTS).as_posix()
        for path in transcripts_in(TRANSCRIPTS)
        if load_transcript(path).reference == "casino"
    }
    explained = (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")
    assert marked, "no transcript is marked 'reference: casino'"
    assert [name for name in sorted(marked) if f"`{name}`" not in explained] == []


@pytest.mark.parametrize("runner", ["pipe", "pty"])
@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_casinos_own_program_passes_its_folder(name: str, runner: str) -> None:
    folder = TRANSCRIPTS / name
    expected = _expected(folder)
    result = run_cli("replay", "--runner", runner, "--program", FOLDERS[name], folder)
    lines = result.out.splitlines()
    verdicts = {
        path: next((line.split(" ", 1)[0] for line in lines if f"({path})" in line), "missing")
        for path in expected
    }
    assert verdicts == expected, result.out
    assert result.status == 0, result.out
    skipped = list(expected.values()).count("SKIP")
    assert lines[-1].endswith(f"{skipped} skipped ({len(expected)} transcripts)") == bool(skipped)
