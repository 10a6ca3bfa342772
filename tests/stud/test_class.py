"""A class of three-card stud players: ``casino stud check SUBMISSIONS`` builds each one as
``casino grade`` does, runs the tester on each in its own sandbox (the network cut, the dealer
reached through the loopback relay), and writes a gradebook row, a feedback file and a summary
row per player, whatever the player does (plays, crashes, never connects, does not build).

The players are students' programs in plain Python (``classbots/poker.py`` with one fault
each, see its docstring), so that a sandbox that sees only ``/usr`` runs them.
"""

from __future__ import annotations

import csv
import functools
import io
import json
from pathlib import Path

import pytest

from casino.grade.studcli import main
from casino.harness.runners.sandbox import isolation_works
from casino.programs import run_captured
from casino.stud import check as checking
from casino.stud.rubric import HOPELESS, POINTS, SPADE, THREE, UP_CARDS

HERE = Path(__file__).parent
POKER = (HERE / "classbots" / "poker.py").read_text(encoding="utf-8")
needs_sandbox = pytest.mark.skipif(
    not isolation_works(), reason="bubblewrap cannot run here: the class runs sandboxed"
)

BUILD = "python3 -m py_compile poker.py"
RUN = "python3 poker.py {host} {port}"
INTELLIGENCE = [THREE, HOPELESS, SPADE, UP_CARDS]


def student(folder: Path, fault: str = "", broken: bool = False) -> None:
    folder.mkdir(parents=True)
    text = POKER.replace('FAULT = ""', f"FAULT = {fault!r}")
    (folder / "poker.py").write_text(text + ("def broken(:\n" if broken else ""), encoding="utf-8")


@pytest.fixture(scope="module")
def class_of_five(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Five students checked once: the gradebook folder and what was printed."""
    root = tmp_path_factory.mktemp("class")
    submissions = root / "submissions"
    student(submissions / "alice")
    student(submissions / "bob", "always-match")
    student(submissions / "carol", broken=True)
    student(submissions / "dave", "crash-at-bet2")
    student(submissions / "erin", "no-dealer")
    out = root / "grades"
    argv = ["check", str(submissions), "--build", BUILD, "--run", RUN, "--out", str(out)]
    with pytest.MonkeyPatch.context() as patch:
        # The rubric's 1 s, made patient: the scores must not depend on a busy machine.
        patch.setattr(
            checking, "Limits", functools.partial(checking.Limits, reply=30.0, patience=30.0)
        )
        done = run_captured(main, argv)
    assert done.status == 0, done.err
    return out, done.out


def line_points(**points: float) -> list[str]:
    return [f"{points.get(line, 0):g}" for line in POINTS]


@needs_sandbox
def test_five_players_five_gradebook_rows(class_of_five: tuple[Path, str]) -> None:
    out, printed = class_of_five
    rows = list(csv.reader(io.StringIO((out / "gradebook.csv").read_text(encoding="utf-8"))))
    assert rows[0] == ["student", "score", "max", *POINTS, "note"]
    full = dict(POINTS)
    assert rows[1:] == [
        # up cards: it stays with a pair of eights against the kings showing
        [
            "alice",
            "160",
            "180",
            *line_points(**{**full, "uses the other players' up cards": 0}),
            "",
        ],
        # matching every bet (and betting nothing more): every "plays intelligently" line lost
        [
            "bob",
            "120",
            "180",
            *line_points(**{**full, **dict.fromkeys(INTELLIGENCE, 0)}),
            "",
        ],
        ["carol", "0", "180", *line_points(), "the build failed"],
        # sessions 1, 3 and 9 have no bet2 (as in test_check: 60)
        [
            "dave",
            "60",
            "180",
            *line_points(
                **{
                    "connects to the dealer": 15,
                    "answers login twice, the same way": 5,
                    "every reply is legal": 15,
                    "every reply within 1 s": 12,
                    "closes the socket after done": 3,
                    "values a high spade in the hole": 10,
                }
            ),
            "",
        ],
        [
            "erin",
            "0",
            "180",
            *line_points(),
            "session 1 of 10 (login twice): the player exited with status 1 without connecting",
        ],
    ]
    assert printed.startswith(
        "alice: 160/180\nbob: 120/180\ncarol: 0/180  (the build failed)\ndave: 60/180\n"
    )
    assert "network cut off but for the dealer (loopback relay)" in printed
    data = json.loads((out / "gradebook.json").read_text(encoding="utf-8"))
    assert [(s["student"], s["score"], s["tested"]) for s in data["students"]] == [
        ("alice", 160, True),
        ("bob", 120, True),
        ("carol", 0, False),
        ("dave", 60, True),
        ("erin", 0, True),
    ]
    assert data["max"] == 180 == sum(line["max_points"] for line in data["lines"])


@needs_sandbox
def test_each_player_gets_feedback_and_a_summary_row(class_of_five: tuple[Path, str]) -> None:
    out, _ = class_of_five
    feedback = {
        path.stem: path.read_text(encoding="utf-8") for path in (out / "feedback").iterdir()
    }
    assert sorted(feedback) == ["alice", "bob", "carol", "dave", "erin"]
    assert feedback["alice"].startswith("alice: 160/180\n\nPASS [15/15] connects to the dealer\n")
    assert feedback["carol"].startswith("carol: 0/180\nnot tested: the build failed\n")
    assert "SyntaxError: invalid syntax" in feedback["carol"]
    crash = "ValueError: cannot read 'bet2:90:6:0:QH:QD:QC:up:QD:QC:3S:8D:5H:JD'"
    assert crash in feedback["dave"]
    assert 'File "<submission>/poker.py", line' in feedback["dave"]
    assert "casino-stud-class-" not in "".join(feedback.values())
    assert "  stderr:\n    no dealer for me\n" in feedback["erin"]
    page = (out / "summary.html").read_text(encoding="utf-8")
    for name in feedback:
        assert f'<a href="feedback/{name}.txt">{name}</a>' in page
    assert page.count("<tr><td><a ") == 5


def test_a_class_needs_its_run_command_and_refuses_a_report(tmp_path: Path) -> None:
    done = run_captured(main, ["check", str(tmp_path)])
    assert done.status == 2 and "SUBMISSIONS needs --run CMD" in done.err
    done = run_captured(main, ["check", "--bot", "ours", "--bot", "ours", "--report", "json"])
    assert done.status == 2 and "--report is for one --bot" in done.err
    done = run_captured(main, ["check", "--run", RUN])
    assert done.status == 2 and "--run and --build go with SUBMISSIONS" in done.err


def test_submissions_that_cannot_be_read_are_one_line(tmp_path: Path) -> None:
    argv = ["check", str(tmp_path / "nope.zip"), "--run", RUN, "--out", str(tmp_path / "out")]
    done = run_captured(main, [*argv, "--trust-submissions"])
    assert done.status == 1
    assert done.err == f"stud check: no such folder or file: {tmp_path / 'nope.zip'}\n"


def test_several_bots_are_a_class_each_named_by_its_command(tmp_path: Path) -> None:
    # Players that exit at once (their scores are test_five_players_five_gradebook_rows's):
    # one start each instead of ten sessions each.
    player = tmp_path / "poker.py"
    player.write_text(POKER.replace('FAULT = ""', 'FAULT = "no-dealer"'), encoding="utf-8")
    bot = f"python3 {player} {{host}} {{port}}"
    out = tmp_path / "grades"
    done = run_captured(main, ["check", "--bot", bot, "--bot", bot, "--out", str(out)])
    assert done.status == 0, done.err
    rows = list(csv.reader(io.StringIO((out / "gradebook.csv").read_text(encoding="utf-8"))))
    assert [row[0] for row in rows[1:]] == [bot, f"{bot} (2)"]
    assert "sandbox: --bot players run as typed, without one\n" in done.out
    stem = bot.replace("/", "_")
    assert sorted(p.name for p in (out / "feedback").iterdir()) == [
        f"{stem} (2).txt",
        f"{stem}.txt",
    ]
