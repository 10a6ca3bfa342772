"""Hostile transcripts: every malformed one is one line saying where, and nothing else breaks.

Issue 10, item 5 (and the ``--fixture`` half of item 4, item 8's ``--jobs`` and unreadable
directories): deep nesting, alias bombs, tags, odd keys, control characters, numbers out of
range, fixtures that are devices or FIFOs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

import pytest

import casino.pool
from casino.harness import cli, session
from casino.harness.load import MAX_TRANSCRIPT_BYTES, load_transcript
from casino.harness.model import Out, TranscriptError
from casino.harness.parse import file_name_problem, parse_transcript
from casino.harness.record import RecordError, Recording, record
from casino.harness.session import Options, TranscriptResult, check_path
from casino.harness.yamltext import MAX_DEPTH, load_text
from harness.harness_support import ROOT, run_cli, write_transcript

HEAD = "name: x\nprogram: demo\n"
GOOD = ROOT / "transcripts" / "demo" / "basics.yaml"


def problem_of(text: str) -> str:
    """The one-line error for ``text`` as transcript ``t.yaml``, without the file name."""
    with pytest.raises(TranscriptError) as raised:
        parse_transcript(text, Path("t.yaml"))
    message = str(raised.value)
    assert "\n" not in message
    return message.removeprefix("t.yaml: ")


def alias_bomb() -> str:
    """One 100 KB ``out`` aliased 20,000 times: about 240 KB that PyYAML grew past 7 GB."""
    aliases = "".join("  - out: *big\n" for _ in range(20_000))
    return f"{HEAD}steps:\n  - out: &big {'x' * 100_000}\n{aliases}"


NONE = "a transcript has none"
NOT_TEXT = "a mapping key must be text, not a list or mapping"
CONTROL = "must not hold a control character"
OUTSIDE = "must be a relative path inside the working directory"
EXIT = "'exit' must be a whole number from 0 to 255"
TIMEOUT = "'timeout' must be a number from 0.001 to 3600"
POINTS = "'points' must be a number from 0 to 1000000"
SEED = "'seed' must be a whole number from -999999999999999999 to 999999999999999999"


def not_yaml(code: int) -> str:
    """The refusal of a raw control character."""
    escape = f"\\x{code:02x}"
    return f"character U+{code:04X} is not allowed in YAML (write it as {escape} in double quotes)"


def steps_and(line: str) -> str:
    """A transcript whose fourth line is ``line``."""
    return f"{HEAD}steps: []\n{line}\n"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[" * 25_000, f"line 1, column {MAX_DEPTH + 1}: nested more than {MAX_DEPTH} deep"),
        ("{a: " * 25_000, f"line 1, column {4 * MAX_DEPTH + 1}: nested more than 16 deep"),
        (alias_bomb(), "line 4, column 10: an anchor (&big): a transcript has none"),
        (f"{HEAD}steps: *a\n", f"line 3, column 8: an alias (*a): {NONE}"),
        (steps_and("seed: !!int 3"), f"line 4, column 7: a tag (!!int): {NONE}"),
        (f"{HEAD}steps: [out: !!timestamp x]\n", f"line 3, column 14: a tag (!!timestamp): {NONE}"),
        (steps_and("timeout: !!float abc"), f"line 4, column 10: a tag (!!float): {NONE}"),
        (steps_and("exit: !!bool maybe"), f"line 4, column 7: a tag (!!bool): {NONE}"),
        (f"{HEAD}steps: !custom []\n", f"line 3, column 8: a tag (!custom): {NONE}"),
        (steps_and("[a]: b"), f"line 4, column 1: {NOT_TEXT}"),
        (f"{HEAD}steps:\n  - ? {{a: b}}\n    : c\n", f"line 4, column 7: {NOT_TEXT}"),
        (steps_and("name: y"), "line 4, column 1: key 'name' appears twice in this mapping"),
        (steps_and("---"), "line 4, column 1: a second document: a transcript is one document"),
        (f"{HEAD}steps:\n  - out: a\x00b\n", f"line 4, column 11: {not_yaml(0)}"),
        (f"{HEAD}steps:\n  - out: \x1b[1mbold\n", f"line 4, column 10: {not_yaml(27)}"),
        (
            f'{HEAD}files:\n  "a\\0b": x\nsteps: []\n',
            f"line 4, column 3: files: 'a\\x00b' {CONTROL}",
        ),
        (
            f'{HEAD}files:\n  "a\\eb": x\nsteps: []\n',
            f"line 4, column 3: files: 'a\\x1bb' {CONTROL}",
        ),
        (
            f'{HEAD}files: {{"a\\tb": x}}\nsteps: []\n',
            f"line 3, column 9: files: 'a\\tb' {CONTROL}",
        ),
        (f"{HEAD}files: {{.: x}}\nsteps: []\n", f"line 3, column 9: files: '.' {OUTSIDE}"),
        (
            f'{HEAD}files: {{a: {{fixture: "\\0"}}}}\nsteps: []\n',
            "line 3, column 9: files: 'a' must be text or {fixture: path}",
        ),
        ('name: x\nprogram: "demo\\0"\nsteps: []\n', f"line 2, column 1: 'program' {CONTROL}"),
        (
            f'{HEAD}args: ["a\\0"]\nsteps: []\n',
            "line 3, column 1: 'args' must not hold a NUL character (no program can get one)",
        ),
        (steps_and(f"seed: {'9' * 4301}"), f"line 4, column 1: {SEED}"),
        (steps_and(f"exit: {'1' * 5000}"), f"line 4, column 1: {EXIT}"),
        (steps_and("exit: 256"), f"line 4, column 1: {EXIT}"),
        (steps_and("exit: -1"), f"line 4, column 1: {EXIT}"),
        (steps_and("timeout: 3000000"), f"line 4, column 1: {TIMEOUT}"),
        (steps_and("timeout: 1e-10"), f"line 4, column 1: {TIMEOUT}"),
        (steps_and("timeout: 0.0001"), f"line 4, column 1: {TIMEOUT}"),
        (steps_and(f"timeout: {'9' * 5000}"), f"line 4, column 1: {TIMEOUT}"),
        (steps_and(f"points: {'9' * 400}"), f"line 4, column 1: {POINTS}"),
        (steps_and("points: .inf"), f"line 4, column 1: {POINTS}"),
    ],
)
def test_hostile_text_is_one_line_saying_where(text: str, problem: str) -> None:
    assert problem_of(text) == problem


def test_numbers_at_their_bounds_load() -> None:
    text = f"{HEAD}steps: []\nseed: -{'9' * 18}\nexit: 255\ntimeout: 3600\npoints: 1000000\n"
    transcript = parse_transcript(text, Path("t.yaml"))
    assert (transcript.seed, transcript.runs[0].exit) == (-(10**18) + 1, 255)
    assert (transcript.timeout, transcript.points) == (3600.0, 1e6)
    assert parse_transcript(f"{HEAD}steps: []\ntimeout: 0.001\n", Path("t")).timeout == 0.001


def test_escaped_control_characters_in_text_are_kept() -> None:
    text = f'{HEAD}steps:\n  - out: "\\0\\e[1m\\x7f"\n'
    assert parse_transcript(text, Path("t.yaml")).runs[0].steps == (Out("\0\x1b[1m\x7f"),)


def test_nesting_that_a_transcript_needs_loads() -> None:
    assert load_text("a: [[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]") == {
        "a": [[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]
    }
    with pytest.raises(ValueError, match="nested more than 16 deep"):
        load_text("a: [[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]")


def test_a_transcript_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(MAX_TRANSCRIPT_BYTES + 1)
    with pytest.raises(TranscriptError) as raised:
        load_transcript(big)
    assert str(raised.value) == f"{big}: cannot read: more than 4 MiB"


@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "directory"])
def test_a_transcript_or_fixture_that_is_no_regular_file_is_an_error(
    tmp_path: Path, special: str
) -> None:
    if special == "fifo":
        target = tmp_path / "pipe.yaml"
        os.mkfifo(target)  # opened without blocking: nothing ever writes to it
    elif special == "directory":
        target = tmp_path / "folder.yaml"
        target.mkdir()
    else:
        target = Path(special)
    expected = "is a directory" if special == "directory" else "not a regular file"
    with pytest.raises(TranscriptError) as raised:
        load_transcript(target)
    assert str(raised.value) == f"{target}: cannot read: {expected}"
    relative = os.path.relpath(target, tmp_path)  # a fixture is relative to its transcript
    transcript = write_transcript(
        tmp_path / "t.yaml", f"{HEAD}files: {{f: {{fixture: {relative}}}}}\nsteps: []\n"
    )
    result = run_cli("replay", transcript)
    assert result.status == 1
    assert result.out.splitlines()[0] == (
        f"ERROR {transcript}: files: 'f': fixture {relative}: {expected}"
    )


def test_fixtures_together_over_the_cap_are_an_error(tmp_path: Path) -> None:
    for name in ("a", "b"):
        with (tmp_path / name).open("wb") as handle:
            handle.truncate(9 << 20)
    transcript = write_transcript(
        tmp_path / "t.yaml", f"{HEAD}files: {{a: {{fixture: a}}, b: {{fixture: b}}}}\nsteps: []\n"
    )
    result = run_cli("replay", transcript)
    assert result.out.splitlines()[0] == (
        f"ERROR {transcript}: files: 'b': fixture b: the fixtures together are over 16 MiB"
    )


# ------------------------------------------------------------------ record --fixture NAME=PATH


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("../evil", "must be a relative path inside the working directory"),
        ("/tmp/evil", "must be a relative path inside the working directory"),
        ("a/../../evil", "must be a relative path inside the working directory"),
        ("a\\b", "must be a relative path inside the working directory"),
        ("a\tb", "must not hold a control character"),
    ],
)
def test_record_fixture_names_obey_the_loaders_rule(
    tmp_path: Path, name: str, problem: str
) -> None:
    assert file_name_problem(name) == problem
    source = tmp_path / "source.txt"
    source.write_text("precious\n")
    (tmp_path / "in.txt").write_text("")
    output = tmp_path / "out" / "t.yaml"
    result = run_cli(
        "record",
        "--stdin",
        tmp_path / "in.txt",
        "--fixture",
        f"{name}={source}",
        "-o",
        output,
        "demo",
    )
    assert (result.status, result.err) == (
        2,
        f"casino record: --fixture {name!r}: the name {problem} (see casino record --help)\n",
    )
    assert not output.exists()
    spec = Recording("demo", (), output, "t", fixtures=((name, source),))
    with pytest.raises(RecordError, match="the name must"):
        record(spec, [], None)
    assert not output.exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt", "source.txt"]


def test_record_fixture_that_is_a_device_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli("record", "--fixture", "z=/dev/zero", "-o", tmp_path / "t.yaml", "demo")
    assert (result.status, result.err) == (
        2,
        "casino record: --fixture z: no such file: /dev/zero (see casino record --help)\n",
    )


# -------------------------------------------------------------------------- --jobs, directories


class Pool:
    """Stands in for ProcessPoolExecutor: remembers how many workers were asked for."""

    workers: ClassVar[list[int]] = []

    def __init__(self, workers: int, **_: Any) -> None:
        Pool.workers.append(workers)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def map(self, function: Any, *iterables: Any, chunksize: int = 1) -> Any:
        return map(function, *iterables)


def test_jobs_is_capped_at_the_transcripts_and_said_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a", "b"):
        write_transcript(tmp_path / f"{name}.yaml", GOOD.read_text(encoding="utf-8"))
    monkeypatch.setattr(casino.pool, "worker_pool", Pool)
    Pool.workers.clear()
    result = run_cli("replay", "--jobs", "64", tmp_path)
    assert result.status == 0
    assert result.err == "casino replay: --jobs 64: running 2 at once (one per transcript)\n"
    assert Pool.workers == [2]


def test_jobs_is_capped_per_cpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for number in range(3):
        write_transcript(tmp_path / f"{number}.yaml", GOOD.read_text(encoding="utf-8"))
    monkeypatch.setattr(casino.pool, "worker_pool", Pool)
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # unknown: counted as one
    Pool.workers.clear()
    result = run_cli("replay", "--jobs", "999999999", tmp_path)
    assert result.err == "casino replay: --jobs 999999999: running 3 at once (one per transcript)\n"
    monkeypatch.setattr(cli, "MAX_JOBS_PER_CPU", 2)
    result = run_cli("replay", "--jobs", "3", tmp_path)
    assert result.err == "casino replay: --jobs 3: running 2 at once (2 per CPU)\n"
    assert Pool.workers == [3, 2]


@pytest.mark.parametrize(
    ("jobs", "message"),
    [
        ("9" * 5000, "more than 18 digits: '" + "9" * 30 + "'… (5,000 characters)"),
        ("0", "not a whole number of at least 1: '0'"),
        ("-3", "not a whole number of at least 1: '-3'"),
        ("٣", "not a whole number: '٣'"),
    ],
)
def test_jobs_must_be_a_bounded_whole_number(jobs: str, message: str) -> None:
    result = run_cli("replay", f"--jobs={jobs}", GOOD)
    expected = f"casino replay: argument --jobs: {message} (see casino replay --help)\n"
    assert (result.status, result.err, result.out) == (2, expected, "")


def test_an_unreadable_directory_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_transcript(tmp_path / "t" / "a.yaml", GOOD.read_text(encoding="utf-8"))
    secret = tmp_path / "t" / "secret"
    write_transcript(secret / "b.yaml", GOOD.read_text(encoding="utf-8"))
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:
        if not isinstance(path, int) and Path(path) == secret:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)  # chmod 000 means nothing to root
    result = run_cli("replay", tmp_path / "t")
    lines = result.out.splitlines()
    assert result.status == 1
    assert lines[0].startswith("PASS ")
    assert lines[1].startswith(f"ERROR {secret}: cannot read: ")
    assert lines[2] == "1 passed, 0 failed, 1 error (2 transcripts)"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a chmod 000 directory anyway")
def test_a_chmod_000_directory_is_permission_denied(tmp_path: Path) -> None:
    write_transcript(tmp_path / "t" / "a.yaml", GOOD.read_text(encoding="utf-8"))
    secret = tmp_path / "t" / "secret"
    write_transcript(secret / "b.yaml", GOOD.read_text(encoding="utf-8"))
    secret.chmod(0)
    try:
        result = run_cli("replay", tmp_path / "t")
    finally:
        secret.chmod(0o755)
    assert f"ERROR {secret}: cannot read: Permission denied" in result.out.splitlines()


def dies_on_purpose(path: Path, options: Options) -> TranscriptResult:
    """``check_path``, except that a worker checking ``dies.yaml`` is killed."""
    if Path(path).name == "dies.yaml":
        os._exit(9)
    return check_path(path, options)


def test_a_dead_worker_costs_one_error_not_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a", "dies", "z1", "z2", "z3"):
        write_transcript(tmp_path / f"{name}.yaml", GOOD.read_text(encoding="utf-8"))
    # cli imports check_path when it runs transcripts; forked workers see the change too
    monkeypatch.setattr(session, "check_path", dies_on_purpose)
    result = run_cli("replay", "--jobs", "2", tmp_path)
    lines = result.out.splitlines()
    assert result.status == 1
    assert lines[1] == f"ERROR {tmp_path}/dies.yaml: the process checking it died"
    assert [line.split()[0] for line in lines[:-1]] == ["PASS", "ERROR", "PASS", "PASS", "PASS"]
    assert lines[-1] == "4 passed, 0 failed, 1 error (5 transcripts)"


def test_a_fifo_among_the_transcripts_is_one_error_not_a_hang(tmp_path: Path) -> None:
    write_transcript(tmp_path / "a.yaml", GOOD.read_text(encoding="utf-8"))
    os.mkfifo(tmp_path / "b.yaml")
    result = run_cli("replay", tmp_path)
    assert result.out.splitlines()[1:] == [
        f"ERROR {tmp_path}/b.yaml: cannot read: not a regular file",
        "1 passed, 0 failed, 1 error (2 transcripts)",
    ]


def test_bytes_that_are_not_utf8_say_where(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_bytes("name: x\nsteps: []\n# é".encode() + b"\xff\n")
    with pytest.raises(TranscriptError) as raised:
        load_transcript(path)
    assert str(raised.value) == f"{path}: line 3, column 4: not UTF-8 text"


def test_a_fixture_is_never_an_absolute_path(tmp_path: Path) -> None:
    text = "name: x\nprogram: demo\nfiles:\n  a.txt: {fixture: /etc/passwd}\nsteps: []\n"
    with pytest.raises(TranscriptError, match="a fixture is a path relative to the transcript"):
        parse_transcript(text, tmp_path / "x.yaml")
