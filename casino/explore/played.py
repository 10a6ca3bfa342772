"""Games explore plays against a program's AI, where the sessions cannot judge it.

Where the assignment lets an AI choose among several winning moves (Project C's advanced
game), a generated session cannot pin what the program prints after the AI's turn, so the
sessions keep an AI seat only where each of its moves is pinned. What a "victory guaranteed"
AI must do everywhere else is win: a grammar's optional ``plays(seed, name)`` gives the
transcripts with a ``play:`` block (:mod:`casino.harness.playspec`) that explore judges after
its sessions, by the one judge (:func:`casino.explore.judge.judge`, as ``casino replay`` judges
a play), and :class:`Plays` says which group a failed one is reported in and which optional
part it belongs to (not played where that part was found missing).

A failed play is shrunk (:func:`reshaped` makes each candidate) to the fewest stones whose
games still fail, then to one game of them (the rival's choices come from the transcript's
seed and the game's number, so the one game is searched among :data:`SEED_TRIES` seeds);
who moves first and how the rival plays are kept.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from casino.explore.plan import OptionalPart
from casino.harness.model import Run, Transcript
from casino.harness.playspec import Play

SEED_TRIES = 20
"""One-game plays tried (seeds ``seed``, ``seed + 1`` …) at the fewest stones that fail, before
the play of all their games is kept as the smallest."""


@dataclass(frozen=True)
class Plays:
    """The plays a grammar has explore judge, the group a failed one is reported in, and the
    optional part they belong to (``None``: none)."""

    group: str
    part: OptionalPart | None
    transcripts: tuple[Transcript, ...]


def play_transcript(name: str, program: str, play: Play, seed: int) -> Transcript:
    """A transcript that plays ``play`` against ``program`` (its rival's choices from
    ``seed``), as ``casino replay`` reads one."""
    return Transcript(name=name, runs=(Run(steps=()),), program=program, seed=seed, play=play)


def games(first: str, rival: str, low: int, high: int, each: int, game: str) -> Play:
    """``each`` games at every size from ``low`` to ``high`` stones (written as a range)."""
    sizes = tuple(range(low, high + 1))
    return Play(game, first, rival, sizes, each, f"{low}-{high}")


def reshaped(transcript: Transcript, size: int, each: int, seed: int) -> Transcript:
    """``transcript``'s play at ``size`` stones only, ``each`` games, the rival's choices from
    ``seed`` (who moves first and how the rival plays kept), named for what it plays."""
    play = transcript.play
    assert play is not None
    smaller = replace(play, sizes=(size,), games=each, sizes_text=f"{size}-{size}")
    base = transcript.name.partition(" | ")[0]
    name = f"{base} | {smaller.describe()}, seed {seed}"
    return replace(transcript, name=name, seed=seed, play=smaller)


def one_game(transcript: Transcript) -> bool:
    """Whether ``transcript`` plays one game only (the smallest play)."""
    return transcript.play is not None and transcript.play.total == 1
