"""A shell pattern that reaches ``casino replay`` as typed (the shell leaves one that matches
no file): ``casino replay transcripts/*.yaml``, the design card's own command, replays the
transcripts in the folders below ``transcripts/``; a pattern that matches nothing anywhere
below its folder is one line saying what to type, status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.cmdline import UsageError
from casino.harness.command import find_transcripts
from harness.harness_support import ROOT, run_cli

TRANSCRIPTS = ROOT / "transcripts"


def test_the_cards_command_means_every_transcript_below_the_folder() -> None:
    everything = find_transcripts([str(TRANSCRIPTS)])
    assert not list(TRANSCRIPTS.glob("*.yaml"))  # the shell would match nothing here
    assert find_transcripts([f"{TRANSCRIPTS}/*.yaml"]) == everything
    assert len(everything) > 100


def test_a_pattern_keeps_to_its_last_part() -> None:
    found = find_transcripts([f"{TRANSCRIPTS}/demo/seeded-*.yaml"])
    assert [path.name for path in found] == ["seeded-die.yaml"]


def test_a_pattern_that_matches_nothing_says_what_to_type(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "t.yaml").write_text("name: x\nsteps: []\n")
    with pytest.raises(UsageError) as caught:
        find_transcripts([f"{tmp_path}/*.json"])
    assert str(caught.value) == (
        f"no file matches {tmp_path}/*.json: to replay every transcript below a folder, "
        f"name the folder ({tmp_path}/)"
    )


def test_replay_with_the_pattern_runs_them(tmp_path: Path) -> None:
    done = run_cli("replay", f"{TRANSCRIPTS}/demo/*.yaml")
    demo = sorted((TRANSCRIPTS / "demo").rglob("*.yaml"))
    assert done.status == 0, done.out
    assert done.out.splitlines()[-1] == f"{len(demo)} passed, 0 failed ({len(demo)} transcripts)"
    missing = run_cli("replay", f"{tmp_path}/*.yaml")
    assert missing.status == 2 and missing.out == ""
    assert missing.err == (
        f"casino replay: no file matches {tmp_path}/*.yaml: to replay every transcript below a "
        f"folder, name the folder ({tmp_path}/) (see casino replay --help)\n"
    )
