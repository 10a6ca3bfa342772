"""pytest plugin: every ``transcripts/**/*.yaml`` is a test item, run in-process.

Registered as the ``pytest11`` entry point ``casino_transcripts``, so ``pytest`` collects the
golden transcripts next to the unit tests (the project's ``testpaths`` include
``transcripts``). Only YAML files with a directory named ``transcripts`` somewhere above them
(below the rootdir) are collected; other YAML is left alone. A failure shows the same report
as ``casino replay``. Set ``casino_transcripts = false`` in the ini file to switch it off.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from casino.errors import CasinoError
from casino.harness.load import is_settings_file, load_transcript
from casino.harness.model import Transcript, TranscriptError
from casino.harness.report import render
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import check

_RUNNER = InProcessRunner()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ini switch."""
    parser.addini(
        "casino_transcripts",
        type="bool",
        default=True,
        help="collect transcripts/**/*.yaml as casino transcript tests",
    )


def is_transcript(path: Path, rootpath: Path) -> bool:
    """A ``.yaml`` file below a directory named ``transcripts`` (within the rootdir), but a
    folder's settings file (``casino.yaml``)."""
    if path.suffix != ".yaml" or is_settings_file(path):
        return False
    try:
        parts = path.relative_to(rootpath).parts
    except ValueError:
        parts = path.parts
    return "transcripts" in parts[:-1]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect transcripts as :class:`TranscriptFile`."""
    config = parent.config
    if config.getini("casino_transcripts") and is_transcript(file_path, config.rootpath):
        collector: pytest.Collector = TranscriptFile.from_parent(parent, path=file_path)
        return collector
    return None


class TranscriptFailed(CasinoError):
    """A transcript that failed; the message is the replay report."""


class TranscriptFile(pytest.File):
    """One transcript file: one item, named after the file."""

    def collect(self) -> Iterator[pytest.Item]:
        """The transcript as an item (a malformed one becomes an item that fails).

        Nothing a file holds may stop the collection of the others: even a failure of the
        loader itself becomes that one item's failure.
        """
        try:
            transcript: Transcript | None = load_transcript(self.path)
            error = None
        except TranscriptError as problem:
            transcript, error = None, str(problem)
        except Exception as bug:  # reported as this item's failure, not a collection crash
            transcript, error = None, f"{self.path}: cannot be loaded: {bug!r}"
        yield TranscriptItem.from_parent(
            self, name=self.path.stem, transcript=transcript, error=error
        )


class TranscriptItem(pytest.Item):
    """Replays one transcript against casino's own program, in-process."""

    def __init__(self, *, transcript: Transcript | None, error: str | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.transcript = transcript
        self.error = error

    def _shown(self, text: str) -> str:
        """``text`` with this file's absolute path written relative to where pytest runs."""
        relative = os.path.relpath(self.path, self.config.invocation_params.dir)
        return text.replace(str(self.path), relative)

    def runtest(self) -> None:
        """Replay; raise :class:`TranscriptFailed` with the report if it does not pass."""
        if self.transcript is None:
            raise TranscriptFailed(self._shown(self.error or "not a transcript"))
        result = check(self.transcript, _RUNNER, Target(self.transcript.program))
        if not result.passed:
            raise TranscriptFailed(self._shown(render(result)))

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | Any:
        """The replay report, not a Python traceback."""
        if isinstance(excinfo.value, TranscriptFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where and what this item is."""
        name = self.transcript.name if self.transcript else self.path.stem
        return self.path, None, f"transcript: {name}"
