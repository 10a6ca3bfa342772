"""The course's published Nimsys tests (``fixtures/nimsys/conformance``), byte for byte, run
in-process (chained where they are), and the transcripts that carry the same sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.harness.model import In, Out, load_transcript

from .helpers import nimsys

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "fixtures" / "nimsys" / "conformance"
TRANSCRIPTS = ROOT / "transcripts" / "nimsys"


def _pair(folder: str, number: int) -> tuple[str, str]:
    """The published input and expected output of test ``number`` in ``folder``."""
    given = (DATA / folder / f"in{number}.txt").read_text(encoding="utf-8")
    return given, (DATA / folder / f"out{number}.txt").read_text(encoding="utf-8")


def _check(folder: str, count: int, *args: str) -> None:
    for number in range(1, count + 1):
        given, expected = _pair(folder, number)
        run = nimsys(given, *args)
        assert (run.status, run.err) == (0, "")
        assert run.out == expected, f"{folder} in{number}"


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_project_b_each_alone(number: int) -> None:
    given, expected = _pair("project-b", number)
    run = nimsys(given, "--stage", "b")
    assert (run.status, run.err, run.out) == (0, "", expected)
    assert not Path("players.dat").exists()


def test_project_c_chained() -> None:
    _check("project-c", 3)


def test_autotester_chained() -> None:
    _check("autotester", 5)


@pytest.mark.parametrize(
    ("transcript", "folder", "numbers"),
    [
        *((f"project-b/conformance-project-b-{n}.yaml", "project-b", [n]) for n in range(1, 5)),
        ("project-c/conformance-project-c-chained.yaml", "project-c", [1, 2, 3]),
        ("project-c/conformance-autotester-chained.yaml", "autotester", [1, 2, 3, 4, 5]),
    ],
)
def test_the_conformance_transcripts_carry_the_published_files(
    transcript: str, folder: str, numbers: list[int]
) -> None:
    runs = load_transcript(TRANSCRIPTS / transcript).runs
    assert len(runs) == len(numbers)
    for run, number in zip(runs, numbers, strict=True):
        typed = "".join(step.text + "\n" for step in run.steps if isinstance(step, In))
        printed = "".join(step.text for step in run.steps if isinstance(step, Out))
        assert (typed, printed) == _pair(folder, number)
