"""The pay line of every five-card hand, as one table indexed by hand number.

``payline_by_hand()[hand_number(indices)]`` is the position of the hand's :class:`PayLine`
in ``PAYLINES`` (best first). The 2,598,960-byte table is built in half a second from the
one evaluator (:func:`~casino.cards.evaluator.five_card_strengths`, mapped to pay lines by
:func:`~casino.videopoker.paytable.classify_value`) and kept in the on-disk cache, so
simulation and the exact analyzer look hands up instead of ranking them.
"""

from __future__ import annotations

import functools

from casino import cache
from casino.cards import HandValue
from casino.cards.evaluator import five_card_strengths
from casino.videopoker.paytable import PayLine, PayTable, classify_value

PAYLINES: tuple[PayLine, ...] = tuple(PayLine)
"""Pay lines in table-code order: code ``i`` is ``PAYLINES[i]``."""

LINE_CODE: dict[PayLine, int] = {line: code for code, line in enumerate(PAYLINES)}
"""The table code of each pay line: ``PAYLINES[LINE_CODE[line]] is line``."""


def payouts(table: PayTable, bet: int) -> list[int]:
    """The payout of each pay-line code at ``bet`` credits."""
    return [table.payout(line, bet) for line in PAYLINES]


_VERSION = "1"


def _build() -> bytes:
    strengths = five_card_strengths()
    line_code = {value: LINE_CODE[classify_value(HandValue(value))] for value in set(strengths)}
    return bytes(map(line_code.__getitem__, strengths))


@functools.cache
def payline_by_hand() -> bytes:
    """One byte per hand number: the code of that hand's pay line."""
    return cache.load_or_build("paylines", _VERSION, _build)
