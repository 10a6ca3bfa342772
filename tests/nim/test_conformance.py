"""The course's published Nimsys tests (``fixtures/nimsys/conformance``), byte for byte, run
in-process (chained where they are), and the transcripts that carry the same sessions."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from casino.harness.load import load_transcript
from casino.harness.model import In, Out
from casino.harness.runners import make_runner
from casino.harness.session import Options, check, target_of

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


SKIP_EMPTY = """\
from casino.nim import play

read = play.Human.move


def move(self, rules, game, prompt, last_move):
    text = read(self, rules, game, prompt, last_move)
    while text is not None and not text.strip():  # as Scanner.nextInt: read on, print nothing
        if OTHER:
            self.console.line(OTHER)
        text = self.console.read()
    return text


play.Human.move = move
"""
"""casino's Nimsys reading on past an empty move line, as a Java ``Scanner.nextInt`` does."""


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_an_empty_move_may_be_refused_or_skipped(runner: str, tmp_path: Path) -> None:
    """The seed's invalid moves are "fractions, decimals, non-numeric entries": an empty line is
    not named, so ``seed-c-invalid-input.yaml`` accepts either a refusal (casino's) or nothing
    (a program that reads on), and nothing else."""
    transcript = load_transcript(TRANSCRIPTS / "project-c" / "seed-c-invalid-input.yaml")
    commands: list[tuple[tuple[str, ...] | None, bool]] = [(None, True)]
    for other, passes in (("", True), ("Please type a number.", False)):
        script = tmp_path / f"nimsys{len(commands)}.py"
        patch = f"OTHER = {other!r}\n{SKIP_EMPTY}"
        script.write_text(
            f"import sys\n{patch}\nfrom casino.nim.cli import main\nsys.exit(main())\n"
        )
        commands.append(((sys.executable, str(script)), passes))
    for command, passes in commands:
        target = target_of(transcript, Options(runner, command=command))
        result = check(transcript, make_runner(runner), target)
        assert result.passed is passes, (command, result.verdicts[0].output.actual)
