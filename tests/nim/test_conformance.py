"""The course's published Nimsys tests, byte for byte, run in-process (chained where they are).

The data lives in ``../shared/conformance/nimsys`` next to the checkout; where it is absent the
transcripts under ``transcripts/nimsys`` carry the same sessions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import nimsys

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "nimsys"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"no conformance data at {DATA}")


def _check(folder: str, count: int, *args: str) -> None:
    for number in range(1, count + 1):
        given = (DATA / folder / f"in{number}.txt").read_text()
        expected = (DATA / folder / f"out{number}.txt").read_text()
        run = nimsys(given, *args)
        assert (run.status, run.err) == (0, "")
        assert run.out == expected, f"{folder} in{number}"


@needs_data
@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_project_b_each_alone(number: int) -> None:
    given = (DATA / "project-b" / f"in{number}.txt").read_text()
    run = nimsys(given, "--stage", "b")
    assert run.out == (DATA / "project-b" / f"out{number}.txt").read_text()
    assert not Path("players.dat").exists()


@needs_data
def test_project_c_chained() -> None:
    _check("project-c", 3)


@needs_data
def test_autotester_chained() -> None:
    _check("autotester", 5)
