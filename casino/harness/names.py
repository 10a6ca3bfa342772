"""The harness's closed vocabularies that a command line lists before it runs anything.

``casino replay --help`` and a replay that finds nothing to run show these names but need none
of the modules behind them (:mod:`casino.harness.model`, the runners, the report formats): a
replay's start-up is paid by every student who checks their work. Each module that defines the
thing itself uses these names, and ``tests/harness/test_names.py`` checks that they agree.
"""

from __future__ import annotations

MATCH_KINDS = ("trailing-space", "blank-lines", "case")
"""What a transcript, a folder or ``--match`` may allow besides exact output:
``trailing-space`` (spaces, tabs and ``\\r`` at the end of a line, and a missing or extra final
newline), ``blank-lines`` (empty lines added or left out) and ``case`` (letter case)."""

RUNNER_NAMES: tuple[str, ...] = ("inproc", "pipe", "pty")
"""The runners' names as ``--runner`` lists them
(:class:`~casino.harness.runners.base.RunnerName`)."""

REPORT_FORMATS: tuple[str, ...] = ("json", "junit", "gradescope", "classroom")
"""The report formats of ``--report``, in :data:`casino.harness.formats.FORMATS`' order."""
