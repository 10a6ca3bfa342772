"""Hand names as the CASINO-ROYAL seed writes them, in Spanish and English.

=========================  ====================================  ===============================
category                   Spanish (the seed)                    English
=========================  ====================================  ===============================
royal flush                Escalera real de color                Royal flush
straight flush             Escalera de color                     Straight flush
four of a kind             Póker                                 Four of a kind
full house                 Full de nueves y ochos                Full house, nines over eights
flush                      Color                                 Flush
straight                   Escalera al 5, Escalera a la Dama     Straight, five high
three of a kind            Trío de cincos                        Three of a kind, fives
two pair                   Doble pareja de seises y nueves       Two pair, nines and sixes
pair                       Pareja de sietes, Pareja de ases      Pair of sevens
high card                  Carta más alta: As                    High card: ace
=========================  ====================================  ===============================

One card is named as the seed names it in its examples, a number in digits and a face in words
("Escalera al 5", "Escalera al As", "Carta más alta: Dama"); a straight's top card takes the
article that agrees with it ("Escalera a la Dama", "Escalera al Rey"). A group of equal cards
is named in the plural, in words, for every rank alike ("Pareja de sietes", "Pareja de ases",
"Trío de cincos"), as the seed writes the full house ("Full de nueves") and two pair ("Dobles
parejas de seises y nueves"); its shorthand "Pareja de 10" and "Trío de 5" would mix digits and
words across ranks ("Pareja de 7" beside "Pareja de As"). The seed names two pair lower pair
first ("de seises y nueves") and the full house trips first; the ace-high straight is "Escalera
al As" (the seed's first example; it also calls it "Escalera real", a name kept here for the
royal flush). The templates and rank words are gettext messages of the ``holdem`` domain
(English ids), so the Spanish lives in the one catalog with the rest of the game's text.
"""

from __future__ import annotations

import gettext

from casino.cards.ranking import Category, HandValue

_SINGULAR = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
_PLURAL = {
    2: "twos",
    3: "threes",
    4: "fours",
    5: "fives",
    6: "sixes",
    7: "sevens",
    8: "eights",
    9: "nines",
    10: "tens",
    11: "jacks",
    12: "queens",
    13: "kings",
    14: "aces",
}
_HIGH = {**_SINGULAR, 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
_HIGH |= {8: "eight", 9: "nine", 10: "ten"}


_TEMPLATES = {
    Category.STRAIGHT_FLUSH: "Straight flush",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.FULL_HOUSE: "Full house, {first_ranks} over {second_ranks}",
    Category.FLUSH: "Flush",
    Category.STRAIGHT: "Straight, {first_high} high",
    Category.THREE_OF_A_KIND: "Three of a kind, {first_ranks}",
    Category.TWO_PAIR: "Two pair, {first_ranks} and {second_ranks}",
    Category.ONE_PAIR: "Pair of {first_ranks}",
    Category.HIGH_CARD: "High card: {first_rank}",
}
"""Each category's name template: an English message id, translated in :func:`hand_name`."""
ROYAL = "Royal flush"


def hand_name(strength: int, tr: gettext.NullTranslations) -> str:
    """The name of the hand whose evaluator strength is ``strength``, in ``tr``'s language."""
    value = HandValue(strength)
    category = value.category
    ranks = value.ranks
    if category is Category.STRAIGHT_FLUSH and ranks[0] == 14:
        return tr.gettext(ROYAL)
    first, second = ranks[0], ranks[1] if len(ranks) > 1 else ranks[0]
    words = {
        "first_rank": tr.pgettext("rank", _SINGULAR[first]),
        "first_ranks": tr.pgettext("ranks", _PLURAL[first]),
        "first_high": tr.pgettext("high", _HIGH[first]),
        # Spanish names a straight by its top card with its article: "al 5", "a la Dama".
        "top": tr.pgettext("top", _HIGH[first]),
        "second_ranks": tr.pgettext("ranks", _PLURAL[second]),
        # Spanish puts the lower pair of two pair first ("de seises y nueves").
        "low_ranks": tr.pgettext("ranks", _PLURAL[second]),
        "high_ranks": tr.pgettext("ranks", _PLURAL[first]),
    }
    return tr.gettext(_TEMPLATES[category]).format(**words)
