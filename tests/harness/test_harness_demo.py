"""The demo program: exact answers, seeded dice, file state, and no traceback on any input."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.demo import main, multiplication_table

GREETING = "casino demo calculator (type help)\n$ "


def run(text: str, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=io.StringIO(text), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _own_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_commands_answer_exactly() -> None:
    status, out, err = run("add 2 3\nmul -4 5\necho  a  b \nexit 7\n")
    assert (status, err) == (7, "")
    assert out == GREETING + "2 + 3 = 5\n$ -4 × 5 = -20\n$ echo:\ta  b\n$ bye\n"


def test_the_table_has_trailing_spaces() -> None:
    assert multiplication_table(2) == ["×   1   2   ", "1   1   2   ", "2   2   4   "]


def test_end_of_input_ends_like_exit() -> None:
    assert run("add 1 1\n") == (0, GREETING + "1 + 1 = 2\n$ bye\n", "")


def test_the_same_seed_rolls_the_same_dice() -> None:
    rolls = "roll\n" * 20
    assert run(rolls, "--seed", "3") == run(rolls, "--seed=3")
    assert run(rolls, "--seed", "3") != run(rolls, "--seed", "4")


def test_memory_persists_in_the_working_directory() -> None:
    run("store 12\n")
    assert run("recall\n")[1] == GREETING + "recalled 12\n$ bye\n"
    Path("demo.dat").write_text("twelve\n", encoding="utf-8")
    assert run("recall\n")[1] == GREETING + "demo.dat is corrupt\n$ bye\n"
    os.remove("demo.dat")
    assert run("recall\n")[1] == GREETING + "nothing stored\n$ bye\n"


def test_prompt_off_prints_nothing_between_quiet_commands() -> None:
    assert run("prompt off\n\nadd 1 2\nprompt on\n")[1] == GREETING + "1 + 2 = 3\n$ bye\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed"], "demo: argument --seed: expected one argument (see demo --help)\n"),
        (["--seed", "x"], "demo: argument --seed: not a whole number: 'x' (see demo --help)\n"),
        (["--speed", "3"], "demo: unrecognized arguments: --speed 3 (see demo --help)\n"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(argv: list[str], message: str) -> None:
    assert run("", *argv) == (2, "", message)


def test_help_option_lists_the_commands() -> None:
    status, out, _ = run("", "--help")
    assert status == 0 and out.startswith("usage: demo [-h] [--seed N]\n")
    assert "\ncommands:\nadd A B       sum of two whole numbers\nmul A B" in out
    assert "exit [N]      leave, with exit status N (0-255)\n" in out


words = st.sampled_from(
    [
        "add",
        "mul",
        "echo",
        "table",
        "roll",
        "store",
        "recall",
        "warn",
        "prompt",
        "help",
        "exit",
        "x",
    ]
)
arguments = st.lists(
    st.one_of(st.integers(-300, 300).map(str), st.sampled_from(["on", "off", "", "1e3", "٣"])),
    max_size=3,
)
command_lines = st.lists(
    st.one_of(
        st.tuples(words, arguments).map(lambda c: " ".join([c[0], *c[1]])),
        st.text(max_size=15).map(lambda t: t.replace("\n", " ").replace("\r", " ")),
    ),
    max_size=15,
)


@settings(max_examples=120, deadline=None)
@given(command_lines, st.integers(0, 2**32))
def test_any_command_stream_ends_cleanly_and_deterministically(lines: list[str], seed: int) -> None:
    text = "".join(line + "\n" for line in lines)
    first = run(text, "--seed", str(seed))
    if os.path.exists("demo.dat"):
        os.remove("demo.dat")
    assert run(text, "--seed", str(seed)) == first
    status, out, err = first
    assert 0 <= status <= 255
    assert out.startswith(GREETING) and out.endswith("bye\n")
    assert "Traceback" not in out + err
    assert all(line.startswith("warning: ") for line in err.splitlines())
    if os.path.exists("demo.dat"):
        os.remove("demo.dat")


def test_a_huge_number_is_not_a_number() -> None:
    huge = "9" * 5000  # past Python's int() limit
    status, out, err = run(f"add {huge} 1\ntable {huge}\nexit {huge}\n")
    assert (status, err) == (0, "")
    assert out == GREETING + "add needs two whole numbers\n$ table needs one whole number\n$ " + (
        "exit needs one whole number\n$ bye\n"
    )


def test_a_store_that_cannot_be_written_says_so_and_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    Path("demo.dat").write_text("12\n")
    Path("demo.dat").chmod(0o444)
    status, out, err = run("store 5\nrecall\n")
    assert (status, err) == (0, "")
    assert out == GREETING + (
        "cannot store: demo.dat: read-only file, not replaced\n$ recalled 12\n$ bye\n"
    )

    def full(path: object, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("casino.demo.write_atomic", full)
    assert (
        run("store 5\n")[1] == GREETING + "cannot store: demo.dat: No space left on device\n$ bye\n"
    )


def test_a_demo_dat_that_never_ends_is_corrupt() -> None:
    Path("demo.dat").symlink_to("/dev/zero")
    assert run("recall\n")[1] == GREETING + "demo.dat is corrupt\n$ bye\n"
