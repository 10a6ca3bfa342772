"""``casino explore``: grammars, delta debugging, the explore loop and its command line."""

from __future__ import annotations

import contextlib
import io
import random
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import pytest

from casino.__main__ import main as casino_main
from casino.explore.engine import Budget, Explorer
from casino.explore.feedback import ExploreSpec, explore_feedback
from casino.explore.grammars import GRAMMARS, grammar_of
from casino.explore.judge import Program, reference_transcript
from casino.explore.nimsys import NimsysGrammar
from casino.explore.plan import Session
from casino.explore.shrink import ddmin
from casino.grade.results import StudentResult, feedback
from casino.harness.load import load_transcript
from casino.harness.runners.base import Job, Outcome, RunnerName, Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from casino.nim.shell import NimsysShell
from casino.programs import load_main
from casino.shell import Command as ShellCommand

C = NimsysGrammar("c")


def _session(*lines: str) -> Session:
    return Session((tuple((line,) for line in lines),))


def _silent_about_missing(self: NimsysShell, command: ShellCommand) -> None:
    if command.rest and command.rest not in self.registry:
        return
    _DISPLAY(self, command)


_DISPLAY = NimsysShell.display_player


def missing_unsaid(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Nimsys whose ``displayplayer`` says nothing of a missing player (a message missing in
    one state)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(NimsysShell, "display_player", _silent_about_missing)
        status: int = load_main("nimsys")(argv, stdin=stdin, stdout=stdout, stderr=stderr)
        return status


MUTANT = Program(InProcessRunner({"nimsys": missing_unsaid}), Target("nimsys"))


# ---------------------------------------------------------------------------- the grammar


@pytest.mark.parametrize(
    ("lines", "why"),
    [
        (("addplayer a,B,C", "startgame 3,2,a,a"), "against themselves"),
        (("addplayer a,B,C", "addplayer b,D,E", "startgame 3,2,a,b"), "ends in the game state"),
        (("",), "not a command"),
        (("EXIT",), "not a command"),
        (("removeplayer", "yes"), "at a (y/n)"),
        (("rankings up",), "only asc and desc"),
        (("addplayer a,B,C", "addplayer b,D,E,"), "empty arguments"),
        (("addaiplayer a,B,C", "addplayer b,D,E", "startgame 5,2,b,a", "1"), "AI cannot win"),
        (
            ("addaiplayer a,B,C", "addplayer b,D,E", "startadvancedgame 6,a,b"),
            "more than one right",
        ),
    ],
)
def test_the_model_refuses_what_the_assignment_leaves_open(
    lines: tuple[str, ...], why: str
) -> None:
    problem = C.unpinned(_session(*lines))
    assert problem is not None and why in problem


def test_a_half_percentage_is_left_out_of_rankings() -> None:
    """1 win in 8 games is 12.5 %: rounding either way is "the nearest integer"."""
    game = ("startgame 2,1,a,b", "1", "1")  # b takes the last stone: a wins
    lost = ("startgame 2,1,b,a", "1", "1")
    lines = ["addplayer a,B,C", "addplayer b,D,E", *game, *lost * 7, "rankings"]
    session = Session((tuple((line,) for line in lines),))
    assert (
        C.unpinned(session)
        == "a percentage that ends in one half (rounding it either way is right)"
    )
    assert C.unpinned(session.with_runs((session.runs[0][:-1],))) is None


def test_an_ai_game_is_kept_where_each_move_is_the_winning_one() -> None:
    lines = (
        "addaiplayer r,D,R",
        "addplayer l,S,L",
        "startgame 10,3,l,r",
        "3",
        "3",
        "1",
        "rankings",
    )
    assert C.unpinned(_session(*lines)) is None  # l faces 10: not 4k+1, but r wins from 7 on


@pytest.mark.parametrize("name", sorted(GRAMMARS))
def test_every_generated_session_is_accepted_and_recorded(name: str) -> None:
    grammar = grammar_of(name)
    rng = random.Random(5)
    for size in (2, 6, 12):
        session = grammar.generate(rng, size)
        assert grammar.unpinned(session) is None
        transcript = reference_transcript(grammar, session)
        assert transcript is not None
        assert check(transcript, InProcessRunner(), Target(grammar.program)).passed


def test_generation_is_deterministic_from_the_seed() -> None:
    first = [C.generate(random.Random(3), 10) for _ in range(2)]
    assert first[0] == first[1]


# ------------------------------------------------------------------------------ shrinking


def test_ddmin_finds_a_one_minimal_subset() -> None:
    calls: list[list[int]] = []

    def fails(items: list[int]) -> bool:
        calls.append(items)
        return 3 in items and 7 in items

    assert ddmin(list(range(10)), fails) == [3, 7]
    assert len(calls) < 40


def test_ddmin_keeps_everything_when_everything_is_needed() -> None:
    assert ddmin([1, 2, 3], lambda items: len(items) == 3) == [1, 2, 3]


def test_simpler_names_are_replaced_everywhere_at_once() -> None:
    session = _session("addplayer lskywalker,Skywalker,Luke", "displayplayer lskywalker")
    first = next(iter(C.simpler(session)))
    lines = [unit[0] for unit in first.runs[0]]
    assert lines[1] == "displayplayer " + lines[0].split(" ")[1].split(",")[0]
    assert len(lines[0]) < len(session.runs[0][0][0])


# ---------------------------------------------------------------------------- the loop


def test_explore_finds_and_shrinks_a_missing_message() -> None:
    explorer = Explorer(C, MUTANT, Budget(runs=5000))
    found = explorer.find(0, 400)
    assert found is not None
    explorer.shrink(found)
    assert found.shrunk
    (run,) = found.transcript.runs
    assert run.inputs == ["displayplayer a", "exit"]
    reference = check(found.transcript, InProcessRunner(), Target("nimsys"))
    assert reference.passed
    assert check(found.transcript, MUTANT.runner, MUTANT.target).status is Status.FAIL


def test_the_reference_never_differs_from_itself() -> None:
    reference = Program(InProcessRunner(), Target("nimsys"))
    explorer = Explorer(C, reference)
    assert explorer.find(1, 15) is None
    assert explorer.tried == 15


def test_a_budget_of_runs_stops_the_search() -> None:
    explorer = Explorer(C, Program(InProcessRunner(), Target("nimsys")), Budget(runs=5))
    assert explorer.find(0, 1000) is None
    assert explorer.runs <= 5


class InterruptingRunner:
    """Runs the mutant, and is interrupted (Ctrl-C) at its ``at``-th run."""

    name = RunnerName.INPROC

    def __init__(self, at: int) -> None:
        self.inner = InProcessRunner({"nimsys": missing_unsaid})
        self.left = at

    def run(self, job: Job) -> Outcome:
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt
        return self.inner.run(job)


def test_ctrl_c_while_shrinking_keeps_the_smallest_session_so_far() -> None:
    runner = InterruptingRunner(10**6)
    explorer = Explorer(C, Program(runner, Target("nimsys")))
    found = explorer.find(0, 400)
    assert found is not None
    before = found.lines
    runner.left = 4  # the session found (the bonus left out where it still differs) shrinks in 7
    with pytest.raises(KeyboardInterrupt):
        explorer.shrink(found)
    assert explorer.best is found and not found.shrunk
    assert found.lines < before
    assert check(found.transcript, MUTANT.runner, MUTANT.target).status is Status.FAIL


# ------------------------------------------------------------------------ command line


def _casino(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = casino_main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


BROKEN_DEMO = """\
printf 'casino demo calculator (type help)\\n$ '
while read -r line; do
  case "$line" in
    exit) printf 'bye\\n'; exit 0 ;;
    *) printf '?\\n$ ' ;;
  esac
done
printf 'bye\\n'
"""


def test_explore_writes_a_transcript_that_replay_fails_and_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "demo.sh").write_text(BROKEN_DEMO)
    monkeypatch.chdir(tmp_path)
    status, out, err = _casino("explore", "--reference", "demo", "--program", "sh demo.sh")
    assert status == 1
    assert "wrote explore-demo.yaml: replay it with" in out
    assert "casino replay --program 'sh demo.sh' explore-demo.yaml" in out
    assert "FAIL explored: demo, seed 0 (explore-demo.yaml)" in out
    assert "shrinking" in err
    transcript = load_transcript(tmp_path / "explore-demo.yaml")
    assert [run.inputs for run in transcript.runs] == [[transcript.runs[0].inputs[0], "exit"]]
    assert _casino("replay", "explore-demo.yaml")[0] == 0
    assert _casino("replay", "--program", "sh demo.sh", "explore-demo.yaml")[0] == 1


def test_out_writes_a_fixed_suite_the_reference_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ("explore", "--reference", "nimsys", "--sessions", "4", "--seed", "9")
    said = "wrote 4 transcripts and 4 plays of the advanced AI to a\n"
    assert _casino(*argv, "--out", "a") == (0, said, "")
    assert _casino(*argv, "--out", "b")[0] == 0
    names = sorted(path.name for path in (tmp_path / "a").iterdir())
    plays = [f"explore-play-{n}.yaml" for n in range(1, 5)]
    assert names == [f"explore-000{n}.yaml" for n in range(1, 5)] + plays
    for name in names:
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    for name in plays:
        assert "play:" in (tmp_path / "a" / name).read_text()
    status, out, _ = _casino("replay", "a")
    assert status == 0 and "8 passed" in out
    project_b = ("explore", "--reference", "nimsys-b", "--sessions", "2")
    assert _casino(*project_b, "--out", "c") == (0, "wrote 2 transcripts to c\n", "")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--reference", "poker"), "--reference 'poker': no such assignment (known: nimsys"),
        (("--grammar", "g.yaml", "--reference", "awk"), "--grammar FILE explores a --program"),
        (("--grammar", "/no/g.yaml", "--reference", "awk", "--program", "a"), "cannot read it"),
        (("--reference", "demo", "--out", "x", "--program", "a"), "takes no --program"),
        (("--reference", "demo", "--program-dir", "x"), "--program-dir goes with --program"),
        (("--reference", "demo", "--budget-seconds", "0"), "--budget-seconds"),
        (("--reference", "demo", "--budget-seconds", "nan"), "--budget-seconds: not a number"),
        (("--reference", "demo", "--budget-seconds", "inf"), "--budget-seconds: not a number"),
        (("--reference", "demo", "--budget-seconds", "-1"), "--budget-seconds: not a number"),
    ],
)
def test_usage_errors_are_one_line(argv: tuple[str, ...], message: str) -> None:
    status, _, err = _casino("explore", *argv)
    assert status == 2
    assert message in err and err.count("\n") == 1


def test_a_program_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    with contextlib.chdir(tmp_path):
        status, _, err = _casino("explore", "--reference", "demo", "--program", "./missing")
    assert status == 1
    assert "cannot start './missing'" in err.splitlines()[-1]


# ------------------------------------------------------------------- a student's Java


JAVA = Path(__file__).parent / "java" / "Nimsys.java"


@pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("java") is None,
    reason="javac/java not found: the Java student test needs a JDK",
)
def test_a_students_java_nimsys_gets_a_short_transcript_to_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a student types it in their folder. Its bug (resetstats keeps the games played)
    survives every shipped transcript; seed 19 finds it in the second session (two runs of the
    JVM) and shrinks it to 7 lines in 24 more: 26 runs in all, where seed 0 needs 113 and seed
    8 66 (too many for the suite's CPU budget; each run of the JVM is a tenth of a second of
    CPU or more)."""
    shutil.copy(JAVA, tmp_path)
    quick = ["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"]  # javac's own JVM: a third less CPU
    subprocess.run(["javac", *quick, "Nimsys.java"], cwd=tmp_path, check=True, timeout=120)
    monkeypatch.chdir(tmp_path)
    status, out, _ = _casino(
        "explore", "--program", "java Nimsys", "--reference", "nimsys", "--seed", "19"
    )
    assert status == 1
    transcript = load_transcript(tmp_path / "explore-nimsys.yaml")
    lines = [line for run in transcript.runs for line in run.inputs]
    assert len(lines) <= 8
    assert any(line.startswith("resetstats ") for line in lines)
    assert "casino replay --program 'java Nimsys' explore-nimsys.yaml" in out
    assert _casino("replay", "explore-nimsys.yaml")[0] == 0
    assert _casino("replay", "--program", "java Nimsys", "explore-nimsys.yaml")[0] == 1


def test_grade_feedback_holds_the_shrunk_session(tmp_path: Path) -> None:
    """``casino grade --explore demo``'s hook: one submission's feedback text."""
    (tmp_path / "demo.sh").write_text(BROKEN_DEMO)
    text = explore_feedback(ExploreSpec("demo", runs=40), ("sh", "demo.sh"), tmp_path)
    assert text.startswith("explore (demo, seed 0): your program differs on a generated")
    assert "casino replay --program 'sh demo.sh' explore.yaml" in text
    assert "  program: demo\n" in text and "    - in: exit\n" in text
    assert "FAIL explored: demo, seed 0 (explore.yaml)" in text
    result = StudentResult("alice", (), explored=text)
    assert feedback(result).endswith(text)
    assert StudentResult.from_json(result.to_json()) == result


def test_grade_feedback_says_when_the_program_cannot_start(tmp_path: Path) -> None:
    spec = ExploreSpec("demo", runs=3)
    text = explore_feedback(spec, ("./missing",), tmp_path)
    assert (
        text
        == "explore (demo, seed 0): not run: cannot start './missing': No such file or directory\n"
    )
