"""The grammars explore knows, by the name ``--reference`` takes."""

from __future__ import annotations

import dataclasses

from casino.explore.demo import DemoGrammar
from casino.explore.draw import DrawGrammar
from casino.explore.nimsys import NimsysGrammar
from casino.explore.plan import Grammar
from casino.explore.references import RULES as RULES
from casino.explore.videopoker import VideoPokerGrammar

GRAMMARS: dict[str, Grammar] = {
    grammar.name: grammar
    for grammar in (
        NimsysGrammar("c"),
        NimsysGrammar("b"),
        NimsysGrammar("a"),
        VideoPokerGrammar(),
        DemoGrammar(),
        DrawGrammar(choose=False),
        DrawGrammar(choose=True),
    )
}
"""``--reference`` name → its grammar."""


def grammar_of(name: str) -> Grammar:
    """The grammar called ``name``; ``KeyError`` naming the known ones if there is none."""
    try:
        return GRAMMARS[name]
    except KeyError:
        raise KeyError(f"no grammar for {name!r} (explore knows: {', '.join(GRAMMARS)})") from None


def with_choices(grammar: Grammar) -> Grammar | None:
    """``grammar`` exploring casino's own choices too (``--choices``): Nimsys Project C's and
    video poker's; ``None`` for a grammar that has none to explore."""
    if not dataclasses.is_dataclass(grammar) or "choices" not in {
        each.name for each in dataclasses.fields(grammar)
    }:
        return None
    if getattr(grammar, "stage", "c") != "c":
        return None
    return dataclasses.replace(grammar, choices=True)
