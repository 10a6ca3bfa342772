"""The transcript harness: replay golden sessions against any program, grader-style.

``casino replay`` checks transcripts (``transcripts/<game>/*.yaml``) against casino's own
programs in-process, or against any command through a pipe or a pseudo-terminal, and reports
the first differing step with its line and column; ``casino record`` captures a session;
``casino replay --update`` blesses the current output; the pytest plugin makes every transcript
a test item; a ``play:`` transcript has casino play the rival's side of real games against a
program's AI and judge who won. See ``casino/harness/README.md`` for the format and every choice
made.
"""

__all__ = [
    "behaviour",
    "cli",
    "command",
    "diff",
    "dump",
    "formats",
    "judging",
    "load",
    "matching",
    "model",
    "names",
    "nearmiss",
    "parse",
    "play",
    "playspec",
    "pytest_plugin",
    "record",
    "referee",
    "regex",
    "report",
    "rubric",
    "runners",
    "session",
    "update",
    "yamltext",
]
"""The public modules (``from casino.harness import *`` imports them all)."""
