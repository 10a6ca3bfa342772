"""A student's Java program, graded from its own folder as a course would: compiled with
``javac`` here, replayed with ``--program "java Greeter"`` under pipe and pty, its crash shown
with the Java stack trace (class paths and ``--program-dir``: test_harness_program_dir.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from harness.harness_support import run_cli, write_transcript

needs_jdk = pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("java") is None,
    reason="no JDK here (javac and java); .ci/run installs one",
)

SOURCE = """\
import java.util.Scanner;

public class Greeter {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("Welcome\\n\\n$");
        while (in.hasNextLine()) {
            String[] words = in.nextLine().split(" ");
            if (words[0].equals("exit")) { System.out.println(); return; }
            if (words[0].equals("addplayer")) { addplayer(words[1].split(",")); }
            System.out.print("\\n$");
        }
    }

    static void addplayer(String[] fields) {
        System.out.print(fields[2] + " " + fields[1]);
    }
}
"""

GOOD = """\
name: addplayer with three fields
program: nimsys
steps:
  - out: "Welcome\\n\\n$"
  - in: addplayer lsky,Skywalker,Luke
  - out: "Luke Skywalker\\n$"
  - in: exit
  - out: "\\n"
exit: 0
timeout: 20
"""

CRASH = GOOD.replace("with three fields", "with two fields").replace(
    "lsky,Skywalker,Luke", "lsky,Skywalker"
)


@pytest.fixture(scope="module")
def student(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A student's folder: the source, compiled in place, and a stale
    players.dat that must not reach any run."""
    folder = tmp_path_factory.mktemp("student")
    (folder / "Greeter.java").write_text(SOURCE, encoding="utf-8")
    subprocess.run(["javac", "Greeter.java"], cwd=folder, check=True, timeout=120)
    (folder / "players.dat").write_text("stale\n", encoding="utf-8")
    return folder


@pytest.fixture
def transcripts(tmp_path: Path) -> Path:
    write_transcript(tmp_path / "t" / "good.yaml", GOOD)
    write_transcript(tmp_path / "t" / "crash.yaml", CRASH)
    return tmp_path / "t"


@needs_jdk
@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_java_program_graded_from_its_folder(
    student: Path, transcripts: Path, runner: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(student)
    result = run_cli("replay", "--runner", runner, "--program", "java Greeter", transcripts)
    lines = result.out.splitlines()
    assert f"PASS addplayer with three fields ({transcripts}/good.yaml)" in lines
    assert f"FAIL addplayer with two fields ({transcripts}/crash.yaml)" in lines
    assert "  exit status 1, expected 0" in lines
    assert "  stderr (not compared):" in lines
    trace = "\n".join(lines[lines.index("  stderr (not compared):") :])
    assert "java.lang.ArrayIndexOutOfBoundsException" in trace
    assert "at Greeter.addplayer(Greeter.java:16)" in trace
    assert lines[-1] == "1 passed, 1 failed (2 transcripts)"
