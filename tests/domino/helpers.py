"""Shared helpers for the dominoes tests."""

from __future__ import annotations

from casino.domino.rules import HandState
from casino.domino.tiles import ALL_TILES, Tile


def every_tile(state: HandState) -> list[Tile]:
    """Every tile the hand holds somewhere, sorted: hands, line and boneyard."""
    return sorted(
        [*state.hands[0], *state.hands[1], *(p.tile for p in state.line), *state.boneyard]
    )


def check_invariants(state: HandState) -> None:
    """The 28 tiles are each in one place; the line's neighbours match; each placed tile
    lies as the tile it is."""
    assert every_tile(state) == list(ALL_TILES)
    for placed in state.line:
        assert sorted((placed.left, placed.right)) == [placed.tile.low, placed.tile.high]
    for a, b in zip(state.line, state.line[1:], strict=False):
        assert a.right == b.left
