#!/usr/bin/env python3
"""Five-card draw, as the course's graders run it: ``python3 Play5CardDraw.py`` from the top
of the repository.

It is ``casino draw`` exactly (:mod:`casino.draw.cli`: the same options, prompts, messages and
exit statuses; ``--help`` lists them), with nothing but the standard library and this
repository: no install, no virtual environment. The repository's folder is put first on
``sys.path`` so that ``casino`` is found beside this file, wherever it is run from.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from casino.cmdline import invoked_as
from casino.draw.cli import main

if __name__ == "__main__":
    with invoked_as(Path(sys.argv[0]).name):
        status = main()
    raise SystemExit(status)
