"""The program-entry contract: one exit status and at most one line for every ending."""

from __future__ import annotations

import errno
import io
import os
import select
import shutil
import signal
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.cmdline import (
    ArgumentParser,
    FileProblem,
    Invocation,
    UsageError,
    commands_help,
    invoked_as,
    program_name,
    run_program,
)
from casino.interrupts import (
    Stopped,
    interruptible_lines,
    run_uninterrupted,
    scratch_directory,
    signals_deferred,
)


def run(body: object, *argv: str, name: str = "game") -> tuple[int, str, str]:
    """Run ``body`` under the contract on streams of its own."""
    out, err = io.StringIO(), io.StringIO()
    status = run_program(name, body, list(argv), stdin=io.StringIO(), stdout=out, stderr=err)  # type: ignore[arg-type]
    return status, out.getvalue(), err.getvalue()


def raising(error: BaseException) -> object:
    def body(invocation: Invocation) -> int:
        raise error

    return body


def parse_seed(invocation: Invocation) -> int:
    parser = invocation.parser(description="A game.")
    parser.add_seed_option()
    seed = parser.parse_args(invocation.argv).seed
    invocation.streams.stdout.write(f"seed {seed}\n")
    return 0


@pytest.mark.parametrize(
    ("error", "status", "message"),
    [
        (UsageError("no credit"), 2, "game: no credit (see game --help)\n"),
        (FileProblem("cannot read x: no such file"), 1, "game: cannot read x: no such file\n"),
        (BrokenPipeError(), 1, ""),
    ],
)
def test_each_ending_is_one_status_and_at_most_one_line(
    error: BaseException, status: int, message: str
) -> None:
    assert run(raising(error)) == (status, "", message)


def test_the_body_chooses_the_status() -> None:
    assert run(lambda invocation: 7) == (7, "", "")


def test_help_goes_to_the_given_stdout_with_status_0() -> None:
    status, out, err = run(parse_seed, "--help")
    assert (status, err) == (0, "")
    assert out.startswith("usage: game [-h] [--seed N]\n\nA game.\n")
    assert "--seed N    seed every shuffle with N (default: $CASINO_SEED if set)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "x"], "argument --seed: not a whole number: 'x'"),
        (["--seed", "1" * 5000], "argument --seed: more than 18 digits: "),
        (["extra"], "unrecognized arguments: extra"),
    ],
)
def test_a_bad_argument_is_one_line_and_status_2(argv: list[str], message: str) -> None:
    status, out, err = run(parse_seed, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"game: {message}") and err.endswith(" (see game --help)\n")
    assert err.count("\n") == 1 and len(err) < 200


def test_the_seed_comes_from_casino_seed_unless_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CASINO_SEED", raising=False)
    assert run(parse_seed) == (0, "seed None\n", "")
    monkeypatch.setenv("CASINO_SEED", "42")
    assert run(parse_seed) == (0, "seed 42\n", "")
    assert run(parse_seed, "--seed", "-3") == (0, "seed -3\n", "")
    monkeypatch.setenv("CASINO_SEED", "4x")
    assert run(parse_seed) == (
        2,
        "",
        "game: CASINO_SEED: not a whole number: '4x' (see game --help)\n",
    )


def test_the_invoked_name_is_the_next_programs_only() -> None:
    names: list[str] = []

    def inner(invocation: Invocation) -> int:
        names.append(invocation.prog)
        return 0

    def outer(invocation: Invocation) -> int:
        names.append(invocation.prog)
        run(inner, name="inner")  # a program it runs (the in-process runner) keeps its name
        with invoked_as(f"{invocation.prog} sub"):
            run(inner, name="inner")
        return 0

    with invoked_as("casino game"):
        run(outer)
    assert names == ["casino game", "inner", "casino game sub"]
    assert program_name("game") == "game"


def test_usage_errors_name_the_command_typed() -> None:
    with invoked_as("casino game"):
        assert run(raising(UsageError("bad"))) == (
            2,
            "",
            "casino game: bad (see casino game --help)\n",
        )


def test_an_interruption_on_given_streams_reaches_the_caller() -> None:
    """The in-process transcript runner must see Ctrl-C (and stop the whole replay)."""
    with pytest.raises(KeyboardInterrupt):
        run(raising(KeyboardInterrupt()))
    with pytest.raises(ValueError):
        run(raising(ValueError("a bug")))


def own(body: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run ``body`` as the process's own program (streams None); status and stderr."""
    status = run_program("game", body, [])  # type: ignore[arg-type]
    return status, capsys.readouterr().err


def test_on_its_own_streams_ctrl_c_is_130_and_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert own(raising(KeyboardInterrupt()), capsys) == (130, "game: interrupted\n")


def test_on_its_own_streams_sigterm_is_143_and_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    before = signal.getsignal(signal.SIGTERM)

    def body(invocation: Invocation) -> int:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10**7):  # the handler raises at the next instruction
            pass
        return 0

    assert own(body, capsys) == (143, "game: stopped by SIGTERM\n")
    assert signal.getsignal(signal.SIGTERM) == before
    assert own(raising(Stopped(signal.SIGHUP)), capsys) == (129, "game: stopped by SIGHUP\n")


def test_on_its_own_streams_a_bug_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert own(raising(ZeroDivisionError("x")), capsys) == (
        70,
        "game: internal error (a bug in casino): ZeroDivisionError: x\n",
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    code=st.sampled_from(sorted(set(errno.errorcode) - {errno.EPIPE, errno.ESHUTDOWN, errno.EIO})),
    filename=st.sampled_from([None, "players.dat", "out/report.html"]),
)
def test_on_its_own_streams_what_the_system_refused_is_one_line_never_a_bug(
    code: int, filename: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Any ``OSError`` (a full disk, a refused permission…) that reaches the contract is the
    environment's doing: status 1 and the system's words, with the file where there is one."""
    refusal = (
        OSError(code, os.strerror(code), filename) if filename else OSError(code, os.strerror(code))
    )
    where = f"{filename}: " if filename else ""
    assert own(raising(refusal), capsys) == (1, f"game: {where}{os.strerror(code)}\n")


def test_on_its_own_streams_a_vanished_working_folder_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    monkeypatch.chdir(folder)
    folder.rmdir()

    def body(invocation: Invocation) -> int:
        Path("x").resolve(strict=True)
        return 0

    said = (1, "game: the working folder is gone (No such file or directory)\n")
    assert own(body, capsys) == said


def test_signals_wait_until_a_save_is_done() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), signals_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        done.append("saved")
    assert done == ["saved"]


def test_signals_wait_until_a_save_is_done_when_another_thread_takes_them() -> None:
    """A signal to the process may be taken by any thread whose mask lets it in (a reader
    thread, a C library's, as Tk's): the save still runs to its end, then it is raised."""
    waiting = threading.Event()
    other = threading.Thread(target=waiting.wait, daemon=True)
    other.start()  # started outside: its mask lets SIGINT in
    woken, wake = os.pipe()
    os.set_blocking(wake, False)
    was = signal.set_wakeup_fd(wake)  # a byte is written when a thread takes the signal
    done = []
    try:
        with pytest.raises(KeyboardInterrupt), signals_deferred():
            assert other.ident is not None
            signal.pthread_kill(other.ident, signal.SIGINT)
            assert select.select([woken], [], [], 60)[0] == [woken]  # the other thread took it
            for _ in range(1000):  # a loop's jumps run the main thread's Python handler
                pass
            done.append("saved")
    finally:
        waiting.set()
        signal.set_wakeup_fd(was)
        os.close(woken)
        os.close(wake)
    assert done == ["saved"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_parser_raises_instead_of_exiting() -> None:
    parser = ArgumentParser(out=io.StringIO(), prog="game")
    parser.add_argument("--n", type=int)
    with pytest.raises(UsageError, match="invalid int value"):
        parser.parse_args(["--n", "x"])


def test_an_interrupted_save_runs_again_then_the_interruption_goes_on() -> None:
    calls: list[int] = []

    def save() -> int:
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt  # a signal already on its way when the save began
        return 5

    with pytest.raises(KeyboardInterrupt):
        run_uninterrupted(save)
    assert len(calls) == 2
    assert run_uninterrupted(lambda: 6) == 6


def test_a_scratch_directory_is_removed_even_when_ctrl_c_comes_while_it_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    remove, pressed = shutil.rmtree, [False]

    def interrupted_removal(path: str, ignore_errors: bool = False) -> None:
        if not pressed[0]:  # Ctrl-C comes as removal begins: held until it is done
            pressed[0] = True
            os.kill(os.getpid(), signal.SIGINT)
        remove(path, ignore_errors=ignore_errors)

    monkeypatch.setattr(shutil, "rmtree", interrupted_removal)
    with pytest.raises(KeyboardInterrupt), scratch_directory("casino-") as scratch:
        assert scratch.parent == tmp_path and scratch.name.startswith("casino-")
        (scratch / "left").write_text("by the program")
    assert list(tmp_path.iterdir()) == []


class SignalOnRead(io.StringIO):
    """Input during whose reading Ctrl-C is pressed."""

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        line = super().readline(size)
        if line == "now\n":
            os.kill(os.getpid(), signal.SIGINT)
        return line


def test_signals_reach_a_deferred_program_only_while_it_reads() -> None:
    seen: list[str] = []
    with pytest.raises(KeyboardInterrupt), signals_deferred():
        for line in interruptible_lines(SignalOnRead("a\nb\n")):
            seen.append(line)
            os.kill(os.getpid(), signal.SIGINT)  # while it works on a line: held
            seen.append("the line's work is done")
    assert seen == ["a\n", "the line's work is done"]  # stopped as it waits for "b"
    seen.clear()
    with pytest.raises(KeyboardInterrupt), signals_deferred():
        for line in interruptible_lines(SignalOnRead("x\nnow\ny\n")):
            seen.append(line)
    assert seen == ["x\n"]


def test_commands_help_lays_out_each_command_then_the_lines_after() -> None:
    text = commands_help("commands:", [("go N", "go N steps"), ("stop", "stop")], "More.")
    assert text == "commands:\n  go N\n      go N steps\n  stop\n      stop\n\nMore."
    assert commands_help("commands:", [("x", "y")]) == "commands:\n  x\n      y"
