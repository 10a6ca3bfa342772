"""The seed's time-out rule, as the golden transcripts pin it in both languages, holds on a pipe
and on a terminal: casino's own program replayed through the pipe and pty runners."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from casino.__main__ import main

FOLDER = Path(__file__).parents[2] / "transcripts" / "domino" / "casino-royal"
TIME_OUTS = sorted(
    path
    for stem in ("time-out", "time-out-draw", "time-outs-in-three-turns", "three-time-outs")
    for path in FOLDER.glob(f"{stem}.*.yaml")
)


def test_the_time_out_transcripts_come_in_both_languages() -> None:
    assert [path.name.split(".")[1] for path in TIME_OUTS] == ["en", "es"] * 4


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_they_pass_on_a_pipe_and_on_a_terminal(runner: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["replay", "--runner", runner, *map(str, TIME_OUTS)], stdout=out, stderr=err)
    assert status == 0, out.getvalue() + err.getvalue()
    assert out.getvalue().splitlines()[-1] == f"{len(TIME_OUTS)} passed, 0 failed (8 transcripts)"
