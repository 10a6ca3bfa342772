"""``casino grade --similarity``: in a test course, two renamed copies of one program (every
name changed, the file renamed) are the top pair; a starter file every student kept makes
every pair similar until ``--template`` leaves it out; earlier years (``--archive``) are
compared with this year's; the ranked list and the side-by-side pages are written and linked
from the summary. The programs are in ``tests/grade/similar/``."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from casino.grade import cli, similarity
from casino.grade.course import MAX_SUBMISSION_FILES
from casino.grade.similarity import (
    MAX_FILE_BYTES,
    MAX_SOURCE_BYTES,
    MAX_SOURCE_FILES,
    MAX_WALKED,
    SHOWN_AT,
    folders_in,
    rank,
    source_files,
    source_paths,
    summary_section,
    write_similarity,
)
from casino.harness.runners.folders import make_folders, remove_tree
from grade.grade_support import ROOT, RUN, UNSANDBOXED, write_course
from grade.test_grade_intake import grade

pytest.importorskip("copydetect")

PROGRAMS = Path(__file__).parent / "similar"
RENAMES = {
    "players": "people",
    "stones": "pebbles",
    "bound": "limit",
    "winningMove": "bestTake",
    "take": "amount",
    "turn": "who",
    "loop": "run",
    "Nimsys": "Game",
}


def renamed(text: str) -> str:
    """``text`` with every name of :data:`RENAMES` changed, as a student hiding a copy would."""
    words = rf"\b({'|'.join(RENAMES)})\b"
    return re.sub(words, lambda match: RENAMES[match[0]], text)


def course(root: Path) -> list[tuple[str, Path]]:
    """Four students, each with the course's ``Starter.java``: ada wrote ``Nimsys.java``, alan
    handed in a renamed copy of it as ``Game.java``, grace and linus wrote their own."""
    own = {
        "ada": ("Nimsys.java", (PROGRAMS / "Original.java").read_text()),
        "alan": ("Game.java", renamed((PROGRAMS / "Original.java").read_text())),
        "grace": ("Nimsys.java", (PROGRAMS / "Rankings.java").read_text()),
        "linus": ("Nimsys.java", (PROGRAMS / "Echo.java").read_text()),
    }
    (root / "template").mkdir()
    shutil.copy(PROGRAMS / "Starter.java", root / "template")
    students = []
    for name, (file, text) in own.items():
        folder = root / "submissions" / name
        folder.mkdir(parents=True)
        (folder / file).write_text(text)
        shutil.copy(PROGRAMS / "Starter.java", folder)
        students.append((name, folder))
    return students


def test_two_renamed_copies_are_the_top_pair_and_starter_code_is_left_out(tmp_path: Path) -> None:
    students = course(tmp_path)
    kept, _ = rank(students)
    assert (kept[0].left, kept[0].right) == ("ada", "alan")
    assert kept[0].similarity > 0.9
    # Without --template the starter file every student kept makes every pair share code.
    assert len(kept) == 6 and all(pair.similarity > 0.3 for pair in kept)
    pairs, _ = rank(students, tmp_path / "template")
    assert [(pair.left, pair.right) for pair in pairs] == [("ada", "alan")]
    assert [(s.left, s.right) for s in pairs[0].shared] == [("Nimsys.java", "Game.java")]
    assert pairs[0].left_share > 0.9 and pairs[0].right_share > 0.9


def test_earlier_years_are_compared_with_this_years_only(tmp_path: Path) -> None:
    students = course(tmp_path)
    archive = tmp_path / "2018"
    for name in ("old-grace", "old-grace-again"):
        (archive / name).mkdir(parents=True)
        shutil.copy(PROGRAMS / "Rankings.java", archive / name / "Main.java")
    pairs, _ = rank(students, tmp_path / "template", folders_in(archive))
    # All at 100 % (the renamed copy too: names are one token to the comparison), so in name
    # order; the two archived ones, identical to each other, are not a pair.
    assert [(pair.left, pair.right) for pair in pairs] == [
        ("ada", "alan"),
        ("grace", "archive/old-grace"),
        ("grace", "archive/old-grace-again"),
    ]
    assert [pair.similarity for pair in pairs] == [pytest.approx(1)] * 3


def test_the_ranked_list_and_side_by_side_pages(tmp_path: Path) -> None:
    students = course(tmp_path)
    pairs = write_similarity(tmp_path / "out", students)
    rows = list(csv.reader((tmp_path / "out" / "similarity.csv").open()))
    assert rows[0] == ["rank", "student", "other", "share", "other_share", "similarity", "page"]
    assert rows[1][:3] == ["1", "ada", "alan"] and rows[1][6] == "similarity/pair-1.html"
    assert len(rows) == 1 + len(pairs) == 7
    index = (tmp_path / "out" / "similarity" / "index.html").read_text()
    assert '<a href="pair-1.html">' in index
    page = (tmp_path / "out" / "similarity" / "pair-1.html").read_text()
    assert "Nimsys.java ↔ Game.java" in page
    assert "<mark>" in page and "bestTake" in page and "winningMove" in page
    assert "&lt;String&gt;" in page and "<String>" not in page  # the code is escaped
    pages = sorted(p.name for p in (tmp_path / "out" / "similarity").glob("pair-*.html"))
    shown = sum(pair.similarity >= SHOWN_AT for pair in pairs)
    assert len(pages) == shown


def test_casino_grade_similarity_links_it_from_the_summary(tmp_path: Path) -> None:
    write_course(tmp_path, {})  # the transcripts
    course(tmp_path)
    last_year = tmp_path / "2018.zip"  # read as SUBMISSIONS are: a zip of folders here
    with zipfile.ZipFile(last_year, "w") as archive:
        archive.write(PROGRAMS / "Rankings.java", "old-grace/Main.java")
    argv = ["grade", str(tmp_path / "submissions"), "--jobs=1"]
    argv += ["--transcripts", str(tmp_path / "transcripts"), "--run", RUN, *UNSANDBOXED]
    argv += ["--out", str(tmp_path / "grades"), "--similarity"]
    argv += ["--template", str(tmp_path / "template"), "--archive", str(last_year)]
    # (no --build: javac is not the point here; in this process: the command line's parsing
    # and the summary's links are, not the program's start)
    err = io.StringIO()
    assert cli.main(argv, stdout=io.StringIO(), stderr=err) == 0, err.getvalue()
    out = tmp_path / "grades"
    summary = (out / "summary.html").read_text()
    assert '<a href="similarity/index.html">every pair, ranked</a> (2 pairs sharing' in summary
    assert '<a href="similarity/pair-1.html">ada and alan: ' in summary
    assert '<a href="similarity/pair-2.html">grace and archive/old-grace: ' in summary
    assert (out / "similarity" / "pair-1.html").is_file()


def test_template_without_similarity_or_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    write_course(tmp_path, {"correct": 1})
    done = grade(tmp_path, tmp_path / "submissions", "--template", str(tmp_path))
    assert (done.returncode, done.stderr) == (
        2,
        "casino grade: --template goes with --similarity (see casino grade --help)\n",
    )
    done = grade(tmp_path, tmp_path / "submissions", "--similarity", "--archive", "nowhere")
    assert (done.returncode, done.stderr) == (
        2,
        "casino grade: --archive: no such folder or file: nowhere (see casino grade --help)\n",
    )


def test_the_same_course_gives_the_same_list_whatever_the_hash_seed(tmp_path: Path) -> None:
    students = course(tmp_path)
    write_similarity(tmp_path / "here", students)  # under this process's hash seed
    script = (
        "import sys; from pathlib import Path; from casino.grade.similarity import "
        "write_similarity as w; root = Path(sys.argv[1]); "
        "w(root / 'there', [(p.name, p) for p in sorted((root / 'submissions').iterdir())])"
    )
    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED=seed)
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=env, check=True)
    here, there = ((tmp_path / w / "similarity.csv").read_text() for w in ("here", "there"))
    assert here == there and here.count("\n") == 7


def test_a_submission_1100_folders_deep_is_compared_and_the_course_gets_its_gradebook(
    tmp_path: Path,
) -> None:
    """No recursion on depth: the deep copy is found at the bottom, and ``casino grade
    --similarity`` ends with its gradebook (it was ``RecursionError``, rc 70)."""
    write_course(tmp_path, {})
    course(tmp_path)
    deep = tmp_path / "submissions" / "deep"
    deep.mkdir()
    bottom = deep.joinpath(*["d"] * 1100)
    make_folders(deep, bottom)
    (bottom / "Nimsys.java").write_text((PROGRAMS / "Original.java").read_text())
    (deep / "run.sh").write_text("exec true\n")
    argv = ["grade", str(tmp_path / "submissions"), "--jobs=1", "--similarity"]
    argv += ["--transcripts", str(tmp_path / "transcripts"), "--run", RUN, *UNSANDBOXED]
    argv += ["--out", str(tmp_path / "grades")]
    err = io.StringIO()
    assert cli.main(argv, stdout=io.StringIO(), stderr=err) == 0, err.getvalue()
    assert (tmp_path / "grades" / "gradebook.csv").is_file()
    rows = list(csv.reader((tmp_path / "grades" / "similarity.csv").open()))
    deep_name = "d/" * 1100 + "Nimsys.java"
    assert any({row[1], row[2]} == {"ada", "deep"} for row in rows[1:])
    assert deep_name in {path for path, _ in source_files(deep)}
    summary = (tmp_path / "grades" / "summary.html").read_text()
    assert re.search(r"Compared in \d+\.\d CPU s, peak \d+ MiB \(limits: 600 CPU s", summary)
    remove_tree(deep)  # pytest's own clean-up of old temporary folders recurses on depth


def test_the_caps_on_files_and_bytes_per_submission(tmp_path: Path) -> None:
    many = tmp_path / "many"
    many.mkdir()
    for number in range(MAX_SOURCE_FILES + 5):
        (many / f"f{number:04d}.py").write_text(f"x = {number}\n")
    skipped: list[str] = []
    kept = [path for path, _ in source_files(many, skipped)]
    assert kept == [f"f{n:04d}.py" for n in range(MAX_SOURCE_FILES)]
    assert skipped == [f"f{n:04d}.py" for n in range(MAX_SOURCE_FILES, MAX_SOURCE_FILES + 5)]
    big = tmp_path / "big"
    big.mkdir()
    for name in ("a.py", "b.py", "c.py"):
        (big / name).write_text("y" * (MAX_FILE_BYTES + 10))
    skipped = []
    texts = dict(source_files(big, skipped))
    assert [len(text) for text in texts.values()] == [MAX_FILE_BYTES, MAX_FILE_BYTES]
    assert sum(map(len, texts.values())) == MAX_SOURCE_BYTES and skipped == ["c.py"]


def test_a_walk_looks_at_no_more_than_its_share_of_entries(tmp_path: Path) -> None:
    flood = tmp_path / "flood"
    flood.mkdir()
    for number in range(MAX_WALKED + 3):
        (flood / f"{number:05d}.txt").touch()
    (flood / "zz.py").write_text("print(1)\n")
    assert list(source_paths(flood)) == []  # the source file is past the first 10,000


def test_only_graded_submissions_are_compared(tmp_path: Path) -> None:
    """A submission the intake refused (over its file cap) is not graded: not compared."""
    write_course(tmp_path, {})
    course(tmp_path)
    huge = tmp_path / "submissions" / "aaa-huge"
    huge.mkdir()
    (huge / "Nimsys.java").write_text((PROGRAMS / "Original.java").read_text())
    for number in range(MAX_SUBMISSION_FILES + 3):
        (huge / f"{number}.txt").touch()
    argv = ["grade", str(tmp_path / "submissions"), "--jobs=1", "--similarity"]
    argv += ["--transcripts", str(tmp_path / "transcripts"), "--run", RUN, *UNSANDBOXED]
    argv += ["--out", str(tmp_path / "grades")]
    err = io.StringIO()
    assert cli.main(argv, stdout=io.StringIO(), stderr=err) == 0, err.getvalue()
    book = (tmp_path / "grades" / "gradebook.csv").read_text()
    assert "aaa-huge" in book
    rows = list(csv.reader((tmp_path / "grades" / "similarity.csv").open()))
    assert rows[1][1:3] == ["ada", "alan"]
    assert all("aaa-huge" not in row for row in rows)


def test_a_comparison_past_its_limits_is_stopped_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its worker stopped (here: no time at all), the pages say so, no pair, no traceback."""
    monkeypatch.setattr(similarity, "WALL_SECONDS", 0.0)
    students = course(tmp_path)
    pairs = write_similarity(tmp_path / "out", students)
    assert pairs == [] and pairs.cost.stopped is not None
    index = (tmp_path / "out" / "similarity" / "index.html").read_text()
    assert "The comparison was stopped (it went past its CPU, memory or time limit" in index
    assert "The comparison was stopped" in summary_section(pairs)


@pytest.mark.parametrize("limit", ["CPU_SECONDS", "MEMORY_BYTES"])
def test_the_worker_is_stopped_by_its_cpu_and_memory_limits(tmp_path: Path, limit: str) -> None:
    """1 CPU s for three submissions of 512 KiB of code (two took 3.6 CPU s here, one alone 1.5
    s, too close to the limit to be sure), or 1 MiB of data: the
    worker is stopped, the grader is not. The grader is a fresh Python here: a worker forked
    from a process that has freed much memory (pytest, late in a run) may compare within the
    heap it inherited and never ask the system for more."""
    students = course(tmp_path)
    text = (PROGRAMS / "Original.java").read_text()
    bigs = []
    for name in ("big", "bigger", "biggest"):
        big = tmp_path / "submissions" / name
        big.mkdir()
        for number in range(1, 40):
            (big / f"Copy{number}.java").write_text(renamed(text) * 8)
        bigs.append((name, big))
    value = 1 if limit == "CPU_SECONDS" else 1 << 20
    folders = [(name, str(folder)) for name, folder in [*students, *bigs]]
    script = (
        "import sys\nfrom pathlib import Path\nfrom casino.grade import similarity\n"
        f"similarity.{limit} = {value}\n"
        f"students = [(name, Path(folder)) for name, folder in {folders!r}]\n"
        "print(similarity.bounded_rank(students)[2].stopped)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "it went past its CPU, memory or time limit\n",
        "",
    )


def test_a_comparison_within_its_limits_says_what_it_cost(tmp_path: Path) -> None:
    _, _, cost = similarity.bounded_rank(course(tmp_path))
    assert cost.stopped is None and cost.cpu_seconds > 0 and cost.peak_mib > 0
    assert cost.line().startswith("Compared in ")
