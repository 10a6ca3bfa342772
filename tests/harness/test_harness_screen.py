"""Undoing a terminal's echo and \\r\\n, explicitly and no further."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from casino.harness.runners.screen import TerminalCapture


def test_echo_of_each_line_sent_is_removed_and_crlf_normalised() -> None:
    screen = TerminalCapture()
    screen.feed("Welcome\r\n$ ")
    screen.sent("add 2 3")
    screen.feed("add 2 3\r\n5\r\n$ ")
    screen.close()
    assert screen.text == "Welcome\n$ 5\n$ "
    assert screen.chunks() == ("Welcome\n$ ", "5\n$ ")


def test_an_echo_arriving_in_pieces_is_held_back_until_whole() -> None:
    screen = TerminalCapture()
    screen.feed("$ ")
    screen.sent("abc")
    screen.feed("ab")
    assert screen.text == "$ " and screen.awaiting_echo
    screen.feed("c\r")
    assert screen.text == "$ "
    screen.feed("\nok\r")
    assert screen.text == "$ ok" and not screen.awaiting_echo
    screen.feed("\n")
    assert screen.text == "$ ok\n"


def test_only_the_first_occurrence_of_the_echo_is_removed() -> None:
    screen = TerminalCapture()
    screen.sent("hi")
    screen.feed("hi\r\nyou said: hi\r\n")
    assert screen.text == "you said: hi\n"


def test_without_echo_nothing_is_removed() -> None:
    screen = TerminalCapture()
    screen.sent("secret", echoed=False)
    screen.feed("secret\r\n")
    assert screen.text == "secret\n"


def test_an_echo_that_never_came_is_forgotten_and_output_kept() -> None:
    screen = TerminalCapture()
    screen.sent("abc")
    screen.feed("a")
    screen.forget_echo()
    assert screen.text == "a"


def test_a_program_printing_crlf_itself_is_recovered_exactly() -> None:
    screen = TerminalCapture()
    screen.feed("dos\r\r\nline\r\n")
    assert screen.text == "dos\r\nline\n"


@given(st.lists(st.tuples(st.text(max_size=12), st.text(alphabet="ab \t", max_size=6)), max_size=5))
def test_a_terminal_session_is_undone_exactly(exchanges: list[tuple[str, str]]) -> None:
    """Printed text through ONLCR, echoed lines interleaved, fed one character at a time."""
    screen = TerminalCapture()
    expected = []
    for printed, typed in exchanges:
        for char in printed.replace("\n", "\r\n"):
            screen.feed(char)
        expected.append(printed)
        screen.sent(typed)
        for char in typed + "\r\n":
            screen.feed(char)
    screen.close()
    assert screen.chunks() == (*expected, "")
