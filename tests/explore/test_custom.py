"""A course's own assignment: docs/examples/stack's grammar, its awk reference, two students."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from casino.explore.cli import main
from casino.explore.custom import GrammarFileError, load_grammar

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "stack"
pytestmark = pytest.mark.skipif(shutil.which("awk") is None, reason="needs awk")


def _explore(student: str, output: Path, sessions: int) -> tuple[int, str]:
    out = io.StringIO()
    status = main(
        [
            "explore",
            "--grammar",
            str(EXAMPLE / "stack.yaml"),
            "--reference",
            "awk -f reference.awk",
            "--program",
            f"python3 {student}",
            "--program-dir",
            str(EXAMPLE),
            "--sessions",
            str(sessions),
            "-o",
            str(output),
        ],
        stdout=out,
        stderr=io.StringIO(),
    )
    return status, out.getvalue()


def test_buggy_student_found_and_shrunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLE)
    status, text = _explore("student.py", tmp_path / "found.yaml", 50)
    assert status == 1
    assert "shrunk to 2 input lines" in text
    written = (tmp_path / "found.yaml").read_text(encoding="utf-8")
    assert "- in: dup\n  - in: quit\n" in written
    assert r"error:\ empty\ stack" in written


def test_honest_student_nothing_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLE)
    status, text = _explore("honest.py", tmp_path / "none.yaml", 15)
    assert status == 0
    assert text.startswith("no difference in 15 sessions")


def test_bad_grammar_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("commands:\n  - form: 'push {n}'\n", encoding="utf-8")
    with pytest.raises(GrammarFileError, match=r"uses \{n\}, no such domain"):
        load_grammar(bad, ("true",), None)
