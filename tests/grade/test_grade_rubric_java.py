"""A video poker class on the seed's whole rubric (``transcripts/videopoker/double-bonus/
casino.yaml``): the deliverable folders (UML, TESTS, JDOC, DOCS), the jar (runs, holds its
sources) and javadoc, checked in the sandbox."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grade.grade_support import JAVAC, ROOT, UNSANDBOXED

pytestmark = pytest.mark.skipif(not JAVAC, reason="needs javac and java")

RUBRIC = ROOT / "transcripts" / "videopoker" / "double-bonus" / "casino.yaml"
MAIN = """\
/** Video poker, as far as this test needs. */
public class Main {
    /** Say ok. @param args the options */
    public static void main(String[] args) {
        System.out.println("ok " + args.length);
    }
}
"""
TRANSCRIPT = (
    'name: simulates\nargs: [-s, "10", "1", "1"]\nsteps:\n  - out: "ok 4\\n"\ntimeout: 20\n'
)
RUN = 'exec java -cp "$(dirname "$0")" Main "$@"\n'


def _student(folder: Path, *, complete: bool) -> None:
    folder.mkdir(parents=True)
    (folder / "Main.java").write_text(MAIN, encoding="utf-8")
    (folder / "run.sh").write_text(RUN, encoding="utf-8")
    subprocess.run(["javac", "-d", str(folder), str(folder / "Main.java")], check=True)
    if not complete:
        return
    for name in ("UML/classes.pdf", "JDOC/index.html", "DOCS/report.pdf"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text("x\n", encoding="utf-8")
    (folder / "TESTS").mkdir()
    for number in range(1, 6):
        (folder / "TESTS" / f"cmd-{number}.txt").write_text("$ 5\n", encoding="utf-8")
        (folder / "TESTS" / f"card-{number}.txt").write_text("AH\n", encoding="utf-8")
    jar = ["jar", "cfe", "vp.jar", "Main", "Main.class", "Main.java"]
    subprocess.run(jar, cwd=folder, check=True)


def test_the_deliverables_and_the_jar_are_checked(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    transcripts.mkdir()
    (transcripts / "simulate.yaml").write_text(TRANSCRIPT, encoding="utf-8")
    (transcripts / "casino.yaml").write_text(RUBRIC.read_text(encoding="utf-8"))
    _student(tmp_path / "submissions" / "full", complete=True)
    _student(tmp_path / "submissions" / "bare", complete=False)
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))
    argv = [sys.executable, "-m", "casino", "grade", str(tmp_path / "submissions")]
    argv += ["--transcripts", str(transcripts), "--run", "sh run.sh", *UNSANDBOXED]
    argv += ["--out", str(tmp_path / "grades")]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    grades = tmp_path / "grades"
    auto = json.loads((grades / "rubric.json").read_text(encoding="utf-8"))["auto"]
    assert auto["full"] == {
        "features": 1.5,
        "jar": 0.5,
        "deliverables": 0.0,
        "tests-folder": 0.0,
        "javadoc": 0.0,
    }
    assert auto["bare"]["jar"] == 0.0 and auto["bare"]["features"] == 1.5
    full = (grades / "marking" / "full.html").read_text(encoding="utf-8")
    bare = (grades / "marking" / "bare.html").read_text(encoding="utf-8")
    assert "passed: found: UML, TESTS, JDOC/index.html, DOCS, *.jar" in full
    assert "failed: missing: UML, TESTS, JDOC/index.html, DOCS, *.jar" in bare
    assert full.count("passed: `") == 3  # the jar, TESTS' ten files, javadoc
    assert bare.count("failed: `") == 2 and bare.count("passed: `") == 1  # javadoc builds
    assert "UML/classes.pdf" in full and "none found" in bare  # the UML line's evidence
    sheet = (grades / "marking" / "sheet.csv").read_text(encoding="utf-8").splitlines()
    assert sheet[1] == "bare,uml,1.5,0 / 0.4 / 0.8 / 1.2 / 1.5,,,"
    assert (
        (grades / "rubric.csv")
        .read_text()
        .splitlines()[0]
        .endswith("max,penalty,final,percent,unmarked")
    )
    assert ",7,0," in (grades / "rubric.csv").read_text()  # the bonus is not in the maximum
