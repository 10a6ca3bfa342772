"""The project's own transcripts, mutated at random (seeded, bounded), and hostile transcripts
next to good ones in ``casino replay`` and in pytest: one ``ERROR``/failure for the bad one, the
rest run, nothing dies (issue 10, item 5 and its "done when").
"""

from __future__ import annotations

import os
import random
import re
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.harness.load import is_settings_file, load_transcript
from casino.harness.model import Transcript, TranscriptError
from casino.harness.parse import parse_transcript
from casino.harness.report import render
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from harness.harness_support import ROOT

OWN = sorted(p for p in (ROOT / "transcripts").rglob("*.yaml") if not is_settings_file(p))
MUTANTS = 400
"""How many mutated transcripts are loaded (a fixed seed: the same ones every run)."""
REPLAYED = 60
"""At most how many of those that still load are replayed."""

Mutation = Callable[[random.Random, bytes], bytes]


def flip(rng: random.Random, data: bytes) -> bytes:
    """One byte replaced by any byte (often not UTF-8 any more)."""
    at = rng.randrange(len(data))
    return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]


def truncate(rng: random.Random, data: bytes) -> bytes:
    """Cut anywhere."""
    return data[: rng.randrange(len(data))]


def brackets(rng: random.Random, data: bytes) -> bytes:
    """A few, or thousands of, opening brackets (and maybe their closing ones)."""
    at, depth = rng.randrange(len(data)), rng.choice([1, 3, 20, 30_000])
    opening, closing = rng.choice([(b"[", b"]"), (b"{", b"}"), (b"{a: ", b"}")])
    tail = closing * depth if rng.random() < 0.5 else b""
    return data[:at] + opening * depth + tail + data[at:]


def decorate(rng: random.Random, data: bytes) -> bytes:
    """A tag, an anchor or an alias where a value starts."""
    values = [found.end() for found in re.finditer(rb": ", data)] or [0]
    at = rng.choice(values)
    extra = rng.choice(
        [b"!!int ", b"!!timestamp ", b"!!float ", b"!!bool ", b"!x ", b"&a ", b"*a "]
    )
    return data[:at] + extra + data[at:]


def huge_number(rng: random.Random, data: bytes) -> bytes:
    """A run of digits made huge, or a numeric key set out of range."""
    digits = list(re.finditer(rb"[0-9]+", data))
    if digits and rng.random() < 0.5:
        found = rng.choice(digits)
        return data[: found.start()] + b"9" * rng.choice([19, 4301, 5000]) + data[found.end() :]
    line = rng.choice([b"timeout: 3000000", b"timeout: 1e-10", b"exit: 256", b"points: -1"])
    return data + b"\n" + line + b"\n"


def control(rng: random.Random, data: bytes) -> bytes:
    """A raw NUL, ESC or other control character."""
    at = rng.randrange(len(data))
    return data[:at] + rng.choice([b"\0", b"\x1b", b"\x7f", b"\x08"]) + data[at:]


def lines(rng: random.Random, data: bytes) -> bytes:
    """A line duplicated, dropped or swapped with another (keys twice, steps reordered)."""
    rows = data.split(b"\n")
    first, second = rng.randrange(len(rows)), rng.randrange(len(rows))
    choice = rng.randrange(3)
    if choice == 0:
        rows.insert(first, rows[second])
    elif choice == 1:
        del rows[first]
    else:
        rows[first], rows[second] = rows[second], rows[first]
    return b"\n".join(rows)


def text_change(rng: random.Random, data: bytes) -> bytes:
    """A letter changed into another letter: mostly still a transcript, now one that fails."""
    letters = list(re.finditer(rb"[a-z]", data))
    found = rng.choice(letters)
    return data[: found.start()] + bytes([rng.randrange(97, 123)]) + data[found.end() :]


MUTATIONS: list[Mutation] = [
    flip,
    truncate,
    brackets,
    decorate,
    huge_number,
    control,
    lines,
    text_change,
]


def mutant(rng: random.Random) -> tuple[Path, bytes]:
    """One of the project's transcripts with one to three mutations."""
    source = rng.choice(OWN)
    data = source.read_bytes()
    for _ in range(rng.randint(1, 3)):
        data = rng.choice(MUTATIONS)(rng, data) or b"\n"
    return source, data


def load_or_one_line(path: Path) -> Transcript | None:
    """The transcript at ``path``, or ``None`` after checking its error is one line about it."""
    try:
        return load_transcript(path)
    except TranscriptError as error:
        message = str(error)
        assert "\n" not in message and "\r" not in message
        assert message.startswith(f"{path}: ")
        return None


def test_mutated_transcripts_load_or_are_one_line_and_replay_without_raising(
    tmp_path: Path,
) -> None:
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")  # fixtures resolve as in the project
    rng = random.Random(20261123)
    runner = InProcessRunner()
    loaded = replayed = 0
    statuses: set[Status] = set()
    for number in range(MUTANTS):
        source, data = mutant(rng)
        path = tmp_path / source.relative_to(ROOT).parent / f"m{number}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        transcript = load_or_one_line(path)
        if transcript is None:
            continue
        loaded += 1
        if replayed < REPLAYED:
            replayed += 1
            result = check(transcript, runner, Target(transcript.program))
            statuses.add(result.status)
            assert render(result)
    assert 0 < loaded < MUTANTS  # the mutations both keep and break transcripts
    assert Status.FAIL in statuses  # a changed letter is a failing, not a crashing, replay


TOKENS = ["[", "]", "{", "}", ": ", "- ", "? ", ",", '"', "'", "\n", "  ", "\0", "\x1b"]
TOKENS += ["!!int ", "!!timestamp ", "!!float ", "!!bool ", "!x ", "&a ", "*a", "a", "0", "9" * 30]
TOKENS += ["name", "program", "demo", "steps", "runs", "out", "in", "seed", "exit", "timeout"]
TOKENS += ["points", "files", "fixture", "args", "/dev/zero", "../x"]
YAMLISH = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
"""Text made of YAML's punctuation, transcript keys, tags, anchors, odd characters."""


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=80), YAMLISH))
def test_any_text_loads_or_is_one_line(text: str) -> None:
    try:
        parse_transcript(text, Path("t.yaml"))
    except TranscriptError as error:
        assert "\n" not in str(error)
        assert str(error).startswith("t.yaml: ")


# ------------------------------------------------------------- hostile files next to good ones


def alias_bomb() -> str:
    """One 100 KB ``out`` aliased 20,000 times (PyYAML's loader grew this past 7 GB)."""
    aliases = "".join("  - out: *big\n" for _ in range(20_000))
    return f"name: bomb\nprogram: demo\nsteps:\n  - out: &big {'x' * 100_000}\n{aliases}"


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """``transcripts/``: two good demo transcripts, 25,000 nested brackets, an alias bomb."""
    folder = tmp_path / "transcripts"
    folder.mkdir()
    for name in ("basics.yaml", "seeded-die.yaml"):
        (folder / name).write_bytes((ROOT / "transcripts" / "demo" / name).read_bytes())
    (folder / "bomb.yaml").write_text(alias_bomb(), encoding="utf-8")
    (folder / "deep.yaml").write_text("[" * 25_000, encoding="utf-8")
    return folder


def limited_memory() -> None:
    """In the child: at most 1 GiB of address space (the alias bomb needed over 7 GB)."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run(argv: list[str], cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in ``cwd`` with a memory limit (the timeout only guards against a hang),
    with the ``extra`` environment variables."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env.update(extra)
    return subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limited_memory,
        check=False,
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_replay_reports_the_hostile_ones_and_runs_the_rest(hostile: Path, jobs: str) -> None:
    done = run(
        [sys.executable, "-m", "casino", "replay", "--jobs", jobs, "transcripts"], hostile.parent
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        "PASS demo: help, sums, a table with trailing spaces, bad input (transcripts/basics.yaml)",
        "ERROR transcripts/bomb.yaml: line 4, column 10: an anchor (&big): a transcript has none",
        "ERROR transcripts/deep.yaml: line 1, column 17: nested more than 16 deep",
        "PASS demo: a seeded die rolls the same every time (transcripts/seeded-die.yaml)",
        "2 passed, 0 failed, 2 errors (4 transcripts)",
    ]
    assert done.stderr == ""


def test_pytest_collects_hostile_transcripts_as_failed_items(hostile: Path) -> None:
    (hostile.parent / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    # Only the transcripts plugin is loaded (a quarter of the CPU of pytest with every plugin
    # installed); test_harness_plugin.py checks that pytest finds it by its entry point.
    plugin = ["-p", "casino.harness.pytest_plugin"]
    done = run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin],
        hostile.parent,
        PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
    )
    assert done.returncode == 1, done.stdout + done.stderr  # 1: tests failed (not a crash)
    out = done.stdout
    assert (
        "transcripts/bomb.yaml: line 4, column 10: an anchor (&big): a transcript has none" in out
    )
    assert "transcripts/deep.yaml: line 1, column 17: nested more than 16 deep" in out
    assert out.splitlines()[-1].startswith("2 failed, 2 passed")
