"""``casino replay --update --program CMD``: bless transcripts from a reference program in any
language, its output split at its reads as ``casino record --program`` splits it."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from casino.harness import cli
from casino.harness.load import load_transcript
from casino.harness.model import In, Out

REFERENCE = """\
printf 'name? '
read name
echo "hi $name"
printf 'again? '
read other
echo "bye $other"
"""

STALE = """\
name: greets twice
steps:
  - out: "name: "
  - in: Ada
  - out: "hello Ada\\n"
  - in: Bo
  - out: "bye Bo\\n"
timeout: 5
"""


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["replay", *map(str, argv)], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def stale(tmp_path: Path) -> Path:
    (tmp_path / "ref.sh").write_text(REFERENCE)
    path = tmp_path / "t.yaml"
    path.write_text(STALE)
    return path


def test_the_output_is_blessed_and_split_at_the_reads(stale: Path) -> None:
    folder = str(stale.parent)
    status, out, _ = run(
        "--update", "--yes", "--program", "sh ref.sh", "--program-dir", folder, stale
    )
    assert (status, out) == (
        0,
        f"UPDATED greets twice ({stale})\n1 updated, 0 not updated (1 transcript)\n",
    )
    steps = load_transcript(stale).runs[0].steps
    assert steps == (
        Out("name? "),
        In("Ada"),
        Out("hi Ada\nagain? "),
        In("Bo"),
        Out("bye Bo\n"),
    )
    replayed = run("--program", "sh ref.sh", "--program-dir", folder, stale)
    assert replayed[0] == 0 and replayed[1].startswith("PASS greets twice")


def test_a_blessed_transcript_is_not_rewritten_again(stale: Path) -> None:
    folder = str(stale.parent)
    run("--update", "--yes", "--program", "sh ref.sh", "--program-dir", folder, stale)
    before = stale.stat().st_mtime_ns
    status, out, _ = run(
        "--update", "--yes", "--program", "sh ref.sh", "--program-dir", folder, stale
    )
    assert status == 0 and out.startswith("PASS greets twice")
    assert stale.stat().st_mtime_ns == before


def test_chained_runs_share_their_directory(tmp_path: Path) -> None:
    (tmp_path / "ref.sh").write_text(
        'if [ "$1" = save ]; then echo 7 > state; echo saved; else echo "got $(cat state)"; fi\n'
    )
    path = tmp_path / "t.yaml"
    path.write_text(
        "name: chain\nruns:\n  - args: [save]\n    steps:\n      - out: x\n"
        "  - args: [load]\n    steps:\n      - out: y\n"
    )
    status, _, _ = run(
        "--update", "--yes", "--program", "sh ref.sh", "--program-dir", tmp_path, path
    )
    assert status == 0
    runs = load_transcript(path).runs
    assert [run.steps for run in runs] == [(Out("saved\n"),), (Out("got 7\n"),)]


def test_a_pipe_cannot_split_so_it_is_refused_there_only(stale: Path) -> None:
    folder = str(stale.parent)
    status, out, _ = run(
        "--update",
        "--yes",
        "--runner",
        "pipe",
        "--program",
        "sh ref.sh",
        "--program-dir",
        folder,
        stale,
    )
    assert status == 1
    assert "  not updated: a pipe cannot tell where the program reads its input" in out
    assert stale.read_text() == STALE
    simple = stale.parent / "simple.yaml"
    simple.write_text("name: says\nsteps:\n  - out: old\n")
    (stale.parent / "says.sh").write_text("echo new\n")
    status, out, _ = run(
        "--update",
        "--yes",
        "--runner",
        "pipe",
        "--program",
        "sh says.sh",
        "--program-dir",
        folder,
        simple,
    )
    assert status == 0 and out.startswith("UPDATED says")
    assert load_transcript(simple).runs[0].steps == (Out("new\n"),)


def test_a_program_that_cannot_start_changes_nothing(stale: Path) -> None:
    status, out, _ = run(
        "--update", "--yes", "--program", "./missing", "--program-dir", stale.parent, stale
    )
    assert status == 1
    assert "  not updated: cannot start './missing': No such file or directory\n" in out
    assert stale.read_text() == STALE


def test_reference_transcripts_are_skipped(stale: Path) -> None:
    stale.write_text(
        STALE.replace("timeout: 5\n", "timeout: 5\nprogram: demo\nreference: casino\n")
    )
    status, out, _ = run(
        "--update", "--yes", "--program", "sh ref.sh", "--program-dir", stale.parent, stale
    )
    assert status == 0
    assert out.startswith("SKIP greets twice")


JAVA = """\
import java.util.Scanner;

public class Ref {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("name? ");
        System.out.flush();
        System.out.println("hi " + in.nextLine());
        System.out.print("again? ");
        System.out.flush();
        System.out.println("bye " + in.nextLine());
    }
}
"""


@pytest.mark.skipif(shutil.which("javac") is None, reason="no javac")
def test_a_java_reference_program(stale: Path) -> None:
    import subprocess

    (stale.parent / "Ref.java").write_text(JAVA)
    subprocess.run(["javac", "Ref.java"], cwd=stale.parent, check=True, timeout=120)
    status, _, _ = run(
        "--update", "--yes", "--program", "java Ref", "--program-dir", stale.parent, stale
    )
    assert status == 0
    assert load_transcript(stale).runs[0].steps[2] == Out("hi Ada\nagain? ")


class Terminal(io.StringIO):
    """Typed answers on what looks like a terminal."""

    def isatty(self) -> bool:
        return True


def asked(stale: Path, answer: str) -> tuple[int, str, str]:
    """``--update --program`` without ``--yes``, ``answer`` typed at its question."""
    out, err = io.StringIO(), io.StringIO()
    argv = ["replay", "--update", "--program", "sh ref.sh", "--program-dir", str(stale.parent)]
    status = cli.main([*argv, str(stale)], stdin=Terminal(answer), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


QUESTION = "casino replay: --update rewrites 1 transcript ({}) with what 'sh ref.sh' prints."


def test_without_yes_and_no_terminal_to_ask_nothing_is_rewritten(stale: Path) -> None:
    folder = str(stale.parent)
    status, out, err = run("--update", "--program", "sh ref.sh", "--program-dir", folder, stale)
    assert (status, out) == (2, "")
    assert err == (
        f"casino replay: --update would rewrite 1 transcript ({stale}) with what 'sh ref.sh' "
        "prints: add --yes to do so (see casino replay --help)\n"
    )
    assert stale.read_text() == STALE


def test_the_question_says_what_is_rewritten_and_no_keeps_it(stale: Path) -> None:
    status, out, err = asked(stale, "n\n")
    assert (status, out) == (1, "")
    assert err == QUESTION.format(stale) + " Rewrite them? [y/N] casino replay: nothing rewritten\n"
    assert stale.read_text() == STALE


def test_yes_at_the_question_rewrites(stale: Path) -> None:
    status, out, err = asked(stale, "y\n")
    assert (status, err) == (0, QUESTION.format(stale) + " Rewrite them? [y/N] ")
    assert out.startswith("UPDATED greets twice")
    assert load_transcript(stale).runs[0].steps[2] == Out("hi Ada\nagain? ")


@pytest.mark.parametrize(
    ("program", "own"),
    [
        (None, True),
        ("casino nimsys", True),
        ("/usr/bin/python3 -P -m casino.nimsys", True),
        ("python3 -m casino nimsys --seed 4", True),
        ("./mine", False),
        ("python3 nimsys.py", False),
        ("python3 -m mycasino", False),
        ("java Nimsys", False),
    ],
)
def test_only_casinos_own_program_rewrites_without_asking(program: str | None, own: bool) -> None:
    assert cli._casinos_own(cli._command(program)) == own
