"""Recovering what a program printed from what its terminal showed.

A terminal in its usual mode does two things to a session: it echoes every line typed (the
line, then ``\\r\\n``), and it turns each ``\\n`` the program prints into ``\\r\\n``. Both are
undone here, explicitly and no further:

- after a line is sent, the first occurrence of exactly its echo (``line + "\\r\\n"``) in what
  follows is removed; an echo that has not fully arrived is held back, and one that never
  comes (a program that turned echo off) is simply not there to remove;
- ``\\r\\n`` becomes ``\\n`` (a ``\\r`` at the very end is held back until the next character
  shows whether it starts a ``\\r\\n``). A program printing ``\\r\\n`` itself shows ``\\r\\r\\n``
  and is therefore recovered exactly.
"""

from __future__ import annotations

from casino.harness.runners.base import split_at


def _crlf(raw: str) -> str:
    return raw.replace("\r\n", "\n")


class TerminalCapture:
    """Accumulates a terminal's raw output and yields the program's own output."""

    def __init__(self) -> None:
        self._done = ""
        self._pending = ""
        self._echo: str | None = None
        self.marks: list[int] = []
        """Positions in :attr:`text` where a line was sent."""

    def feed(self, raw: str) -> None:
        """Take more of what the terminal showed."""
        self._pending += raw
        if self._echo is not None:
            index = self._pending.find(self._echo)
            if index >= 0:
                self._done += _crlf(self._pending[:index])
                self._pending = self._pending[index + len(self._echo) :]
                self._echo = None

    def sent(self, line: str, *, echoed: bool = True) -> None:
        """A line was typed: what came before is final, and (if the terminal echoes) its echo
        is expected next."""
        self._done += _crlf(self._pending)
        self._pending = ""
        self._echo = line + "\r\n" if echoed else None
        self.marks.append(len(self._done))

    @property
    def awaiting_echo(self) -> bool:
        """Whether the echo of the last line sent has yet to arrive."""
        return self._echo is not None

    def forget_echo(self) -> None:
        """Stop waiting for an echo that did not come."""
        self._echo = None

    def close(self) -> None:
        """The terminal closed: everything still held back is output after all."""
        self._done += _crlf(self._pending)
        self._pending = ""
        self._echo = None

    @property
    def text(self) -> str:
        """The program's output so far (minus whatever may still turn out to be echo)."""
        shown = self._pending
        if self._echo is not None:
            shown = shown[: len(shown) - _partial_suffix(shown, self._echo)]
        if shown.endswith("\r"):
            shown = shown[:-1]
        return self._done + _crlf(shown)

    @property
    def size_at_most(self) -> int:
        """An upper bound of ``len(self.text)``, found at no cost."""
        return len(self._done) + len(self._pending)

    def chunks(self) -> tuple[str, ...]:
        """The output split at each line sent."""
        return split_at(self.text, self.marks)


def _partial_suffix(text: str, echo: str) -> int:
    """Length of the longest end of ``text`` that is a proper start of ``echo``."""
    for size in range(min(len(text), len(echo) - 1), 0, -1):
        if text.endswith(echo[:size]):
            return size
    return 0
