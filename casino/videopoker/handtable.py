"""The pay line of every five-card hand, as one table indexed by hand number.

``payline_by_hand()[hand_number(indices)]`` is the position of the hand's :class:`PayLine`
in ``PAYLINES`` (best first). The 2,598,960-byte table is built from
:func:`~casino.videopoker.paytable.classify` (the one hand evaluator) and kept in the
on-disk cache, so simulation and the exact analyzer look hands up instead of ranking them.
"""

from __future__ import annotations

import functools

from casino import cache
from casino.cards import FULL_DECK
from casino.cards.combos import all_hands
from casino.videopoker.paytable import PayLine, classify

PAYLINES: tuple[PayLine, ...] = tuple(PayLine)
"""Pay lines in table-code order: code ``i`` is ``PAYLINES[i]``."""

_VERSION = "1"


def _build() -> bytes:
    code = {line: index for index, line in enumerate(PAYLINES)}
    deck = FULL_DECK
    return bytes(
        code[classify((deck[a], deck[b], deck[c], deck[d], deck[e]))]
        for a, b, c, d, e in all_hands()
    )


@functools.cache
def payline_by_hand() -> bytes:
    """One byte per hand number: the code of that hand's pay line."""
    return cache.load_or_build("paylines", _VERSION, _build)
