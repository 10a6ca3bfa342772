"""Nimsys whose advanced (Kayles) AI plays another move than the reference's, for the tests of
explore's reach into that AI (``test_kayles_ai.py``, ``test_ai_play.py``): a mutant of the
mutation benchmark's kind (:func:`explore.benchmark.mutant_main`), not one of its list."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from unittest import mock

from casino.nim.ai import NimAIPlayer
from casino.programs import MainFunction
from explore.benchmark import Mutant, mutant_main


def advanced_ai_main(
    name: str, bug: str, move: Callable[[Sequence[bool]], str], *, pinned: bool
) -> MainFunction:
    """Nimsys's ``main`` whose advanced AI plays ``move(available)`` (the stones left, as
    :meth:`NimAIPlayer.advanced_move` is given them) while it runs; ``name``, ``bug`` and
    ``pinned`` (whether it differs where the assignment fixes the move) as a
    :class:`~explore.benchmark.Mutant`'s."""

    def patch(stack: contextlib.ExitStack) -> None:
        def advanced_move(self: NimAIPlayer, available: Sequence[bool], last_move: str = "") -> str:
            return move(available)

        stack.enter_context(mock.patch.object(NimAIPlayer, "advanced_move", advanced_move))

    return mutant_main(Mutant(name, "nimsys", bug, patch, pinned))
