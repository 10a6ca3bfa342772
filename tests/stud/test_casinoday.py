"""Casino Day for a class: ``casino stud tournament SUBMISSIONS`` takes a class in as
``casino grade`` does, builds and sandboxes every player, seats those that come, plays, and
writes the standings: one row per player, broken ones with their reason.

The class: students' players in plain Python (``classbots/poker.py`` with a fault each) and one
in Java (``java/Poker.java``, built with javac), each with the ``build.sh`` and ``run.sh`` the
course asks for.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from casino.grade.studcli import main
from casino.harness.runners.sandbox import isolation_works
from casino.programs import run_captured

HERE = Path(__file__).parent
POKER = (HERE / "classbots" / "poker.py").read_text(encoding="utf-8")
pytestmark = [
    pytest.mark.skipif(not isolation_works(), reason="bubblewrap cannot run here"),
    pytest.mark.skipif(shutil.which("javac") is None, reason="javac not found: a JDK is needed"),
]


def python_student(folder: Path, fault: str = "", broken: bool = False) -> None:
    folder.mkdir(parents=True)
    text = POKER.replace('FAULT = ""', f"FAULT = {fault!r}") + ("def (:\n" if broken else "")
    (folder / "poker.py").write_text(text, encoding="utf-8")
    (folder / "build.sh").write_text("python3 -m py_compile poker.py\n", encoding="utf-8")
    (folder / "run.sh").write_text('exec python3 "$(dirname "$0")/poker.py" "$@"\n')


def java_student(folder: Path) -> None:
    folder.mkdir(parents=True)
    shutil.copy(HERE / "java" / "Poker.java", folder / "Poker.java")
    (folder / "build.sh").write_text("javac -d build Poker.java\n", encoding="utf-8")
    run = 'cd "$(dirname "$0")" && exec java -cp build Poker "$@" Frank\n'
    (folder / "run.sh").write_text(run, encoding="utf-8")


@pytest.fixture(scope="module")
def casino_day(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("day")
    submissions = root / "submissions"
    python_student(submissions / "alice")
    python_student(submissions / "bob", "garbage")
    python_student(submissions / "carol", broken=True)
    python_student(submissions / "dave", "crash-at-bet2")
    python_student(submissions / "erin", "no-dealer")
    java_student(submissions / "frank")
    out = root / "grades"
    argv = ["tournament", str(submissions), "--build", "sh build.sh"]
    argv += ["--run", "sh run.sh {host} {port}", "--out", str(out)]
    argv += ["--hands", "40", "--seed", "3", "--wait", "60", "--reply-timeout", "5"]
    done = run_captured(main, argv)
    assert done.status == 0, done.err
    return out, done.out


def test_six_players_one_broken_six_rows(casino_day: tuple[Path, str]) -> None:
    out, printed = casino_day
    rows = list(csv.DictReader(io.StringIO((out / "tournament.csv").read_text(encoding="utf-8"))))
    assert list(rows[0]) == [
        "rank",
        "student",
        "table",
        "avatar",
        "chips",
        "hands survived",
        "removed",
    ]
    assert [row["table"] for row in rows] == ["1", "1", "1", "1", "", ""]
    by_name = {row["student"]: row for row in rows}
    assert sorted(by_name) == ["alice", "bob", "carol", "dave", "erin", "frank"]
    # Four came and played, best first; two never sat down, last, without a rank.
    assert [row["rank"] for row in rows] == ["1", "2", "3", "4", "", ""]
    assert [row["student"] for row in rows[4:]] == ["carol", "erin"]
    assert by_name["carol"]["removed"] == "the build failed"
    erin = by_name["erin"]["removed"]
    assert erin == "the player exited with status 1 without connecting"
    assert sum(int(row["chips"]) for row in rows[:4]) == 4 * 100  # chips are conserved
    ranked = [(-int(row["hands survived"]), -int(row["chips"])) for row in rows[:4]]
    assert ranked == sorted(ranked)  # who lasted longest, then the biggest stack
    assert by_name["frank"]["avatar"] == "Frank"  # the Java player, built and sandboxed
    assert by_name["bob"]["removed"].startswith("unparsable reply 'bet:lots' to bet1:")
    assert by_name["dave"]["removed"] == "disconnected (the connection was closed)"
    for name in ("alice", "frank"):
        assert (by_name[name]["removed"], by_name[name]["hands survived"]) == ("", "40")
    assert "gradebook: " in printed and "network cut off but for the dealer" in printed


def test_the_json_keeps_each_player_s_stderr_and_the_seed(casino_day: tuple[Path, str]) -> None:
    out, _ = casino_day
    data = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
    assert (data["seed"], data["stack"], data["hands"]) == (3, 100, 40)
    stderr = {player["student"]: player["stderr"] for player in data["players"]}
    assert "ValueError: cannot read 'bet2:" in stderr["dave"]
    assert 'File "<submission>/poker.py"' in stderr["dave"]
    assert stderr["erin"] == "no dealer for me\n"
    assert stderr["alice"] == ""


def test_a_casino_day_needs_players(tmp_path: Path) -> None:
    done = run_captured(main, ["tournament", "--out", str(tmp_path)])
    assert done.status == 2 and "give --bot CMD, or SUBMISSIONS with --run CMD" in done.err


def test_trusted_players_play_without_bubblewrap_still_cut_off(tmp_path: Path) -> None:
    # --trust-submissions: no sandbox of their own; the network is cut as casino grade cuts it
    # where the system allows it (the relay then brings the loopback up), else left open.
    submissions = tmp_path / "submissions"
    python_student(submissions / "ann", "connect-twice")
    python_student(submissions / "ben", "always-match")
    out = tmp_path / "grades"
    argv = ["tournament", str(submissions), "--run", "sh run.sh {host} {port}", "--out", str(out)]
    argv += ["--hands", "5", "--seed", "1", "--reply-timeout", "5", "--trust-submissions"]
    done = run_captured(main, [*argv, "--bot", "pair-or-fold"])  # a baseline joins the class
    assert done.status == 0, done.err
    rows = list(csv.DictReader(io.StringIO((out / "tournament.csv").read_text(encoding="utf-8"))))
    assert sorted((row["student"], row["hands survived"], row["removed"]) for row in rows) == [
        ("ann", "5", ""),
        ("ben", "5", ""),
        ("pair-or-fold", "5", ""),
    ]
    assert sum(int(row["chips"]) for row in rows) == 300
    assert {row["avatar"] for row in rows} == {"pyplayer", "pair-or-fold-0"}
    # a player is known by where it connects: ann's second connection is turned away
    data = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
    ann = next(player for player in data["players"] if player["student"] == "ann")
    assert ann["stderr"] == "second connection: done:one connection per player\n"
    assert "none of its own (--trust-submissions)" in done.out


def test_a_class_over_seventeen_plays_at_two_tables(tmp_path: Path) -> None:
    # One deck deals three cards to 17 players at most: 18 play at two tables of 9, at once,
    # and are ranked together.
    submissions = tmp_path / "submissions"
    for number in range(18):
        python_student(submissions / f"s{number:02}", "always-match" if number % 2 else "")
    out = tmp_path / "grades"
    argv = ["tournament", str(submissions), "--run", "sh run.sh {host} {port}", "--out", str(out)]
    argv += ["--hands", "3", "--seed", "1", "--reply-timeout", "5", "--wait", "120"]
    done = run_captured(main, argv)
    assert done.status == 0, done.err
    rows = list(csv.DictReader(io.StringIO((out / "tournament.csv").read_text(encoding="utf-8"))))
    assert [row["rank"] for row in rows] == [str(n) for n in range(1, 19)]
    tables = {row["student"]: row["table"] for row in rows}
    assert tables == {f"s{n:02}": str(n % 2 + 1) for n in range(18)}  # dealt in turn
    assert sum(int(row["chips"]) for row in rows) == 18 * 100
    ranked = [(-int(row["hands survived"]), -int(row["chips"])) for row in rows]
    assert ranked == sorted(ranked)  # one ranking over both tables
    assert " table 2 " in done.out


def test_one_player_alone_is_told_there_is_no_game(tmp_path: Path) -> None:
    submissions = tmp_path / "submissions"
    python_student(submissions / "ann")
    python_student(submissions / "ben", broken=True)
    out = tmp_path / "grades"
    argv = ["tournament", str(submissions), "--build", "sh build.sh", "--out", str(out)]
    done = run_captured(main, [*argv, "--run", "sh run.sh {host} {port}", "--trust-submissions"])
    assert done.status == 0, done.err
    assert (out / "tournament.csv").read_text(encoding="utf-8").splitlines()[1:] == [
        ",ann,1,pyplayer,100,0,no game: fewer than two players came",
        ",ben,,,,0,the build failed",
    ]


def test_a_canvas_download_zipped_is_taken_in_as_casino_grade_takes_it(tmp_path: Path) -> None:
    # Canvas's "Download Submissions": flat files, login_userid_submissionid_name (LATE too)
    download = tmp_path / "download"
    download.mkdir()
    for prefix, fault in (("ann_101_9001", ""), ("ben_LATE_102_9002", "always-match")):
        python_student(tmp_path / prefix, fault)
        for name in ("poker.py", "run.sh"):
            (tmp_path / prefix / name).rename(download / f"{prefix}_{name}")
    archive = tmp_path / "submissions.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(download.iterdir()):
            zipped.write(path, f"download/{path.name}")
    out = tmp_path / "grades"
    argv = ["tournament", str(archive), "--run", "sh run.sh {host} {port}", "--out", str(out)]
    done = run_captured(main, [*argv, "--hands", "3", "--trust-submissions"])
    assert done.status == 0, done.err
    rows = list(csv.DictReader(io.StringIO((out / "tournament.csv").read_text(encoding="utf-8"))))
    assert sorted((row["student"], row["hands survived"]) for row in rows) == [
        ("ann_101", "3"),
        ("ben_102", "3"),
    ]
