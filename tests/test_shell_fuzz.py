"""Every shell survives any input: arbitrary text and arbitrary bytes, in-process (bounded,
seeded examples) and, for a few, as a real process with the bytes on its stdin under a strict
UTF-8 locale. No traceback, no hang, a status of the contract, and nothing the user had lost."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.nim import storage
from casino.programs import PROGRAMS, load_main

ROOT = Path(__file__).resolve().parents[1]
CARDS = " ".join(f"{rank}{suit}" for suit in "CDHS" for rank in "23456789TJQKA")

DEMO_WORDS = ["add", "mul", "table", "roll", "store", "recall", "prompt", "exit", "echo"]
NIMSYS_WORDS = [
    "addplayer", "addaiplayer", "removeplayer", "editplayer", "resetstats", "displayplayer",
    "rankings", "startgame", "startadvancedgame", "exit", "y", "Y", "N",
]  # fmt: skip
VIDEOPOKER_WORDS = ["b", "d", "h", "a", "s", "$"]
DRAW_WORDS = ["2", "5", "b", "B", "f", "F", "100", "1 3"]
DOMINO_WORDS = [
    "1", "2 left", "3 izquierda", "4 derecha", "robar", "draw", "pasar", "pass", "ayuda",
    "help", "s", "n", "salir",
]  # fmt: skip
HOLDEM_WORDS = [
    "pasar", "check", "ir", "call", "apostar", "bet", "subir", "raise", "todo", "allin",
    "retirarse", "fold", "ayuda", "help", "salir", "quit",
]  # fmt: skip

SHELLS: dict[str, tuple[str, list[str], list[str]]] = {
    "demo": ("demo", [], DEMO_WORDS),
    "domino": ("domino", ["--seed", "1", "--bankroll", "20"], DOMINO_WORDS),
    "draw": ("draw", ["--seed", "1", "--choose"], DRAW_WORDS),
    "nimsys-a": ("nimsys", ["--stage", "a"], NIMSYS_WORDS),
    "nimsys-b": ("nimsys", ["--stage", "b"], NIMSYS_WORDS),
    "nimsys-c": ("nimsys", [], NIMSYS_WORDS),
    "videopoker-i": ("videopoker", ["-i", "100", "--seed", "1"], VIDEOPOKER_WORDS),
    "holdem": ("holdem", ["--players", "3", "--seed", "1", "--stack", "100"], HOLDEM_WORDS),
}
"""Each interactive shell: the program, the arguments that start it, its command words."""

NUMBERS = st.one_of(
    st.integers(-5, 1005).map(str), st.just("9" * 5000), st.sampled_from(["٣", "1e3", "+2", ""])
)


def lines_for(words: list[str]) -> st.SearchStrategy[list[str]]:
    """Input lines: commands of ``words`` with numbers or text (comma- or space-separated),
    numbers alone (answers to questions), and any text."""
    command = st.tuples(st.sampled_from(words), st.lists(NUMBERS | st.text(max_size=6), max_size=4))
    return st.lists(
        st.one_of(
            command.map(lambda c: f"{c[0]} {','.join(c[1])}"),
            command.map(lambda c: " ".join([c[0], *c[1]])),
            NUMBERS,
            st.text(max_size=20),
        ),
        max_size=25,
    )


FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(autouse=True)
def _own_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CASINO_SEED", raising=False)


NO_SHELL = {
    "stud": "it reads no stdin: its input is the wire protocol, fuzzed in tests/stud",
    "web": "it reads no stdin: its input is HTTP and WebSocket messages, tested in tests/web",
}
"""Programs without a line shell to fuzz, and why."""


def test_every_program_has_a_shell_here() -> None:
    assert {program for program, _, _ in SHELLS.values()} | set(NO_SHELL) == set(PROGRAMS)


def check(shell: str, stdin: io.TextIOBase) -> None:
    """Run one shell on ``stdin``; it must end by the contract and keep players.dat loadable."""
    program, argv, _ = SHELLS[shell]
    out, err = io.StringIO(), io.StringIO()
    status = load_main(program)(argv, stdin=stdin, stdout=out, stderr=err)  # type: ignore[arg-type]
    assert 0 <= status <= 255
    for line in err.getvalue().splitlines():
        assert line.startswith((f"{program}: ", "warning: ")), line
    if program == "demo":
        assert out.getvalue().endswith("bye\n")
    if shell == "nimsys-c":
        assert status == 0 and storage.load(Path(storage.FILE_NAME)).warning is None
    for leftover in ("players.dat", "demo.dat"):
        if os.path.exists(leftover):
            os.remove(leftover)


@pytest.mark.parametrize("shell", sorted(SHELLS))
@FUZZ
@given(data=st.data())
def test_any_text(shell: str, data: st.DataObject) -> None:
    lines = data.draw(lines_for(SHELLS[shell][2]))
    check(shell, io.StringIO("".join(line + "\n" for line in lines)))


@pytest.mark.parametrize("shell", sorted(SHELLS))
@FUZZ
@given(data=st.binary(max_size=300))
def test_any_bytes(shell: str, data: bytes) -> None:
    """As the process's stdin reads bytes: UTF-8, anything else replaced."""
    check(shell, io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace"))


@FUZZ
@given(text=st.text(max_size=200))
def test_any_cmd_file(text: str) -> None:
    Path("cmd.txt").write_text(text, encoding="utf-8")
    Path("cards.txt").write_text(CARDS * 4)
    out, err = io.StringIO(), io.StringIO()
    main = load_main("videopoker")
    status = main(["-d", "100", "cmd.txt", "cards.txt"], stdout=out, stderr=err)
    assert status in (0, 1)
    assert err.getvalue() == "" if status == 0 else err.getvalue().count("\n") == 1


def real_run(
    program: str, argv: list[str], data: bytes, cwd: Path
) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUTF8", "CASINO_SEED")}
    return subprocess.run(
        [sys.executable, "-m", PROGRAMS[program], *argv],
        input=data,
        capture_output=True,
        cwd=cwd,
        env={**env, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8:strict"},
        check=False,
        timeout=120,  # a hang fails the test
    )


@pytest.mark.parametrize("shell", sorted(SHELLS))
@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(min_size=1, max_size=200))
def test_any_bytes_to_a_real_process(shell: str, data: bytes, tmp_path: Path) -> None:
    program, argv, _ = SHELLS[shell]
    done = real_run(program, argv, data + b"\n\xff\xfe\x80 b 9" + b"9" * 5000 + b"\n", tmp_path)
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr
    assert 0 <= done.returncode <= 255
    for leftover in ("players.dat", "demo.dat"):
        if (tmp_path / leftover).exists():
            (tmp_path / leftover).unlink()
