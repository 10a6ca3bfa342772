"""``casino replay`` and ``casino record`` end to end (in-process CLI calls)."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from casino.__main__ import main as casino_main
from casino.programs import PROGRAMS
from harness.harness_support import ROOT, run_cli, sh_program, write_transcript

DEMO = ROOT / "transcripts" / "demo"
GREETING = "casino demo calculator (type help)\\n$ "

FAILING = f"""\
name: fails on purpose
program: demo
steps:
  - out: "{GREETING}"
  - in: add 2 2
  - out: "2 + 2 = 5\\n$ bye\\n"
points: 2
"""

MALFORMED = """\
name: malformed
program: demo
steps:
  - out: "x"
  - in: y
  - out: [3]
"""


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A directory of passing, failing and malformed transcripts."""
    for source in sorted(DEMO.glob("*.yaml")):
        (tmp_path / "t" / "demo").mkdir(parents=True, exist_ok=True)
        (tmp_path / "t" / "demo" / source.name).write_bytes(source.read_bytes())
    (tmp_path / "fixtures" / "demo").mkdir(parents=True)
    for fixture in (ROOT / "fixtures" / "demo").iterdir():
        (tmp_path / "fixtures" / "demo" / fixture.name).write_bytes(fixture.read_bytes())
    write_transcript(tmp_path / "t" / "bad" / "fails.yaml", FAILING)
    write_transcript(tmp_path / "t" / "bad" / "malformed.yaml", MALFORMED)
    return tmp_path / "t"


def test_replay_reports_one_line_per_transcript_and_exits_1_on_failure(mixed: Path) -> None:
    result = run_cli("replay", mixed)
    lines = result.out.splitlines()
    assert result.status == 1
    assert lines[0] == f"FAIL fails on purpose ({mixed}/bad/fails.yaml)"
    problem = "line 6, column 5: step 3: 'out' must be a string"
    assert f"ERROR {mixed}/bad/malformed.yaml: {problem}" in lines
    assert sum(line.startswith("PASS ") for line in lines) == len(list(DEMO.glob("*.yaml")))
    passed = len(list(DEMO.glob("*.yaml")))
    assert lines[-1] == f"{passed} passed, 1 failed, 1 error ({passed + 2} transcripts)"


def test_jobs_give_the_same_verdicts_and_output_in_the_same_order(mixed: Path) -> None:
    one = run_cli("replay", "--score", mixed)
    two = run_cli("replay", "--score", "--jobs", "2", mixed)
    assert (two.status, two.out) == (one.status, one.out)


def test_score_prints_points_per_transcript_and_a_total(mixed: Path) -> None:
    lines = run_cli("replay", "--score", mixed).out.splitlines()
    assert lines[0] == f"FAIL [0/2] fails on purpose ({mixed}/bad/fails.yaml)"
    assert any(line.startswith("PASS [1/1] demo: ") for line in lines)
    passed = len(list(DEMO.glob("*.yaml")))
    assert lines[-1] == f"score: {passed}/{passed + 3}"


def test_junit_report_parses_as_xml(mixed: Path, tmp_path: Path) -> None:
    report = tmp_path / "out" / "report.xml"
    report.parent.mkdir()
    result = run_cli("replay", "--report", "junit", "--report-file", report, mixed)
    assert result.out.splitlines()[-1] == f"junit report: {report}"
    suite = ET.fromstring(report.read_text(encoding="utf-8")).find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == (
        str(len(list(DEMO.glob("*.yaml"))) + 2),
        "1",
        "1",
    )
    failure = suite.find("testcase/failure")
    assert failure is not None and failure.text is not None
    assert failure.get("message") == "output differs at step 3 (out), line 2, column 11:"
    assert "expected: $·2·+·2·=·5⏎" in failure.text


def test_gradescope_results_have_the_right_shape_and_scores(mixed: Path, tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    run_cli("replay", "--report", "gradescope", "--report-file", target, mixed)
    data = json.loads(target.read_text(encoding="utf-8"))
    assert set(data) == {"score", "tests"}
    passed = len(list(DEMO.glob("*.yaml")))
    assert data["score"] == passed
    assert all(set(t) == {"name", "score", "max_score", "output", "status"} for t in data["tests"])
    first = data["tests"][0]
    assert (first["score"], first["max_score"], first["status"]) == (0, 2, "failed")
    assert first["name"] == f"fails on purpose ({mixed}/bad/fails.yaml)"
    assert "output differs at step 3 (out)" in first["output"]
    assert sum(t["max_score"] for t in data["tests"]) == passed + 3


def test_json_report_counts_and_statuses(mixed: Path, tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    run_cli("replay", "--report", "json", "--report-file", target, mixed)
    data = json.loads(target.read_text(encoding="utf-8"))
    assert (data["failed"], data["errors"]) == (1, 1)
    assert [t["status"] for t in data["transcripts"][:2]] == ["fail", "error"]


def test_gradescope_report_defaults_to_results_json(
    mixed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run_cli("replay", "--report", "gradescope", mixed / "demo" / "basics.yaml")
    assert json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["score"] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["replay"], "casino replay: the following arguments are required: PATH"),
        (["replay", "nowhere"], "casino replay: no such file or directory: nowhere"),
        (
            ["replay", "--update", "--jobs", "2", "x"],
            "casino replay: --update rewrites files: it runs with --jobs 1 only",
        ),
        (
            ["replay", "--update", "--program", "sh x", "--runner", "inproc", "x"],
            "casino replay: the inproc runner runs casino's own programs: use pipe or pty",
        ),
        (
            ["replay", "--update", "--runner", "pty", "x"],
            "casino replay: --update needs the inproc runner (it splits output at reads)",
        ),
        (
            ["replay", "--program", "sh x", "--runner", "inproc", "x"],
            "casino replay: the inproc runner runs casino's own programs: use pipe or pty",
        ),
        (
            ["replay", "--report-file", "f", "x"],
            "casino replay: --report-file goes with --report json|junit|gradescope|classroom",
        ),
        (
            ["replay", "--jobs", "0", "x"],
            "casino replay: argument --jobs: not a whole number of at least 1: '0'",
        ),
        (
            ["replay", "--program", "'unclosed", "x"],
            "casino replay: --program: No closing quotation",
        ),
        (
            ["replay", "--runner", "tty", "x"],
            "casino replay: argument --runner: invalid choice: 'tty' "
            "(choose from 'inproc', 'pipe', 'pty')",
        ),
        (["frobnicate"], "casino: expected one of replay, record, got 'frobnicate'"),
        (
            ["record", "-o", "x.yaml", "blackjack"],
            "casino record: unknown program 'blackjack' "
            f"(casino has: {', '.join(sorted(PROGRAMS))}; or use --program CMD)",
        ),
        (["record", "demo"], "casino record: the following arguments are required: -o/--output"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(argv: list[str], message: str) -> None:
    result = run_cli(*argv)
    hint = f" (see {message.partition(':')[0]} --help)"  # the command the user typed
    assert (result.status, result.err, result.out) == (2, message + hint + "\n", "")


def test_an_empty_directory_has_no_transcripts(tmp_path: Path) -> None:
    result = run_cli("replay", tmp_path)
    assert (result.status, result.err) == (
        2,
        f"casino replay: no transcripts (*.yaml) in {tmp_path} (see casino replay --help)\n",
    )


def test_help_goes_to_stdout_and_exits_0() -> None:
    result = run_cli("replay", "--help")
    assert result.status == 0 and "CASINO_SEED=N" in result.out and result.err == ""


def test_the_casino_command_forwards_to_the_harness() -> None:
    out = io.StringIO()
    status = casino_main(["replay", str(DEMO / "basics.yaml")], stdout=out, stderr=io.StringIO())
    assert status == 0 and out.getvalue().startswith("PASS demo: help")


# ------------------------------------------------------------------ record and --update

SESSION = "table 3\necho a\tb  c \nprompt off\n\nadd 1 1\n\nprompt on\nexit 5\n"


def test_record_replay_update_leaves_the_yaml_byte_for_byte(tmp_path: Path) -> None:
    """Trailing spaces, tabs, a bare prompt and empty chunks survive record → replay → update."""
    session = tmp_path / "session.txt"
    session.write_text(SESSION, encoding="utf-8")
    out = tmp_path / "t" / "quiet.yaml"
    recorded = run_cli("record", "--stdin", session, "--name", "quiet", "-o", out, "demo")
    assert (recorded.status, recorded.err) == (0, f"casino record: wrote {out} (17 steps)\n")
    original = out.read_bytes()
    text = original.decode()
    assert '  - out: "×   1   2   3   \\n1   1   2   3   \\n' in text
    assert '  - in: "echo a\\tb  c "' in text
    assert text.count('  - out: ""\n') == 3
    assert text.endswith('  - out: "bye\\n"\nexit: 5\n')
    for runner in ("inproc", "pipe", "pty"):
        assert run_cli("replay", "--runner", runner, out).status == 0, runner
    updated = run_cli("replay", "--update", out)
    assert updated.out.splitlines()[0] == f"PASS quiet ({out})"
    assert out.read_bytes() == original
    out.write_bytes(original.replace(b"1 + 1 = 2", b"1 + 1 = 3").replace(b"exit: 5", b"exit: 0"))
    assert run_cli("replay", out).status == 1
    again = run_cli("replay", "--update", out)
    assert again.out.splitlines() == [
        f"UPDATED quiet ({out})",
        "1 updated, 0 not updated (1 transcript)",
    ]
    assert out.read_bytes() == original


def test_update_rechunks_at_reads_and_keeps_out_re_and_comments_when_unchanged(
    tmp_path: Path,
) -> None:
    moved = write_transcript(
        tmp_path / "moved.yaml",
        'name: moved\nprogram: demo\nsteps:\n  - out: "casino demo calculator (type help)\\n"\n'
        '  - in: roll 1\n  - out: "$ a die needs at least 2 sides\\n$ bye\\n"\n',
    )
    pattern = write_transcript(
        tmp_path / "pattern.yaml",
        f'# hand-written\nname: pattern\nprogram: demo\nsteps:\n  - out: "{GREETING}"\n'
        '  - in: roll\n  - out_re: "rolled [1-6]\\n"\n  - out: "$ "\n'
        "  - in: add 1 1\n  - out: wrong\n",
    )
    result = run_cli("replay", "--update", tmp_path)
    assert result.out.splitlines() == [
        f"UPDATED moved ({tmp_path}/moved.yaml)",
        f"UPDATED pattern ({tmp_path}/pattern.yaml)",
        "2 updated, 0 not updated (2 transcripts)",
    ]
    assert moved.read_text(encoding="utf-8").endswith(
        f'  - out: "{GREETING}"\n  - in: roll 1\n'
        "  - out: |\n      a die needs at least 2 sides\n      $ bye\n"
    )
    assert pattern.read_text(encoding="utf-8").endswith(
        '  - out_re: "rolled [1-6]\\n"\n  - out: "$ "\n  - in: add 1 1\n'
        "  - out: |\n      1 + 1 = 2\n      $ bye\n"
    )
    before = pattern.read_bytes()
    assert run_cli("replay", "--update", pattern).status == 0
    assert pattern.read_bytes() == before


def test_update_refuses_what_it_cannot_bless_and_leaves_the_file(tmp_path: Path) -> None:
    bad_pattern = write_transcript(
        tmp_path / "a.yaml",
        f'name: a\nprogram: demo\nsteps:\n  - out: "{GREETING}"\n  - in: roll\n  - out_re: "six"\n',
    )
    early_exit = write_transcript(
        tmp_path / "b.yaml",
        f'name: b\nprogram: demo\nsteps:\n  - out: "{GREETING}"\n'
        "  - in: exit\n  - in: add 1 1\n  - out: x\n",
    )
    before = bad_pattern.read_bytes(), early_exit.read_bytes()
    result = run_cli("replay", "--update", tmp_path)
    assert result.status == 1
    assert (
        "  not updated: an out_re step no longer matches what the program prints there; "
        "fix it by hand" in result.out
    )
    assert (
        "  not updated: the program read 1 of the 2 input lines; "
        "update never changes the input: fix the 'in' steps by hand" in result.out
    )
    assert (bad_pattern.read_bytes(), early_exit.read_bytes()) == before


def test_record_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "x.yaml"
    out.write_text("keep me", encoding="utf-8")
    result = run_cli("record", "--stdin", "/dev/null", "-o", out, "demo")
    assert (result.status, result.err) == (
        2,
        f"casino record: {out} exists (use --force to replace it) (see casino record --help)\n",
    )
    assert out.read_text(encoding="utf-8") == "keep me"
    assert run_cli("record", "--force", "--stdin", "/dev/null", "-o", out, "demo").status == 0


def test_live_recording_shows_the_session_and_records_what_was_typed(tmp_path: Path) -> None:
    live = tmp_path / "live.yaml"
    fed = tmp_path / "fed.yaml"
    typed = "add 2 3\nwarn hm\n"
    result = run_cli("record", "--name", "s", "-o", live, "demo", stdin=typed)
    assert result.out == "casino demo calculator (type help)\n$ 2 + 3 = 5\n$ $ bye\n"
    (tmp_path / "in.txt").write_text(typed, encoding="utf-8")
    run_cli("record", "--name", "s", "--stdin", tmp_path / "in.txt", "-o", fed, "demo")
    assert live.read_bytes() == fed.read_bytes()
    assert b'stderr: "warning: hm\\n"' in live.read_bytes()


def test_record_with_seed_and_fixture(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "mem.dat").write_text("5\n", encoding="utf-8")
    (tmp_path / "in.txt").write_text("recall\nroll\n", encoding="utf-8")
    out = tmp_path / "t" / "x.yaml"
    out.parent.mkdir()
    run_cli(
        "record",
        "--seed",
        "7",
        "--fixture",
        f"demo.dat={tmp_path / 'data' / 'mem.dat'}",
        "--stdin",
        tmp_path / "in.txt",
        "-o",
        out,
        "demo",
    )
    text = out.read_text(encoding="utf-8")
    assert "seed: 7\nfiles:\n  demo.dat:\n    fixture: ../data/mem.dat\n" in text
    assert '"recalled 5\\n$ "\n  - in: roll\n  - out: |\n      rolled 3\n      $ bye\n' in text
    assert run_cli("replay", out).status == 0


def test_record_an_external_program_through_a_terminal(tmp_path: Path) -> None:
    program = sh_program(
        tmp_path,
        "ask",
        "printf 'name? '\nread n\nprintf 'hi %s\\n> ' \"$n\"\nread m\necho \"[$m]\"\n",
    )
    (tmp_path / "in.txt").write_text("Bo\nx y\n", encoding="utf-8")
    out = tmp_path / "ask.yaml"
    result = run_cli(
        "record",
        "--program",
        program,
        "--settle",
        "0.2",
        "--stdin",
        tmp_path / "in.txt",
        "-o",
        out,
        "ask",
    )
    assert result.status == 0, result.err
    assert out.read_text(encoding="utf-8") == (
        "name: ask\nprogram: ask\nargs: []\nsteps:\n"
        '  - out: "name? "\n  - in: Bo\n  - out: "hi Bo\\n> "\n  - in: x y\n'
        '  - out: "[x y]\\n"\nexit: 0\n'
    )
    for runner in ("pipe", "pty"):
        assert run_cli("replay", "--program", program, "--runner", runner, out).status == 0


def test_record_reads_any_line_ending_and_keeps_other_characters(tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_bytes(b"echo a\x0cb\r\nadd 1 1\rexit")
    out = tmp_path / "x.yaml"
    assert run_cli("record", "--stdin", tmp_path / "in.txt", "-o", out, "demo").status == 0
    text = out.read_text(encoding="utf-8")
    assert '  - in: "echo a\\fb"\n' in text and "  - in: add 1 1\n  - out" in text
    assert "  - in: exit\n" in text and run_cli("replay", out).status == 0
