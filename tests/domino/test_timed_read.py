"""The console's timed read: on a real pipe and on plain lines, with a fake clock (no sleep)."""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator

import pytest

from casino.clock import FakeClock
from casino.shell import TIMED_OUT, Console


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read_end, write_end = os.pipe()
    yield read_end, write_end
    for fd in (read_end, write_end):
        with contextlib.suppress(OSError):
            os.close(fd)


def _console(read_end: int) -> Console:
    stream = open(read_end, encoding="utf-8", closefd=False)  # noqa: SIM115 (closed by fixture)
    return Console.of_stream(stream, io.StringIO())


def test_a_pipe_with_no_input_times_out_after_a_countdown_of_whole_seconds(
    pipe: tuple[int, int],
) -> None:
    clock, ticks = FakeClock(), list[int]()
    console = _console(pipe[0])
    assert console.read_within(3, clock, ticks.append) is TIMED_OUT
    assert ticks == [3, 2, 1]
    assert clock.now() == 3


def test_a_fractional_limit_counts_down_to_the_whole_seconds(pipe: tuple[int, int]) -> None:
    clock, ticks = FakeClock(), list[int]()
    assert _console(pipe[0]).read_within(2.5, clock, ticks.append) is TIMED_OUT
    assert ticks == [3, 2, 1]
    assert clock.now() == 2.5


def test_a_line_waiting_on_the_pipe_is_read_at_once_then_the_end(pipe: tuple[int, int]) -> None:
    clock = FakeClock()
    os.write(pipe[1], b"3 izquierda\r\nfin sin salto")
    console = _console(pipe[0])
    assert console.read_within(15, clock) == "3 izquierda"
    os.close(pipe[1])
    assert console.read_within(15, clock) == "fin sin salto"
    assert console.read_within(15, clock) is None
    assert console.exhausted
    assert clock.now() == 0


def test_a_partial_line_is_kept_across_a_time_out(pipe: tuple[int, int]) -> None:
    clock = FakeClock()
    console = _console(pipe[0])
    os.write(pipe[1], b"dra")
    assert console.read_within(1, clock) is TIMED_OUT
    os.write(pipe[1], b"w\n\xff\n")
    assert console.read_within(1, clock) == "draw"
    assert console.read() == "\ufffd"  # garbage bytes are replaced, never a traceback


def _slow(clock: FakeClock, lines: list[tuple[float, str]]) -> Iterator[str]:
    for delay, line in lines:
        clock.advance(delay)
        yield line


def test_plain_lines_are_late_when_the_clock_moved_past_the_limit() -> None:
    clock = FakeClock()
    console = Console(_slow(clock, [(16, "late"), (1, "quick")]), io.StringIO())
    assert console.read_within(15, clock) is TIMED_OUT
    assert console.read_within(15, clock) == "late"  # kept, as a terminal keeps it
    assert console.read_within(15, clock) == "quick"
    assert console.read_within(15, clock) is None


def _silence_then_end(clock: FakeClock, seconds: float) -> Iterator[str]:
    clock.advance(seconds)
    yield from ()


def test_the_end_of_input_after_the_limit_is_a_time_out_first() -> None:
    clock = FakeClock()
    console = Console(_silence_then_end(clock, 6), io.StringIO())
    assert console.read_within(5, clock) is TIMED_OUT
    assert not console.exhausted
    assert console.read_within(5, clock) is None
    assert console.exhausted
