"""End to end: ``casino grade`` on a generated course with submissions of every kind.

Correct programs (Python and Java), one wrong space, a crash, an endless loop, a 100 MB
flood, a memory hog, a compile failure and a program that leaves a process behind: every
score and every feedback file is checked, the grader's memory is bounded, nothing is left
running or on disk, and a re-run regrades only what changed.

One to three students of each kind, each count a different one where the summary counts them
(three wrong spaces, two crashes, one endless loop, one flood), so that every count the
summary shows is checked; more students of a kind would show nothing more, for the CPU of
four more runs each (the course is graded twice), and a Java compiler's start (0.7 s) for
each Java submission.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from casino.harness.runners import cgroup
from grade.grade_support import (
    COLUMNS,
    JAVAC,
    MAX,
    ORPHAN_SECONDS,
    SANDBOXED,
    TRANSCRIPTS,
    Graded,
    Points,
    grade,
    witnessed,
    write_course,
)
from grade.student_python import quick_runs

COUNTS = {
    "correct": 2 if JAVAC else 3,
    "wrong_space": 3,
    "crash": 2,
    "loop": 1,
    "flood": 1,
    "memory": 1,
    "orphan": 1,
    "compile_fail": 1,
    **({"java": 1} if JAVAC else {}),
}


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Points], Graded]:
    """The course, graded once with two jobs (its temporary files in ``root/tmp``)."""
    root = tmp_path_factory.mktemp("course")
    expected = write_course(root, COUNTS)
    quick_runs(root)  # the system's python3, whatever the grader's PATH holds
    (root / "tmp").mkdir()
    graded = grade(root, "--jobs", "2", tmp=root / "tmp")
    return root, expected, graded


def test_the_course_has_every_kind_of_submission(
    course: tuple[Path, dict[str, Points], Graded],
) -> None:
    _, expected, _ = course
    assert len(expected) == sum(COUNTS.values())
    kinds = {student.rsplit("-", 1)[0] for student in expected}
    assert kinds == set(CHECKS) - (set() if JAVAC else {"java"})


def test_every_score_is_in_the_gradebook(course: tuple[Path, dict[str, Points], Graded]) -> None:
    root, expected, graded = course
    assert graded.status == 0, graded.err
    with open(root / "grades" / "gradebook.csv", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["student", "score", "max", *COLUMNS]  # the reference one left out
    wanted = [
        [name, str(sum(points)), str(MAX), *map(str, points)]
        for name, points in sorted(expected.items())
    ]
    assert rows[1:] == wanted
    book = json.loads((root / "grades" / "gradebook.json").read_text())
    assert book["max"] == MAX
    assert [t["path"] for t in book["transcripts"]] == COLUMNS
    by_name = {entry["student"]: entry for entry in book["students"]}
    assert by_name["compile_fail-00"]["build_failed"] is True
    assert by_name["loop-00"]["status"] == dict.fromkeys(COLUMNS, "fail")
    assert [by_name[name]["score"] for name in sorted(expected)] == [
        sum(points) for _, points in sorted(expected.items())
    ]


def test_the_summary_names_the_isolation_and_where_results_are(
    course: tuple[Path, dict[str, Points], Graded],
) -> None:
    root, expected, graded = course
    lines = graded.out.splitlines()
    full = sum(sum(points) == MAX for points in expected.values())
    summary = f"graded {len(expected)} submissions: {full} with full marks, 1 build failure"
    assert lines[0] == summary
    if SANDBOXED:
        assert lines[1] == (
            "sandbox: bubblewrap (own file system, processes, uid, user namespace, seccomp "
            "filter); CPU 60 s; data 512 MiB; address space 1024 MiB; 256 processes per run; "
            f"files up to 64 MiB; run folder up to 256 MiB; {cgroup.describe()}; "
            "network cut off (unshare --net)"
        )
    else:
        assert lines[1].startswith("sandbox: none of its own (--trust-submissions); CPU 60 s")
    assert lines[2] == f"gradebook: {root / 'grades' / 'gradebook.csv'} (and gradebook.json)"
    assert graded.err == ""  # no terminal: no progress bar


def feedback(root: Path, student: str) -> str:
    return (root / "grades" / "feedback" / f"{student}.txt").read_text()


ALL_PASS = (
    "PASS [1/1] counts (args.yaml)\n"
    "PASS [1/1] greets (greet.yaml)\n"
    "PASS [2/2] remembers (state/chain.yaml)\n"
)


def test_each_feedback_file_says_what_the_student_got_wrong(
    course: tuple[Path, dict[str, Points], Graded],
) -> None:
    root, expected, _ = course
    files = sorted(os.listdir(root / "grades" / "feedback"))
    assert files == [f"{student}.txt" for student in sorted(expected)]
    for student in expected:
        kind = student.rsplit("-", 1)[0]
        text = feedback(root, student)
        score = sum(expected[student])
        assert text.startswith(f"{student}: {score}/{MAX}\n")
        CHECKS[kind](text)


def _correct(text: str) -> None:
    assert text.endswith("\n\n" + ALL_PASS)


def _wrong_space(text: str) -> None:
    assert "FAIL [0/1] greets (greet.yaml)\n" in text
    assert "    expected: name?·hello·Ada⏎\n    actual:   name?·hello··Ada⏎\n" in text
    assert "  -name? hello Ada\n  +name? hello  Ada\n" in text


def _crash(text: str) -> None:
    assert (
        "FAIL [1/2] remembers (state/chain.yaml)\n"
        "  crashed in run 2 of 2 (exit status 1): FileNotFoundError: [Errno 2] No such file or"
        " directory: 'missing.txt'\n"
        "  run 1 of 2: PASS [1/1]\n"
        "  run 2 of 2: FAIL [0/1]\n"
    ) in text
    assert "  run 2 of 2: exit status 1, expected 0\n" in text
    assert "FileNotFoundError: [Errno 2] No such file or directory: 'missing.txt'" in text
    assert 'File "<submission>/main.py", line 7' in text  # never the temporary copy's path


def _loop(text: str) -> None:
    assert text.count("timed out: ") == 4  # each run of each transcript


def _flood(text: str) -> None:
    assert "FAIL [0/1] greets (greet.yaml)\n  stopped: it printed more than " in text
    assert len(text) < 300_000  # the verdict is on what was kept, not on 100 MB


def _memory(text: str) -> None:
    assert "FAIL [0/1] counts (args.yaml)\n" in text
    assert "    MemoryError\n" in text


def _compile_fail(text: str) -> None:
    assert "the build failed; no transcript was run. What it printed:\n" in text
    assert ("error: reached end of file while parsing" if JAVAC else "not found") in text


CHECKS = {
    "correct": _correct,
    "java": _correct,
    "orphan": _correct,
    "wrong_space": _wrong_space,
    "crash": _crash,
    "loop": _loop,
    "flood": _flood,
    "memory": _memory,
    "compile_fail": _compile_fail,
}


def test_the_staff_summary(course: tuple[Path, dict[str, Points], Graded]) -> None:
    root, expected, _ = course
    page = (root / "grades" / "summary.html").read_text()
    assert "<h2>Score distribution</h2>" in page
    assert "<tr><td>100%</td><td>" in page
    assert "Transcripts: 3 graded, 1 skipped as casino-only (reference: casino)." in page
    # greet.yaml is failed most (wrong space, loop, flood); its usual first difference:
    failing = page.split("<h2>Transcripts, most failed first</h2>")[1]
    assert failing.index("greets<br>") < failing.index("counts<br>")
    ran = len(expected) - COUNTS["compile_fail"]
    failed = COUNTS["wrong_space"] + COUNTS["loop"] + COUNTS["flood"]
    assert f"<td>{failed} of {ran}</td><td>3 diff, 1 time-out, 1 flood</td>" in failing
    difference = "expected: name?·hello·Ada⏎\nactual:   name?·hello··Ada⏎</pre>"
    assert difference + "<small>3 of them</small>" in page
    # the chain: the crash fails its second run, the endless loop its first
    assert "<td>2 crash, 1 time-out</td><td>run 1 of 2: 1; run 2 of 2: 2</td>" in failing
    assert '<td class="crash">crash<br><small>run 2 of 2</small></td>' in page
    kinds = page.split("<h2>Failure kinds</h2>")[1].split("</table>")[0]
    missing = "FileNotFoundError: [Errno 2] No such file or directory: &#x27;missing.txt&#x27;"
    assert f"<pre>{missing}</pre><small>2 of them</small>" in kinds
    for student in expected:
        assert f'<tr><td><a href="feedback/{student}.txt">{student}</a></td>' in page
    builds = page.split("<h2>Build failures and submissions not graded</h2>")[1]
    assert '<a href="feedback/compile_fail-00.txt">' in builds


def test_the_grader_stays_small_and_leaves_nothing(
    course: tuple[Path, dict[str, Points], Graded],
) -> None:
    root, _, graded = course
    assert graded.max_rss_kib < 200 * 1024
    assert os.listdir(root / "tmp") == []  # every copy and scratch directory removed
    assert not _leftovers(str(root))


def _leftovers(root: str) -> list[int]:
    """Processes still running from the course: the orphan's sleeper, or any whose working
    directory was under ``root``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if argv[:2] == [b"sleep", ORPHAN_SECONDS.encode()] or cwd.startswith(root):
            found.append(int(entry))
    return found


def test_a_rerun_grades_only_what_changed(course: tuple[Path, dict[str, Points], Graded]) -> None:
    root, expected, _ = course
    book = (root / "grades" / "gradebook.csv").read_bytes()
    # Trusted, so that the runs can note themselves in a file outside their sandbox: the
    # grades are the same as in their sandboxes.
    trusted = ("--jobs", "2", "--trust-submissions")
    assert grade(root, *trusted, out="trusted").status == 0
    assert (root / "trusted" / "gradebook.csv").read_bytes() == book
    witnessed(root)
    again = grade(root, *trusted, out="trusted")
    assert again.status == 0
    assert witnessed(root) == []  # nothing changed: nothing ran
    assert (root / "trusted" / "gradebook.csv").read_bytes() == book
    # The course fixes greet.yaml to expect two spaces: only that transcript is graded again.
    greet = root / "transcripts" / "greet.yaml"
    greet.write_text(TRANSCRIPTS["greet.yaml"].replace("hello Ada", "hello  Ada"))
    fixed = grade(root, *trusted, out="trusted")
    assert fixed.status == 0
    runs = witnessed(root)
    built = [s for s in expected if not s.startswith("compile_fail")]
    assert sorted(runs) == sorted(f"{student} " for student in built)  # greet has no args
    with open(root / "trusted" / "gradebook.csv", newline="") as handle:
        rows = {row[0]: row[3:] for row in csv.reader(handle)}
    assert rows["wrong_space-00"] == ["1", "1", "2"]
    assert rows["correct-00"] == ["1", "0", "2"]
    assert rows["compile_fail-00"] == ["0", "0", "0"]
