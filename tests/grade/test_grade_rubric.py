"""The course's whole rubric (``lines:`` in ``casino.yaml``): a five-card draw class of three
graded on the DIcE rubric shipped in ``transcripts/draw/casino.yaml``, the marker's sheet
filled in and merged (``casino grade marks``), and a regrade that keeps the marks."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from casino.grade.books import RUBRIC_COLUMNS
from casino.grade.cli import main
from casino.grade.course import Course, Student
from casino.grade.hostile import safety_inputs
from casino.grade.lines import (
    Judged,
    LinesError,
    Verdict,
    judge,
    parse_lines,
    run_key,
)
from casino.grade.results import StudentResult
from casino.grade.rubricbook import MarksError, write_books
from casino.grade.sheet import earlier_runs, page, read_sheet, sheet_csv, sheet_rows
from grade.grade_support import ROOT, UNSANDBOXED

pytest.importorskip("pycodestyle")

DRAW_RUBRIC = ROOT / "transcripts" / "draw" / "casino.yaml"
GREET = (
    'name: greets\nsteps:\n  - out: "name? "\n  - in: Ada\n  - out: "hello Ada\\n"\ntimeout: 5\n'
)
CLEAN = '''\
"""Greets whoever it is."""


def main():
    """Ask a name and greet it."""
    name = input("name? ")
    print("hello " + name)


main()
'''
MESSY = """\
name=input("name? ")
if not name.isalpha() : raise ValueError("bad name")
if name is "x":
    pass
print("hello "+name)
"""
PADDING = "".join(f"line {n}\n" for n in range(10))
STUDENTS = {"clean": CLEAN, "messy": MESSY, "giant": CLEAN}
AUTOMATIC = ["pycodestyle", "name-and-branch", "commit-scopes", "parsing", "compileall", "safety"]
EXPECTED = {
    "clean": [4, 1, 3, 10, 5, 10],
    "messy": [0, 1, 3, 10, 0, 0],  # pycodestyle, a SyntaxWarning, crashes on bad input
    "giant": [4, 1, 0, 10, 5, 10],  # one commit holding everything
}
MOODLE_IDS = {"clean": "101", "messy": "102", "giant": "103"}


def _git(folder: Path, *args: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="s", GIT_AUTHOR_EMAIL="s@x", GIT_COMMITTER_NAME="s")
    env.update(GIT_COMMITTER_EMAIL="s@x", GIT_CONFIG_GLOBAL="/dev/null")
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, env=env)


def _student(folder: Path, program: str, *, one_commit: bool) -> None:
    folder.mkdir(parents=True)
    _git(folder, "init", "-q", "-b", "main")
    _git(folder, "remote", "add", "origin", "https://example.org/s/fivecarddraw.git")
    files = {
        "run.sh": 'exec python3 "$(dirname "$0")/main.py" "$@"\n',
        "main.py": program,
        "doc/notes.txt": PADDING,
        "test/cases.txt": PADDING,
    }
    for name, text in files.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        if not one_commit:
            _git(folder, "add", name)
            _git(folder, "commit", "-q", "-m", f"add {name}")
    if one_commit:
        _git(folder, "add", ".")
        _git(folder, "commit", "-q", "-m", "everything")


def _course(root: Path) -> None:
    transcripts = root / "transcripts"
    transcripts.mkdir(parents=True)
    (transcripts / "greet.yaml").write_text(GREET, encoding="utf-8")
    (transcripts / "casino.yaml").write_text(DRAW_RUBRIC.read_text(encoding="utf-8"))
    for student, program in STUDENTS.items():
        folder = root / "moodle" / f"{student}_{MOODLE_IDS[student]}_assignsubmission_file_"
        _student(folder, program, one_commit=student == "giant")


def _casino(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(root / "cache"))
    return subprocess.run(
        [sys.executable, "-m", "casino", "grade", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def _grade(root: Path) -> subprocess.CompletedProcess[str]:
    argv = [str(root / "moodle"), "--transcripts", str(root / "transcripts")]
    argv += ["--run", "sh run.sh", "--out", str(root / "grades"), *UNSANDBOXED]
    return _casino(root, *argv)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def _fill(sheet: Path, scores: dict[str, float]) -> None:
    """Give every manual line the share ``scores[student]`` of its points (on a comment)."""
    rows = _rows(sheet)
    for row in rows:
        share = scores[row["student"].split("_")[0]]
        row["score"] = f"{float(row['points']) * share:g}"
        row["comment"] = f"seen {row['line']}"
    with sheet.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rubric")
    _course(root)
    done = _grade(root)
    assert done.returncode == 0, done.stderr
    return root


def test_the_safety_generator_reaches_the_messy_crash() -> None:
    """The first line of some session is not a plain word (else the crash could hide)."""
    assert any(not safety_inputs(n, 25)[0].isalpha() for n in range(1, 5))


def test_every_automatable_dice_line_is_right(graded: Path) -> None:
    books = {row["student"].split("_")[0]: row for row in _rows(graded / "grades" / "rubric.csv")}
    assert set(books) == set(EXPECTED)
    for student, points in EXPECTED.items():
        got = [float(books[student][line]) for line in AUTOMATIC]
        assert got == points, student
        assert books[student]["unmarked"] == "14"  # every manual line, not yet marked
        assert books[student]["design-aspects"] == ""
    # the gradebook itself is as without lines: the transcripts only
    gradebook = _rows(graded / "grades" / "gradebook.csv")
    assert [row["score"] for row in gradebook] == ["1", "1", "1"]


def test_the_marking_page_holds_the_evidence(graded: Path) -> None:
    giant = (graded / "grades" / "marking" / "giant_103.html").read_text(encoding="utf-8")
    assert "1 commits" in giant and "everything" in giant  # the commit list for "messages"
    assert "largest commit" in giant and "100% of the changed lines" in giant
    messy = (graded / "grades" / "marking" / "messy_102.html").read_text(encoding="utf-8")
    assert "E225 missing whitespace around operator" in messy
    assert "crashed (exit status 1): ValueError: bad name" in messy
    assert "doc/notes.txt" in messy  # files:doc
    assert "<script" not in messy


def test_a_filled_sheet_gives_the_rubrics_arithmetic(graded: Path) -> None:
    out = graded / "grades"
    sheet = out / "marking" / "sheet.csv"
    rows = _rows(sheet)
    assert len(rows) == 3 * 14 and {row["score"] for row in rows} == {""}
    unmarked = {row["student"].split("_")[0]: row for row in _rows(out / "gradebook.csv")}
    for student, automatic in EXPECTED.items():  # before the marks: the manual lines empty
        assert unmarked[student]["rubric_unmarked"] == "14"
        assert float(unmarked[student]["rubric_final"]) == sum(automatic)
        assert unmarked[student]["names"] == ""
    shares = {"clean": 1.0, "messy": 0.5, "giant": 0.75}
    _fill(sheet, shares)
    done = _casino(graded, "marks", str(sheet))
    assert done.returncode == 0, done.stderr
    manual = 100 - 33  # the 14 manual lines' points
    expected = {s: sum(EXPECTED[s]) + manual * shares[s] for s in EXPECTED}  # out of 100
    books = {row["student"].split("_")[0]: row for row in _rows(out / "rubric.csv")}
    for student, total in expected.items():
        assert float(books[student]["final"]) == pytest.approx(total)
        assert float(books[student]["percent"]) == pytest.approx(total)
        assert books[student]["unmarked"] == "0"
    moodle = {row["Identifier"]: row for row in _rows(out / "moodle.csv")}
    for student, total in expected.items():
        row = moodle[f"Participant {MOODLE_IDS[student]}"]
        assert float(row["Grade"]) == pytest.approx(total)
        assert row["Maximum Grade"] == "100"
        assert "safety " in row["Feedback comments"]
    _assert_gradebooks_hold(out, books)


def _assert_gradebooks_hold(out: Path, books: dict[str, dict[str, str]]) -> None:
    """``gradebook.csv`` and ``gradebook.json`` carry rubric.csv's lines and final, after the
    transcripts' own columns (rewritten, not added twice, by a second merge)."""
    lines = [line["id"] for line in json.loads((out / "rubric.json").read_text())["lines"]]
    csv_book = {row["student"].split("_")[0]: row for row in _rows(out / "gradebook.csv")}
    header = next(csv.reader(io.StringIO((out / "gradebook.csv").read_text())))
    assert header[:3] == ["student", "score", "max"] and header.count("rubric_final") == 1
    assert header[-len(lines) - 4 :] == [*lines, *RUBRIC_COLUMNS]
    assert RUBRIC_COLUMNS == ("rubric_penalty", "rubric_final", "rubric_percent", "rubric_unmarked")
    data = json.loads((out / "gradebook.json").read_text(encoding="utf-8"))
    assert [line["id"] for line in data["rubric"]["lines"]] == lines
    assert data["rubric"]["max"] == 100
    json_book = {s["student"].split("_")[0]: s["rubric"] for s in data["students"]}
    assert set(csv_book) == set(json_book) == set(books) == set(EXPECTED)
    for student, row in books.items():
        assert float(csv_book[student]["rubric_final"]) == float(row["final"])
        assert float(csv_book[student]["rubric_percent"]) == float(row["percent"])
        assert [csv_book[student][line] for line in lines] == [row[line] for line in lines]
        assert json_book[student]["final"] == pytest.approx(float(row["final"]))
        assert json_book[student]["percent"] == pytest.approx(float(row["percent"]))
        assert json_book[student]["unmarked"] == 0
        points = json_book[student]["points"]
        assert [points[line] for line in lines] == [float(row[line]) for line in lines]


def test_canvas_gets_the_same_final_grade(graded: Path, tmp_path: Path) -> None:
    state = json.loads((graded / "grades" / "rubric.json").read_text(encoding="utf-8"))
    state["layout"] = "canvas"
    state["identities"] = {name: ["canvas", "7", "login"] for name in state["auto"]}
    rows = [dict(row) for row in _rows(graded / "grades" / "marking" / "sheet.csv")]
    for row in rows:
        row["score"] = row["points"]
    write_books(tmp_path, state, rows)
    canvas = list(csv.reader((tmp_path / "canvas.csv").open(encoding="utf-8")))
    assert canvas[1] == ["Points Possible", "", "", "", "", "100"]
    clean = next(name for name in state["auto"] if name.startswith("clean"))
    totals = {name: sum(state["auto"][name].values()) + 67 for name in state["auto"]}
    assert sorted(float(row[5]) for row in canvas[2:]) == sorted(totals.values())
    assert totals[clean] == 100


def test_blackboard_gets_the_same_final_grade_by_username(graded: Path, tmp_path: Path) -> None:
    state = json.loads((graded / "grades" / "rubric.json").read_text(encoding="utf-8"))
    state["layout"], state["assignment"] = "blackboard", "Project C"
    state["identities"] = {name: ["blackboard", name, name] for name in state["auto"]}
    rows = [dict(row) for row in _rows(graded / "grades" / "marking" / "sheet.csv")]
    for row in rows:
        row["score"] = row["points"]
    assert "blackboard.csv" in write_books(tmp_path, state, rows)
    blackboard = list(csv.reader((tmp_path / "blackboard.csv").open(encoding="utf-8")))
    assert blackboard[0] == ["Username", "Project C [Total Pts: 100]"]
    totals = {name: sum(state["auto"][name].values()) + 67 for name in state["auto"]}
    assert {row[0]: float(row[1]) for row in blackboard[1:]} == totals
    assert not (tmp_path / "canvas.csv").exists()


def test_a_regrade_keeps_every_manual_mark_and_flags_a_changed_scale(graded: Path) -> None:
    out = graded / "grades"
    before = {
        (r["student"], r["line"]): (r["score"], r["comment"])
        for r in _rows(out / "marking" / "sheet.csv")
    }
    assert all(score for score, _ in before.values())  # filled by the test above
    greet = graded / "transcripts" / "greet.yaml"
    greet.write_text(GREET.replace("hello Ada", "hi Ada"), encoding="utf-8")
    rubric = graded / "transcripts" / "casino.yaml"
    text = rubric.read_text(encoding="utf-8")
    scaled = "{id: names, points: 2, kind: manual, scale: [0, 1, 2],"
    rubric.write_text(text.replace("{id: names, points: 2, kind: manual,", scaled))
    done = _grade(graded)
    assert done.returncode == 0, done.stderr
    rows = _rows(out / "marking" / "sheet.csv")
    assert {(r["student"], r["line"]): (r["score"], r["comment"]) for r in rows} == before
    flagged = {r["line"] for r in rows if r["flag"]}
    assert flagged == {"names"}
    assert all(r["flag"].startswith("scale changed (was 0 to 2)") for r in rows if r["flag"])
    books = {row["student"].split("_")[0]: row for row in _rows(out / "rubric.csv")}
    # regraded: "hi" for "hello", one word of three wrong, under the draw folder's
    # behaviour-only rubric: half the transcript's point, so 5 of the line's 10
    assert {row["parsing"] for row in books.values()} == {"5"}
    assert books["clean"]["unmarked"] == "0"  # its 2 is on the new scale
    assert books["giant"]["unmarked"] == "1"  # its 1.5 is not: left for the marker
    # what the next regrade may reuse: the run lines' verdicts, signed with the grader's key
    env = {"XDG_CACHE_HOME": str(graded / "cache")}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        runs = earlier_runs(out)
        assert {name.split("_")[0]: sorted(kept) for name, kept in runs.items()} == {
            s: ["compileall", "safety"] for s in EXPECTED
        }
        state = json.loads((out / "rubric.json").read_text(encoding="utf-8"))
        state["runs"][next(iter(state["runs"]))]["safety"][1] = 0
        (out / "rubric.json").write_text(json.dumps(state), encoding="utf-8")
        assert earlier_runs(out) == {}  # edited: judged again


def test_a_bad_line_is_refused(tmp_path: Path) -> None:
    settings = tmp_path / "casino.yaml"
    settings.write_text("lines:\n  - {text: x, kind: check, points: 1}\n", encoding="utf-8")
    with pytest.raises(LinesError, match="exactly one of 'run', 'lint' and 'exists'"):
        parse_lines(settings)
    settings.write_text("lines:\n  - {text: x, kind: manual, points: 2, scale: [0, 1]}\n")
    with pytest.raises(LinesError, match="scale must end at its points"):
        parse_lines(settings)


def test_the_late_rule_comes_last_on_the_rubrics_total(tmp_path: Path) -> None:
    """20 % a day of the whole rubric's total (automatic and manual), not of the transcripts'."""
    state = {
        "lines": [
            {"id": "auto", "text": "a", "kind": "transcripts", "points": 6.0},
            {"id": "marked", "text": "m", "kind": "manual", "points": 4.0, "scale": [0, 2, 4]},
            {"id": "extra", "text": "b", "kind": "manual", "points": 1.0, "bonus": True},
        ],
        "auto": {"late": {"auto": 6.0}, "early": {"auto": 3.0}},
        "rule": "percent:20",
        "days": {"late": 2, "early": 0},
        "identities": {},
        "layout": "folders",
        "assignment": "casino",
    }
    rows = [
        {"student": who, "line": line, "score": score}
        for who, line, score in [
            ("late", "marked", "4"),
            ("late", "extra", "1"),
            ("early", "marked", "2"),
            ("early", "extra", ""),
        ]
    ]
    assert write_books(tmp_path, state, rows) == "rubric.csv"
    books = {row["student"]: row for row in _rows(tmp_path / "rubric.csv")}
    assert books["late"]["total"] == "11" and books["late"]["max"] == "10"
    assert books["late"]["penalty"] == "4.4" and books["late"]["final"] == "6.6"
    assert books["late"]["percent"] == "66"
    assert (books["early"]["final"], books["early"]["unmarked"]) == ("5", "1")
    # the gradebooks carry the same final, the rule applied last (a student absent: empty)
    (tmp_path / "gradebook.csv").write_text("student,score,max\nearly,3,6\ngone,0,6\nlate,6,6\n")
    students = [{"student": name} for name in ("early", "gone", "late")]
    (tmp_path / "gradebook.json").write_text(json.dumps({"max": 6, "students": students}))
    written = "rubric.csv, gradebook.csv, gradebook.json"
    assert write_books(tmp_path, state, rows) == written
    assert write_books(tmp_path, state, rows) == written  # replaced, not added twice
    assert (tmp_path / "gradebook.csv").read_text().splitlines() == [
        "student,score,max,auto,marked,extra,rubric_penalty,rubric_final,rubric_percent,"
        "rubric_unmarked",
        "early,3,6,3,2,,0,5,50,1",
        "gone,0,6,,,,,,,",
        "late,6,6,6,4,1,4.4,6.6,66,0",
    ]
    data = json.loads((tmp_path / "gradebook.json").read_text())
    assert data["rubric"]["max"] == 10 and data["students"][1]["rubric"] is None
    late = data["students"][2]["rubric"]
    assert (late["total"], late["penalty"], late["final"]) == (11, 4.4, pytest.approx(6.6))
    assert data["students"][0]["rubric"]["points"] == {"auto": 3, "marked": 2, "extra": None}
    rows[2]["score"] = "3"
    with pytest.raises(MarksError, match="row 4: score 3 is not on the scale 0 / 2 / 4"):
        write_books(tmp_path, state, rows)


def test_a_page_shows_a_submissions_text_never_obeys_it(tmp_path: Path) -> None:
    folder = tmp_path / "eve"
    folder.mkdir()
    (folder / "main.py").write_text('print("\x1b[2J</pre><script>x</script>")\n')
    secret = tmp_path / "grader-secret.py"
    secret.write_text("TOKEN = 'the grader keeps this'\n")
    (folder / "leak.py").symlink_to(secret)  # a link is never followed into the page
    lines = parse_lines(
        _settings(tmp_path, "{id: c, text: c, kind: manual, points: 1, evidence: [code]}")
    )
    text = page(Student("eve", folder), tuple(lines), Judged({}, [], []))
    assert "\\x1b[2J&lt;/pre&gt;&lt;script&gt;" in text and "<script" not in text
    assert "<td>main.py</td><td>1</td><td>0</td><td>0</td><td>0</td>" in text
    assert "leak.py" not in text and "the grader keeps this" not in text


def _settings(folder: Path, line: str) -> Path:
    settings = folder / "casino.yaml"
    settings.write_text(f"lines:\n  - {line}\n", encoding="utf-8")
    return settings


def test_marks_without_a_graded_rubric_is_one_line(tmp_path: Path) -> None:
    sheet = tmp_path / "marking" / "sheet.csv"
    sheet.parent.mkdir()
    sheet.write_text("student,line,points,scale,score,comment,flag\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["grade", "marks", str(sheet)], stdout=out, stderr=err) == 1
    said = f"no {tmp_path / 'rubric.json'}: grade the course with rubric lines first"
    assert err.getvalue() == f"casino grade marks: {said}\n"


def test_a_sheet_read_back_is_the_sheet_written(tmp_path: Path) -> None:
    """A student named like a formula is quoted in the CSV and keeps its marks when read."""
    lines = tuple(parse_lines(_settings(tmp_path, "{id: m, text: m, kind: manual, points: 2}")))
    kept = {("-eve", "m"): {"score": "1", "comment": "=SUM(A1)", "scale": "0 to 2"}}
    rows = sheet_rows(lines, ["-eve"], kept)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(sheet_csv(rows), encoding="utf-8")
    assert sheet.read_text().splitlines()[1] == "'-eve,m,2,0 to 2,1,'=SUM(A1),"
    assert read_sheet(sheet) == {("-eve", "m"): rows[0]}


def test_a_run_lines_verdict_is_reused_while_its_key_holds(tmp_path: Path) -> None:
    """A regrade runs a safety or run: check again only when the line or the submission
    changed: here the program cannot even start, so a reused verdict is all it can get."""
    settings = _settings(tmp_path, "{id: s, text: s, kind: safety, points: 10, sessions: 1}")
    lines = tuple(parse_lines(settings))
    course = Course((), ("./no-such-program",), None, "pipe", None, 10.0, None)
    folder = tmp_path / "ada"
    folder.mkdir()
    result = StudentResult("ada", (), "digest:settings")
    kept = Verdict(10.0, "passed: 1 sessions of 25 hostile lines: no crash, hang or flood")
    known = {"s": (run_key(lines[0], "digest:settings"), kept)}
    reused = judge(lines, course, Student("ada", folder), result, known=known)
    assert reused.verdicts == {"s": kept} and reused.ran == known
    other = StudentResult("ada", (), "changed:settings")
    again = judge(lines, course, Student("ada", folder), other, known=known)
    assert again.verdicts["s"].points == 0.0
    assert again.verdicts["s"].why.startswith("failed: session 1 of 1 cannot start")
