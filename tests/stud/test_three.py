"""Three-card hand values: the seed's order, on the HandValue scale."""

from __future__ import annotations

import itertools
from collections import Counter

from casino.cards import FULL_DECK, Category, parse_cards
from casino.cards.three import strength_of_ranks, three_card_strength, three_card_value


def value(text: str) -> tuple[Category, tuple[int, ...]]:
    hand = three_card_value(parse_cards(text))
    return hand.category, hand.ranks


def test_categories_and_tie_break_ranks() -> None:
    assert value("10S 10D 10C") == (Category.THREE_OF_A_KIND, (10,))
    assert value("QS 3D QC") == (Category.ONE_PAIR, (12, 3))
    assert value("2S KD 9C") == (Category.HIGH_CARD, (13, 9, 2))


def test_seed_order() -> None:
    ordered = ["AS KD JC", "2S 2D 3C", "2S 2D 4C", "3S 3D 2C", "AS AD KC", "2S 2D 2C", "AS AH AC"]
    values = [three_card_value(parse_cards(hand)) for hand in ordered]
    assert values == sorted(values)
    assert len(set(values)) == len(values)


def test_suits_never_matter_and_no_straights_or_flushes() -> None:
    assert three_card_value(parse_cards("QS KS AS")) == three_card_value(parse_cards("QD KC AH"))
    assert three_card_value(parse_cards("QS KS AS")) < three_card_value(parse_cards("2D 2C 3H"))


def _oracle(ranks: tuple[int, ...]) -> tuple[int, list[int]]:
    counts = Counter(ranks)
    return max(counts.values()), sorted(ranks, key=lambda r: (counts[r], r), reverse=True)


def test_order_agrees_with_an_independent_oracle_on_every_rank_triple() -> None:
    triples = list(itertools.combinations_with_replacement(range(2, 15), 3))
    by_value = sorted(triples, key=lambda t: strength_of_ranks(*t))
    by_oracle = sorted(triples, key=_oracle)
    assert [strength_of_ranks(*t) for t in by_value] == [strength_of_ranks(*t) for t in by_oracle]
    for triple in triples:
        for perm in itertools.permutations(triple):
            assert three_card_strength(*perm) == strength_of_ranks(*triple)


def test_every_hand_of_the_deck_has_a_three_card_category() -> None:
    seen = {three_card_value(hand).category for hand in itertools.combinations(FULL_DECK[:12], 3)}
    assert seen == {Category.HIGH_CARD, Category.ONE_PAIR, Category.THREE_OF_A_KIND}
