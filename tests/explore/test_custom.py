"""A course's own assignment: docs/examples/stack's grammar, its awk reference, two students."""

from __future__ import annotations

import io
import re
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


NOTES = EXAMPLE.parent / "notes"


def _explore_notes(student: Path, output: Path, sessions: int, *more: str) -> tuple[int, str]:
    out = io.StringIO()
    argv = ["explore", "--grammar", str(NOTES / "notes.yaml"), "--reference"]
    argv += ["awk -f reference.awk", "--program", f"python3 {student}"]
    argv += ["--sessions", str(sessions), "-o", str(output), *more]
    return main(argv, stdout=out, stderr=io.StringIO()), out.getvalue()


def test_a_chain_of_runs_and_a_starting_file_find_a_bug_of_saving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """notes.yaml: chains of up to 3 runs in one folder, notes.txt drawn at the start. The
    student who saves nothing when no note is left is found only by a later run, and the
    shrunk transcript keeps two runs and the starting file; ``casino replay`` shows it too."""
    import yaml

    from casino.harness.cli import main as harness

    monkeypatch.chdir(NOTES)
    found = tmp_path / "found.yaml"
    status, text = _explore_notes(NOTES / "student.py", found, 100)
    assert status == 1 and "shrunk to 4 input lines" in text
    written = yaml.safe_load(found.read_text(encoding="utf-8"))
    assert written["files"] == {"notes.txt": "milk\n"}
    assert [[step.get("in") for step in run["steps"]] for run in written["runs"]] == [
        ["clear", "quit", None],
        ["count", "quit", None],
    ]
    assert written["runs"][1]["steps"][-1]["out"] == "0 notes\nbye\n"
    replay = ["replay", "--program", f"python3 {NOTES / 'student.py'}", str(found)]
    assert harness(replay, stdout=io.StringIO(), stderr=io.StringIO()) == 1
    honest = ["replay", "--program", f"python3 {NOTES / 'honest.py'}", str(found)]
    assert harness(honest, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    status, text = _explore_notes(NOTES / "honest.py", tmp_path / "none.yaml", 40)
    assert (status, text.split(" (")[0]) == (0, "no difference in 40 sessions")


def test_every_reports_one_difference_a_group_by_what_the_lines_print(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A student with two bugs (the saving one, and ``Added`` for ``added``): ``--every``
    reports each in its group (``reading``: the notes come back; ``editing``: the word)."""
    monkeypatch.chdir(NOTES)
    twice = tmp_path / "twice.py"
    source = (NOTES / "student.py").read_text(encoding="utf-8")
    twice.write_text(source.replace('print(f"added ', 'print(f"Added '), encoding="utf-8")
    status, text = _explore_notes(twice, tmp_path / "e.yaml", 150, "--every")
    assert status == 1
    main_group = re.findall(r"^session \d+ differs in ([a-z]+);", text, re.M)
    other_groups = re.findall(r"^([a-z]+): differs too", text, re.M)
    groups = main_group + other_groups
    assert sorted(groups) == ["editing", "reading"], text


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("runs: 0\n", "'runs' is 0, not a whole number from 1 to 10"),
        ("files: {notes.txt: []}\n", "file 'notes.txt' needs a list of texts"),
        ("files: {../x: [a]}\n", "name '../x' is not a plain name"),
        ("files: {x: [1]}\n", "texts are strings or null"),
        ("commands: [{form: a, prints: ['(']}]\n", "prints has a bad regex"),
    ],
)
def test_a_bad_chain_file_or_prints_is_one_clear_line(tmp_path: Path, text: str, said: str) -> None:
    bad = tmp_path / "bad.yaml"
    body = text if text.startswith("commands") else "commands: [a]\n" + text
    bad.write_text(body, encoding="utf-8")
    with pytest.raises(GrammarFileError, match=re.escape(said)):
        load_grammar(bad, ("true",), None)
