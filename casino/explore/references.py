"""The names ``casino explore --reference`` takes, each with its one line, without a grammar.

``casino explore --help`` lists them and a usage error names them; neither needs a grammar, and
each grammar imports its game's rules and the transcript model (:mod:`casino.explore.grammars`
builds them, each reading its line here). ``tests/explore/test_references.py`` checks that the
two agree, name for name and in order.
"""

from __future__ import annotations

ABOUT: dict[str, str] = {
    "nimsys": "Nimsys Project C: AI players, the advanced game, chains sharing players.dat",
    "nimsys-b": "Nimsys Project B: the eight commands, games between humans",
    "nimsys-a": "Nimsys Project A: names, bound, stones, moves, play again",
    "videopoker": "Double Bonus video poker, debug mode: generated cmd-file and card-file pairs",
    "demo": "casino's demo calculator: arithmetic, tables, store/recall across runs",
    "draw": "five-card draw: Player_1's answers to the seed's questions, a deck-file",
    "draw-choose": "five-card draw with --choose: Player_1's exchange typed too, a deck-file",
}
"""``--reference`` name → what its grammar covers, in one line (in ``GRAMMARS``' order)."""

RULES: dict[str, str] = {
    "stud-player": "three-card stud's player, judged by the seed's rules (explore is the dealer)",
}
"""``--reference`` names judged by rules instead of a reference (:mod:`casino.explore.stud`)."""
