"""``--program`` typed as in the student's folder (``--program-dir``), run in a clean directory."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from casino.harness.runners.base import resolve_command, resolve_process
from harness.harness_support import run_cli, write_transcript

HOME = Path("/home/ada/nimsys")
THERE = {"nimsys.sh", "nimsys.py", "build", "lib", "players.dat"}


def resolved(*words: str, env: dict[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
    """``resolve_command`` with a folder holding exactly :data:`THERE`."""
    return resolve_command(words, HOME, env or {}, lambda path: path.name in THERE)


# ------------------------------------------------------------------------- resolve_command


def test_a_path_as_argv0_is_made_absolute() -> None:
    assert resolved("./nimsys", "-v") == ([f"{HOME}/nimsys", "-v"], {})
    assert resolved("bin/run") == ([f"{HOME}/bin/run"], {})
    assert resolved("/usr/bin/env", "x") == (["/usr/bin/env", "x"], {})


def test_a_bare_argv0_is_left_to_path() -> None:
    assert resolved("nimsys.sh") == (["nimsys.sh"], {})


def test_later_words_naming_a_file_there_are_made_absolute() -> None:
    assert resolved("sh", "nimsys.sh") == (["sh", f"{HOME}/nimsys.sh"], {})
    assert resolved("python3", "-u", "nimsys.py", "other.txt", "-") == (
        ["python3", "-u", f"{HOME}/nimsys.py", "other.txt", "-"],
        {},
    )


def test_options_and_empty_words_are_never_paths() -> None:
    assert resolved("sh", "-c", "", "lib") == (["sh", "-c", "", f"{HOME}/lib"], {})


def test_java_without_a_class_path_gets_the_folder() -> None:
    assert resolved("java", "Nimsys") == (["java", "Nimsys"], {"CLASSPATH": str(HOME)})
    assert resolved("/usr/lib/jvm/bin/java", "-ea", "Nimsys", "x")[1] == {"CLASSPATH": str(HOME)}


def test_java_resolves_a_relative_classpath_variable() -> None:
    env = {"CLASSPATH": "build::/opt/x.jar:lib/*"}
    expected = f"{HOME}/build:{HOME}:/opt/x.jar:{HOME}/lib/*"
    assert resolved("java", "Nimsys", env=env) == (["java", "Nimsys"], {"CLASSPATH": expected})


@pytest.mark.parametrize("option", ["-cp", "-classpath", "--class-path"])
def test_java_class_path_options_are_resolved(option: str) -> None:
    argv, env = resolved("java", option, "build:.:/opt/a.jar", "Nimsys", "-cp", "x")
    assert argv == ["java", option, f"{HOME}/build:{HOME}:/opt/a.jar", "Nimsys", "-cp", "x"]
    assert env == {}


def test_java_class_path_with_equals() -> None:
    assert resolved("java", "--class-path=build", "Nimsys") == (
        ["java", f"--class-path={HOME}/build", "Nimsys"],
        {},
    )


def test_after_the_main_class_a_cp_word_is_the_programs_argument() -> None:
    argv, env = resolved("java", "Nimsys", "-cp", "build")
    assert argv == ["java", "Nimsys", "-cp", f"{HOME}/build"]
    assert env == {"CLASSPATH": str(HOME)}


def test_other_commands_get_no_classpath() -> None:
    assert resolved("sh", "-cp", "build") == (["sh", "-cp", f"{HOME}/build"], {})


# ------------------------------------------------------------------------ a student's folder

SCRIPT = """\
#!/bin/sh
read line
echo "got $line"
ls
cat players.dat 2>/dev/null || echo "no players.dat"
"""

PYTHON = """\
import os
print("got", input())
print("\\n".join(sorted(os.listdir("."))))
print(open("players.dat").read() if os.path.exists("players.dat") else "no players.dat")
"""

TRANSCRIPT = """\
name: clean directory
program: nimsys
files:
  given.txt: "x\\n"
steps:
  - in: hi
  - out: "got hi\\ngiven.txt\\nno players.dat\\n"
exit: 0
timeout: 5
"""

COMMANDS = ["./nimsys", "sh nimsys.sh", "python3 nimsys.py", "python3 -m nimpkg"]


@pytest.fixture
def student(tmp_path: Path) -> Path:
    """A student's folder: the program four ways, and a stale ``players.dat``."""
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "nimsys.sh").write_text(SCRIPT, encoding="utf-8")
    (folder / "nimsys").write_text(SCRIPT, encoding="utf-8")
    (folder / "nimsys").chmod(0o755)
    (folder / "nimsys.py").write_text(PYTHON, encoding="utf-8")
    (folder / "nimpkg").mkdir()  # a package run as ``python3 -m nimpkg``
    (folder / "nimpkg" / "__main__.py").write_text(PYTHON, encoding="utf-8")
    (folder / "players.dat").write_text("stale,Stale,Player,9,9\n", encoding="utf-8")
    write_transcript(tmp_path / "t" / "clean.yaml", TRANSCRIPT)
    return folder


@pytest.mark.parametrize("runner", ["pipe", "pty"])
@pytest.mark.parametrize("command", COMMANDS)
def test_from_the_students_folder(
    student: Path, command: str, runner: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(student)
    result = run_cli("replay", "--runner", runner, "--program", command, "../t/clean.yaml")
    assert result.out.startswith("PASS clean directory"), result.out
    assert result.status == 0


@pytest.mark.parametrize("command", COMMANDS)
def test_from_elsewhere_with_program_dir(
    student: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = student.parent / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = run_cli(
        "replay", "--program", command, "--program-dir", "../student", "../t/clean.yaml"
    )
    assert result.out.startswith("PASS clean directory"), result.out
    assert (student / "players.dat").read_text(encoding="utf-8") == "stale,Stale,Player,9,9\n"


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_a_program_that_cannot_start_is_named_as_typed(
    student: Path, runner: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(student)
    (student / "nimsys").chmod(0o644)
    transcript = "../t/clean.yaml"
    result = run_cli("replay", "--runner", runner, "--program", "./nimsys", transcript)
    assert "  cannot start './nimsys': Permission denied\n" in result.out
    result = run_cli("replay", "--runner", runner, "--program", "./missing", transcript)
    assert "  cannot start './missing': No such file or directory\n" in result.out


HINT = " (see casino replay --help)"


def test_program_dir_must_be_a_folder_and_go_with_program(student: Path) -> None:
    transcript = student.parent / "t" / "clean.yaml"
    result = run_cli("replay", "--program", "./x", "--program-dir", student / "nope", transcript)
    assert (result.status, result.err) == (
        2,
        f"casino replay: --program-dir: no such directory: {student / 'nope'}{HINT}\n",
    )
    result = run_cli("replay", "--program-dir", student, transcript)
    assert (result.status, result.err) == (
        2,
        f"casino replay: --program-dir goes with --program CMD{HINT}\n",
    )


# ---------------------------------------------------------------------------------- record


def test_record_runs_the_command_as_typed_in_its_folder(
    student: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (student.parent / "in.txt").write_text("hi\n", encoding="utf-8")
    monkeypatch.chdir(student.parent)
    # The script prints nothing before its input: record waits out --timeout for a banner
    # first (10 s by default), which this test is not about.
    result = run_cli(
        "record",
        "--timeout",
        "3",
        "--stdin",
        "in.txt",
        "--program",
        "./nimsys",
        "--program-dir",
        "student",
        "-o",
        "rec.yaml",
        "nimsys",
    )
    assert result.status == 0, result.err
    text = (student.parent / "rec.yaml").read_text(encoding="utf-8")
    assert "  - in: hi\n  - out: |\n      got hi\n      no players.dat\nexit: 0\n" in text


def test_record_says_which_program_cannot_start(
    student: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (student / "good.sh").write_text(SCRIPT, encoding="utf-8")  # not executable
    (student / "in.txt").write_text("hi\n", encoding="utf-8")
    monkeypatch.chdir(student)
    result = run_cli("record", "--stdin", "in.txt", "--program", "./good.sh", "-o", "rel.yaml", "x")
    assert (result.status, result.err) == (
        1,
        "casino record: cannot start './good.sh': Permission denied\n",
    )
    assert not (student / "rel.yaml").exists()


# ------------------------------------------------------------------------------------ java

HELLO = """\
public class Hello {
    public static void main(String[] args) throws Exception {
        String line = new java.io.BufferedReader(new java.io.InputStreamReader(System.in))
            .readLine();
        System.out.println("got " + line + " " + new java.io.File("players.dat").exists());
    }
}
"""

JAVA_TRANSCRIPT = """\
name: java
program: nimsys
steps:
  - in: hi
  - out: "got hi false\\n"
exit: 0
timeout: 20
"""


@pytest.mark.skipif(shutil.which("javac") is None, reason="no JDK (javac) on this machine")
def test_java_with_and_without_a_class_path(student: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (student / "Hello.java").write_text(HELLO, encoding="utf-8")
    compile_to = ["javac", "-d", "build", "Hello.java"]
    subprocess.run(compile_to, cwd=student, check=True, timeout=120)
    shutil.copy(student / "build" / "Hello.class", student)  # as `javac Hello.java` puts it
    write_transcript(student.parent / "t" / "java.yaml", JAVA_TRANSCRIPT)
    monkeypatch.chdir(student)
    monkeypatch.delenv("CLASSPATH", raising=False)
    for command in ["java Hello", "java -cp build Hello"]:
        result = run_cli("replay", "--program", command, "../t/java.yaml")
        assert result.out.startswith("PASS java"), (command, result.out)
    (student / "Hello.class").unlink()
    monkeypatch.setenv("CLASSPATH", "build")
    monkeypatch.chdir(student.parent)
    result = run_cli("replay", "--program", "java Hello", "--program-dir", "student", "t/java.yaml")
    assert result.out.startswith("PASS java"), result.out


@pytest.mark.parametrize("python", ["python3", "python", "/usr/bin/python3.11", "pypy3"])
def test_python_m_imports_the_module_from_the_folder(python: str) -> None:
    """``python3 -m nimsys``: the module is a name, not a path (``lib`` is a folder there),
    found through ``PYTHONPATH`` as it would have been from the working directory; the
    program's own arguments after it are resolved as usual."""
    argv, env = resolved(python, "-u", "-m", "lib", "players.dat", env={"PYTHONPATH": "/x"})
    assert argv == [python, "-u", "-m", "lib", f"{HOME}/players.dat"]
    assert env == {"PYTHONPATH": f"{HOME}:/x"}
    assert resolved(python, "-c", "lib", "lib") == (
        [python, "-c", "lib", f"{HOME}/lib"],
        {"PYTHONPATH": str(HOME)},
    )


def test_after_a_python_script_an_m_is_the_programs_argument() -> None:
    assert resolved("python3", "nimsys.py", "-m", "lib") == (
        ["python3", f"{HOME}/nimsys.py", "-m", f"{HOME}/lib"],
        {},
    )
    assert resolved("python3", "-X", "lib", "-m", "lib") == (
        ["python3", "-X", "lib", "-m", "lib"],
        {"PYTHONPATH": str(HOME)},
    )
    assert resolved("sh", "-m", "lib") == (["sh", "-m", f"{HOME}/lib"], {})


def test_a_process_gets_the_environment_and_a_sandbox_the_folder_alone(tmp_path: Path) -> None:
    """``resolve_process``: the environment given, the command's variables over it, and what a
    sandbox must set itself: for ``python3 -m``, ``PYTHONPATH`` the folder alone (never the
    caller's entries); for anything else nothing (a sandbox keeps the run's ``CLASSPATH``)."""
    (tmp_path / "nimsys.py").touch()
    environ = {"HOME": "/home/ada", "PYTHONPATH": "/x"}
    argv, env, own = resolve_process(["python3", "-m", "nimpkg"], tmp_path, environ)
    assert argv == ["python3", "-m", "nimpkg"]
    assert env == {"HOME": "/home/ada", "PYTHONPATH": f"{tmp_path}:/x"}
    assert own == {"PYTHONPATH": str(tmp_path)}
    assert environ == {"HOME": "/home/ada", "PYTHONPATH": "/x"}  # the caller's, unchanged
    script = ["python3", f"{tmp_path}/nimsys.py"]
    assert resolve_process(["python3", "nimsys.py"], tmp_path, environ) == (script, environ, {})
    argv, env, own = resolve_process(["java", "Nimsys"], tmp_path, environ)
    assert (argv, env["CLASSPATH"], own) == (["java", "Nimsys"], str(tmp_path), {})
