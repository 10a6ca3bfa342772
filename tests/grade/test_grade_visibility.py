"""``visibility: visible | hidden | after-due``: a hidden transcript's input and expected
output reach no student's feedback (every feedback file is searched for them), the staff copy
holds everything, an ``after-due`` one is shown once the due has passed, and the Gradescope
export carries the same visibility."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from casino.grade.course import Material
from casino.grade.results import HIDDEN_NOTE
from casino.grade.visibility import withheld
from casino.harness.dump import dump_transcript
from casino.harness.load import load_transcript
from casino.harness.model import Transcript, TranscriptError
from grade.grade_support import ROOT, RUN, UNSANDBOXED, write_course
from grade.test_grade_export import autograder, scores
from grade.test_grade_intake import grade

GREET = "greet.yaml"


def hide(root: Path) -> None:
    """``greet.yaml`` hidden; ``state/`` after the due, said by its folder's casino.yaml."""
    greet = root / "transcripts" / GREET
    greet.write_text(greet.read_text() + "visibility: hidden\n")
    (root / "transcripts" / "state" / "casino.yaml").write_text("visibility: after-due\n")


def test_a_transcript_or_its_folder_says_its_visibility(tmp_path: Path) -> None:
    write_course(tmp_path, {})
    hide(tmp_path)
    greet = load_transcript(tmp_path / "transcripts" / GREET)
    assert (greet.visibility, greet.shown) == ("hidden", "hidden")
    assert "visibility: hidden\n" in dump_transcript(greet)
    chain = load_transcript(tmp_path / "transcripts" / "state" / "chain.yaml")
    assert (chain.visibility, chain.shown) == (None, "after-due")
    assert "visibility" not in dump_transcript(chain)
    assert load_transcript(tmp_path / "transcripts" / "args.yaml").shown == "visible"


def test_a_visibility_that_is_none_is_one_line(tmp_path: Path) -> None:
    write_course(tmp_path, {})
    greet = tmp_path / "transcripts" / GREET
    greet.write_text(greet.read_text() + "visibility: secret\n")
    with pytest.raises(TranscriptError, match="'visibility' must be one of visible, hidden"):
        load_transcript(greet)
    (tmp_path / "transcripts" / "state" / "casino.yaml").write_text("visibility: [x]\n")
    with pytest.raises(TranscriptError, match=r"casino\.yaml: 'visibility' must be one of"):
        load_transcript(tmp_path / "transcripts" / "state" / "chain.yaml")


def test_after_due_is_withheld_until_the_students_own_due() -> None:
    now = datetime(2019, 6, 1, tzinfo=UTC)
    material = _material("after-due")
    assert withheld([material], None, now) == {"x.yaml": "x"}
    assert withheld([material], now + timedelta(seconds=1), now) == {"x.yaml": "x"}
    assert withheld([material], now, now) == {}
    assert withheld([_material("hidden")], now - timedelta(days=9), now) == {"x.yaml": "x"}
    assert withheld([_material("visible")], None, now) == {}


def _material(shown: str) -> Material:
    """A transcript ``x`` (nothing to run: only its visibility is read)."""
    transcript = Transcript(name="x", runs=(), path=Path("x.yaml"), shown=shown)
    return Material(transcript, (), "")


def test_a_hidden_transcript_is_in_no_students_feedback(tmp_path: Path) -> None:
    write_course(tmp_path, {"correct": 1, "wrong_space": 1})
    hide(tmp_path)
    done = grade(tmp_path, tmp_path / "submissions", *UNSANDBOXED)
    assert done.returncode == 0, done.stderr
    grades = tmp_path / "grades"
    students = sorted((grades / "feedback").glob("*.txt"))
    assert [path.name for path in students] == ["correct-00.txt", "wrong_space-00.txt"]
    for path in students:
        text = path.read_text()
        for secret in ("Ada", "name?", "hello", "saved 7", "loaded", "save"):
            assert secret not in text, (path.name, secret)
    assert (grades / "feedback" / "wrong_space-00.txt").read_text().splitlines()[2:4] == [
        "PASS [1/1] counts (args.yaml)",
        f"FAIL [0/1] greets (greet.yaml): {HIDDEN_NOTE}",
    ]
    staff = (grades / "feedback-staff" / "wrong_space-00.txt").read_text()
    assert "hello··Ada" in staff and "name? " in staff
    # Once the due has passed, the after-due transcript is shown (the hidden one never is).
    done = grade(tmp_path, tmp_path / "submissions", *UNSANDBOXED, "--due", "2019-05-31T15:00Z")
    assert done.returncode == 0, done.stderr
    text = (grades / "feedback" / "wrong_space-00.txt").read_text()
    assert "PASS [2/2] remembers (state/chain.yaml)\n" in text
    assert f"greets (greet.yaml): {HIDDEN_NOTE}" in text and "Ada" not in text


def test_the_gradescope_export_carries_the_visibility(tmp_path: Path) -> None:
    write_course(tmp_path, {"wrong_space": 1})
    hide(tmp_path)
    argv = [sys.executable, "-m", "casino", "grade", "export", "--gradescope"]
    argv += [str(tmp_path / "out"), "--transcripts", str(tmp_path / "transcripts")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([*argv, "--run", RUN], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    data = autograder(tmp_path, tmp_path / "out" / "autograder.zip", _student(tmp_path))
    assert scores(data) == [
        ("counts (visible/args.yaml)", 1, 1, "passed", "visible"),
        ("remembers (after-due/state/chain.yaml) run 1 of 2", 1, 1, "passed", "after_due_date"),
        ("remembers (after-due/state/chain.yaml) run 2 of 2", 1, 1, "passed", "after_due_date"),
        ("greets (withheld/greet.yaml)", 0, 1, "failed", "visible"),
    ]
    assert data["tests"][3]["output"] == HIDDEN_NOTE


def _student(root: Path) -> Path:
    return root / "submissions" / "wrong_space-00"


def test_github_classroom_is_given_no_hidden_transcript(tmp_path: Path) -> None:
    write_course(tmp_path, {})
    hide(tmp_path)
    template = tmp_path / "template"
    argv = [sys.executable, "-m", "casino", "grade", "export", "--github-classroom"]
    argv += [str(template), "--transcripts", str(tmp_path / "transcripts"), "--run", RUN]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "casino grade export: left out 2 transcripts marked visibility: hidden or after-due "
        "(GitHub Classroom runs the tests in the student's own repository, where the student "
        "can read them)\n"
    )
    shipped = [p for p in template.rglob("*") if p.is_file() and "casino/casino" not in str(p)]
    texts = [p.read_text(errors="replace") for p in shipped]
    assert any("3 args" in text for text in texts)  # the visible transcript is there
    assert not any("hello Ada" in text or "saved 7" in text for text in texts)
