"""A sign of life for the slow steps: one line on stderr when it is a terminal, nothing else.

The work itself only calls a :data:`Progress` hook with ``(done, total)``; a front end that
wants the user to see it passes :meth:`StatusLine.meter`. The line is rewritten in place
(``\\r``), only when its text changes, and erased when the work is over, so it never mixes
with the program's output or with a pipe's or a file's contents::

    building the strategy table (once): 43%
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import TextIO

Progress = Callable[[int, int], None]
"""Called with (units done, units in all) as a long step goes on."""

ERASE = "\r\x1b[K"
"""Back to the start of the line and erase it (a terminal's carriage return and EL)."""


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class StatusLine:
    """The progress line of one command on ``stream``: shown only if ``stream`` is a terminal.

    Use it as a context manager: the line is erased on leaving, however the work ended.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream if _is_terminal(stream) else None
        self._text = ""

    @property
    def active(self) -> bool:
        """True when the line is shown at all (the stream is a terminal)."""
        return self._stream is not None

    def show(self, text: str) -> None:
        """Replace the line's text with ``text``."""
        if self._stream is None or text == self._text:
            return
        self._text = text
        self._stream.write(ERASE + text)
        self._stream.flush()

    def meter(self, label: str, unit: str = "") -> Progress:
        """A :data:`Progress` hook showing ``label: 43%`` (and ``(3 of 7 unit)`` if named)."""

        def report(done: int, total: int) -> None:
            text = f"{label}: {done * 100 // max(total, 1)}%"
            self.show(f"{text} ({done} of {total} {unit})" if unit else text)

        return report

    def clear(self) -> None:
        """Erase the line (the cursor is left at the start of an empty line)."""
        if self._stream is not None and self._text:
            self._text = ""
            self._stream.write(ERASE)
            self._stream.flush()

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.clear()
