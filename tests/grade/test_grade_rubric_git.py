"""Three-card stud's Part 1 from the Git intake (a listing of repositories, as GitHub
Classroom's): each clone's history is read before its ``.git`` is removed, so the ``git``
lines judge it (pushed before the due) beside the location check."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

from grade.grade_support import ROOT, UNSANDBOXED

RUBRIC = """\
lines:
  - {id: part1-pushed, points: 3, kind: git, due: "2024-03-27T23:59:00-07:00",
    text: "Part 1: pushed to GitHub before Part 1 deadline"}
  - {id: part1-location, points: 3, kind: check, exists: [Project01],
    text: "Part 1: Program is in correct location"}
  - {id: part1-play, points: 35, kind: transcripts,
    text: "Part 1: correct play: program gives correct reply messages"}
"""
TRANSCRIPT = 'name: says hi\nsteps:\n  - out: "hi\\n"\ntimeout: 5\n'


def _repository(folder: Path, project: str, when: str) -> None:
    (folder / project).mkdir(parents=True)
    (folder / project / "Main.java").write_text("class Main {}\n", encoding="utf-8")
    (folder / "run.sh").write_text("echo hi\n", encoding="utf-8")
    env = dict(
        os.environ, GIT_AUTHOR_NAME="s", GIT_AUTHOR_EMAIL="s@x", GIT_CONFIG_GLOBAL="/dev/null"
    )
    env.update(GIT_COMMITTER_NAME="s", GIT_COMMITTER_EMAIL="s@x", GIT_COMMITTER_DATE=when)
    env.update(GIT_AUTHOR_DATE=when)
    for command in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "part 1"]):
        subprocess.run(["git", "-C", str(folder), *command], check=True, env=env)


def test_part_1_is_judged_from_the_git_intake(tmp_path: Path) -> None:
    _repository(tmp_path / "repos" / "alice-mywork", "Project01", "2024-03-27T20:00:00-07:00")
    _repository(tmp_path / "repos" / "bob-mywork", "project1", "2024-03-28T09:00:00-07:00")
    listing = tmp_path / "classroom.txt"
    listing.write_text("repos/alice-mywork\nrepos/bob-mywork\n", encoding="utf-8")
    transcripts = tmp_path / "transcripts"
    transcripts.mkdir()
    (transcripts / "hi.yaml").write_text(TRANSCRIPT, encoding="utf-8")
    (transcripts / "casino.yaml").write_text(RUBRIC, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))
    argv = [sys.executable, "-m", "casino", "grade", str(listing), "--transcripts"]
    argv += [str(transcripts), "--run", "sh run.sh", "--out", str(tmp_path / "grades")]
    done = subprocess.run(
        [*argv, *UNSANDBOXED], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    with (tmp_path / "grades" / "rubric.csv").open(encoding="utf-8") as stream:
        books = {row["student"]: row for row in csv.DictReader(stream)}
    got = {
        name: (row["part1-pushed"], row["part1-location"], row["part1-play"])
        for name, row in books.items()
    }
    assert got == {"alice-mywork": ("3", "3", "35"), "bob-mywork": ("0", "0", "35")}
    bob = (tmp_path / "grades" / "marking" / "bob-mywork.html").read_text(encoding="utf-8")
    assert "failed: last commit 2024-03-28T09:00:00-07:00 (due 2024-03-27T23:59:00-07:00)" in bob
    assert "failed: missing: Project01" in bob
    assert not (tmp_path / "grades" / "marking" / "sheet.csv").read_text().splitlines()[1:]
