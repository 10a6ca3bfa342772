"""``casino explore``'s list of references agrees with the grammars it builds."""

from __future__ import annotations

from casino.explore import references
from casino.explore.grammars import GRAMMARS, RULES


def test_the_references_are_the_grammars_in_their_order() -> None:
    assert list(references.ABOUT) == list(GRAMMARS)
    assert [grammar.about for grammar in GRAMMARS.values()] == list(references.ABOUT.values())


def test_a_reference_judged_by_rules_is_no_grammar() -> None:
    assert RULES is references.RULES
    assert not set(RULES) & set(GRAMMARS)
