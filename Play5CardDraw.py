#!/usr/bin/env python3
"""Five-card draw, as the course's graders run it: ``python3 Play5CardDraw.py``
from the top of the repository.

It is ``casino draw`` exactly (:mod:`casino.draw.cli`: the same options,
prompts, messages and exit statuses; ``--help`` lists them), with nothing but
the standard library and this repository: no install, no virtual environment.
The repository's folder is put first on ``sys.path`` so that ``casino`` is
found beside this file, wherever it is run from.

Clean under plain ``pycodestyle`` (its default settings: the five-card draw
rubric grades "pycodestyle produces no warnings"), and written so that an older
Python parses it (nothing newer than Python 3.8 here): one that cannot run
casino is told, in one line, what it needs (status 1), never a traceback.
"""

import sys
from pathlib import Path

NEEDED = (3, 11)
"""The oldest Python casino runs on (``requires-python`` in pyproject.toml)."""


def too_old(version: "tuple[int, ...]") -> "str | None":
    """The line an older Python than :data:`NEEDED` is told, else ``None``."""
    if tuple(version[:2]) >= NEEDED:
        return None
    return "{}: needs Python {}.{} or newer; this is Python {}".format(
        Path(sys.argv[0]).name or "Play5CardDraw.py",
        NEEDED[0],
        NEEDED[1],
        ".".join(str(part) for part in version[:3]),
    )


def run() -> int:
    """``casino draw`` under this file's name, with the repository on the path
    (imported here, after the version is checked)."""
    problem = too_old(sys.version_info[:3])
    if problem is not None:
        sys.stderr.write(problem + "\n")
        return 1
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from casino.cmdline import invoked_as
    from casino.draw.cli import main

    with invoked_as(Path(sys.argv[0]).name):
        return main()


if __name__ == "__main__":
    raise SystemExit(run())
