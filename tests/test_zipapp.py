"""The single-file program (``tox -e docs`` builds ``build/docs/casino.pyz``) works like the
installed one: its exit status is casino's, and it carries the pure-Python dependencies of
``replay``, ``record`` and ``grade``, so it runs on a Python that has none of them (``-I -S``:
no site-packages, no environment). Every command runs from it as installed, the processes it
starts too (a game under the pipe runner, the stud bots, a tournament's players): they see the
zip, not an installed casino.
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from docs_script import build_docs

from casino.harness.load import load_transcript
from casino.programs import PROGRAMS, load_main, run_captured

ROOT = Path(__file__).resolve().parents[1]
BASICS = ROOT / "transcripts" / "demo" / "basics.yaml"


@pytest.fixture(scope="module")
def pyz(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("zipapp") / "casino.pyz"
    build_docs().build_zipapp(target)
    return target


def run(pyz: Path, *argv: str | Path, stdin: str = "") -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(pyz), *map(str, argv)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def test_it_carries_casino_and_its_pure_python_dependencies(pyz: Path) -> None:
    names = zipfile.ZipFile(pyz).namelist()
    for module in ("casino", "yaml", "pexpect", "ptyprocess"):
        assert f"{module}/__init__.py" in names
    assert {"yaml-LICENSE", "pexpect-LICENSE", "ptyprocess-LICENSE"} <= set(names)
    assert not [name for name in names if name.endswith((".so", ".pyc"))]


@pytest.mark.parametrize("runner", ["inproc", "pipe", "pty"])
def test_a_passing_replay_exits_0(pyz: Path, runner: str) -> None:
    status, out, err = run(pyz, "replay", "--runner", runner, BASICS)
    assert (status, err) == (0, "")
    assert out.endswith("1 passed, 0 failed (1 transcript)\n")


def test_a_failing_replay_exits_1(pyz: Path, tmp_path: Path) -> None:
    failing = tmp_path / "sum.yaml"
    failing.write_text(BASICS.read_text(encoding="utf-8").replace("2 + 3 = 5", "2 + 3 = 6"))
    assert "2 + 3 = 6" in failing.read_text(encoding="utf-8")
    status, out, err = run(pyz, "replay", failing)
    assert (status, err) == (1, "")
    assert out.startswith("FAIL ") and out.endswith("0 passed, 1 failed (1 transcript)\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["replay"], "casino replay: the following arguments are required: PATH"),
        (["blackjack"], "casino: unknown command 'blackjack'"),
        (["demo", "--seed", "x"], "casino demo: argument --seed"),
    ],
)
def test_a_usage_error_exits_2(pyz: Path, argv: list[str], message: str) -> None:
    status, out, err = run(pyz, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(message) and err.count("\n") == 1


def test_a_game_plays_as_installed(pyz: Path) -> None:
    installed = run_captured(load_main("demo"), ["--seed", "3"], "roll\nadd 2 3\nexit\n")
    assert run(pyz, "demo", "--seed", "3", stdin="roll\nadd 2 3\nexit\n") == (
        installed.status,
        installed.out,
        installed.err,
    )


def test_a_harness_command_without_its_dependency_is_one_line() -> None:
    """The installed package on a Python without PyYAML (no site-packages): ``replay`` says
    what it needs; a game still plays."""
    command = [sys.executable, "-S", "-m", "casino"]
    done = subprocess.run(
        [*command, "replay", str(BASICS)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "casino replay: needs PyYAML, which this Python does not have (pip install PyYAML)\n"
    )
    game = subprocess.run(
        [*command, "demo"], input="add 1 1\n", capture_output=True, text=True, cwd=ROOT
    )
    assert (game.returncode, game.stderr) == (0, "") and "1 + 1 = 2" in game.stdout


GAMES = {
    "demo": "demo/basics.yaml",
    "domino": "domino/casino-royal/bankrupt.en.yaml",
    "draw": "draw/casino/all-in.yaml",
    "holdem": "holdem/casino-royal/all-in-side-pot.en.yaml",
    "nimsys": "nimsys/project-a/seed-a-example.yaml",
    "videopoker": "videopoker/double-bonus/interactive-empty-input.yaml",
}
"""A transcript of each game (its first run played directly; the whole replayed)."""


def test_every_game_but_the_web_has_a_transcript_here() -> None:
    assert set(GAMES) == set(PROGRAMS) - {"stud", "web"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_plays_from_the_zip_as_installed(pyz: Path, game: str) -> None:
    transcript = load_transcript(ROOT / "transcripts" / GAMES[game])
    first = transcript.runs[0]
    seed = [] if transcript.seed is None else ["--seed", str(transcript.seed)]
    argv = [*seed, *first.argv]
    typed = "".join(f"{line}\n" for line in first.inputs)
    installed = run_captured(load_main(game), argv, typed)
    assert installed.out  # the game printed something to compare
    assert run(pyz, game, *argv, stdin=typed) == (installed.status, installed.out, installed.err)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_replays_from_the_zip_in_its_own_process(pyz: Path, game: str) -> None:
    """The pipe runner starts the game as a child Python, which imports it from the zip."""
    status, out, err = run(pyz, "replay", "--runner", "pipe", ROOT / "transcripts" / GAMES[game])
    assert (status, err) == (0, "")
    assert re.search(r"\b[1-9][0-9]* passed, 0 failed \(1 transcript\)\n\Z", out), out


def test_the_stud_check_of_a_built_in_bot_scores_as_installed(pyz: Path) -> None:
    """``--bot ours`` is a child Python: from the zip it scores what the installed one does."""
    from casino.grade.studcli import main as stud_main

    installed = run_captured(stud_main, ["check", "--bot", "ours"])
    status, out, err = run(pyz, "stud", "check", "--bot", "ours")
    assert (installed.status, installed.err) == (0, "")
    assert installed.out.endswith("score: 180/180\n")
    assert (status, out, err) == (installed.status, installed.out, installed.err)


def test_a_tournament_of_built_in_bots_plays_from_the_zip(pyz: Path) -> None:
    status, out, err = run(
        pyz, "stud", "tournament", "--bot", "ours", "--bot", "always-call", "--hands", "3",
        "--seed", "3",
    )  # fmt: skip
    assert (status, err) == (0, "")
    ranking = re.findall(r"^ +[12] +(\S+) +([0-9]+)$", out, re.MULTILINE)
    assert sorted(name for name, _ in ranking) == ["always-call-1", "ours-0"]
    assert sum(int(chips) for _, chips in ranking) == 200  # two stacks of 100, none lost


def test_record_captures_a_session_from_the_zip(pyz: Path, tmp_path: Path) -> None:
    typed = tmp_path / "typed.txt"
    typed.write_text("add 2 3\nexit\n")
    made = tmp_path / "made.yaml"
    status, out, err = run(pyz, "record", "-o", made, "--stdin", typed, "--seed", "3", "demo")
    assert (status, out, err) == (0, "", f"casino record: wrote {made} (5 steps)\n")
    assert load_transcript(made).runs[0].inputs == ["add 2 3", "exit"]
    assert run(pyz, "replay", made)[0] == 0


def test_explore_finds_nothing_between_the_reference_and_itself(pyz: Path) -> None:
    program = f"{sys.executable} -I -S {pyz} demo"
    status, out, err = run(
        pyz, "explore", "--reference", "demo", "--program", program, "--sessions", "3",
        "--seed", "1",
    )  # fmt: skip
    assert status == 0, (out, err)
    assert "FAIL" not in out


COURSE_PROGRAM = 'import sys\nprint(len(sys.argv) - 1, "args")\n'
ARGS_TRANSCRIPT = """\
name: counts
args: [a, b, c]
steps:
  - out: "3 args\\n"
exit: 0
timeout: 60
"""


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """One transcript and two students, ann right, bob not."""
    (tmp_path / "transcripts").mkdir()
    (tmp_path / "transcripts" / "args.yaml").write_text(ARGS_TRANSCRIPT)
    for name, body in (("ann", COURSE_PROGRAM), ("bob", "print('3  args')\n")):
        (tmp_path / "subs" / name).mkdir(parents=True)
        (tmp_path / "subs" / name / "main.py").write_text(body)
    return tmp_path


def test_grade_grades_a_course_from_the_zip(pyz: Path, course: Path) -> None:
    status, out, err = run(
        pyz, "grade", course / "subs", "--transcripts", course / "transcripts", "--run",
        "python3 main.py", "--jobs", "2", "--trust-submissions", "--out", course / "g",
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert out.startswith("graded 2 submissions: 1 with full marks, 0 build failures\n")
    book = (course / "g" / "gradebook.csv").read_text()
    assert book == "student,score,max,args.yaml\nann,1,1,1\nbob,0,1,0\n"


@pytest.mark.parametrize("grader", ["--gradescope", "--github-classroom"])
def test_an_export_from_the_zip_ships_casino_as_installed(
    pyz: Path, course: Path, grader: str
) -> None:
    """The export carries casino's own files: read from the zip, the same ones, the same
    bytes."""
    zipped, installed = course / "zipped", course / "installed"

    def argv(target: Path) -> list[str]:
        given = ["export", grader, target, "--transcripts", course / "transcripts", "--run", "x"]
        return [*map(str, given)]

    assert run(pyz, "grade", *argv(zipped))[0] == 0
    done = subprocess.run(  # not from ROOT: there ``-m casino`` is the checkout, not the install
        [sys.executable, "-m", "casino", "grade", *argv(installed)],
        capture_output=True, cwd=course, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ours = sorted(p.relative_to(zipped) for p in zipped.rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(installed) for p in installed.rglob("*") if p.is_file())
    assert ours == theirs
    for name in ours:
        assert (zipped / name).read_bytes() == (installed / name).read_bytes(), name
    shipped = "\n".join(map(str, ours))
    if grader == "--gradescope":
        names = zipfile.ZipFile(zipped / "autograder.zip").namelist()
        assert "casino/stud/relay.py" in names and "casino/__init__.py" in names
    else:
        assert ".casino/casino/__init__.py" in shipped


def test_the_web_on_a_bare_python_says_what_it_needs(pyz: Path) -> None:
    status, out, err = run(pyz, "web", "--port", "0")
    assert (status, out) == (1, "")
    assert (
        err
        == "casino web needs the web extra (aiohttp): pip install -e '.[web]' in casino's folder\n"
    )


@pytest.mark.parametrize("command", [*PROGRAMS, "replay", "record", "grade", "explore"])
def test_every_command_helps_from_the_zip_as_installed(pyz: Path, command: str) -> None:
    installed = subprocess.run(
        [sys.executable, "-m", "casino", command, "--help"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert (installed.returncode, installed.stderr) == (0, "")
    assert installed.stdout.startswith("usage: ")
    assert run(pyz, command, "--help") == (0, installed.stdout, "")
