"""``casino explore --out DIR``: a fixed suite of generated transcripts (hidden tests).

The first N sessions for a seed, each recorded from casino's reference, are written as
``DIR/explore-0001.yaml`` … (atomically; a session the reference does not accept is
skipped, and the next one taken). Where the grammar has explore play a part the sessions
cannot pin (Project C's advanced AI: ``plays``), those ``play:`` transcripts are written too,
as ``DIR/explore-play-1.yaml`` … (the AI first and second, 1 to 11 stones, the rival's choices
drawn from the seed). The same seed always writes the same suite, so every student is graded
on the same hidden tests.
"""

from __future__ import annotations

from pathlib import Path

from casino.explore.engine import sessions
from casino.explore.judge import reference_transcript
from casino.explore.plan import Grammar
from casino.files import write_atomic
from casino.harness.dump import dump_transcript


def write_suite(grammar: Grammar, seed: int, count: int, folder: Path) -> tuple[int, int]:
    """Write ``count`` transcripts into ``folder`` (created), and the grammar's plays; how
    many of each were written."""
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
    make_plays = getattr(grammar, "plays", None)  # optional: see plan.Grammar
    plays = make_plays(seed, f"explored {grammar.name}") if make_plays is not None else None
    transcripts = () if plays is None else plays.transcripts
    for index, play in enumerate(transcripts, 1):
        write_atomic(folder / f"explore-play-{index}.yaml", dump_transcript(play))
    return written, len(transcripts)
