"""``casino explore --out DIR``: a fixed suite of generated transcripts (hidden tests).

The first N sessions for a seed, each recorded from casino's reference, are written as
``DIR/explore-0001.yaml`` … (atomically; a session the reference does not accept is
skipped, and the next one taken). The same seed always writes the same suite, so every
student is graded on the same hidden tests.
"""

from __future__ import annotations

from pathlib import Path

from casino.explore.engine import sessions
from casino.explore.judge import reference_transcript
from casino.explore.plan import Grammar
from casino.files import write_atomic
from casino.harness.dump import dump_transcript


def write_suite(grammar: Grammar, seed: int, count: int, folder: Path) -> int:
    """Write ``count`` transcripts into ``folder`` (created); how many were written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for number, session in enumerate(sessions(grammar, seed), 1):
        if written == count or number > count * 10:
            break
        name = f"explored {grammar.name} session {number} (seed {seed})"
        transcript = reference_transcript(grammar, session, name)
        if transcript is None:
            continue
        written += 1
        write_atomic(folder / f"explore-{written:04d}.yaml", dump_transcript(transcript))
    return written
