"""Every ``>>>`` example in ``casino/`` runs, and passes: a test finds the modules that have
one (so a new example runs without being listed) and runs :mod:`doctest` on each."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def modules_with_examples() -> list[str]:
    """The dotted names of the modules of ``casino/`` whose text holds a ``>>>`` example."""
    names = []
    for path in sorted((ROOT / "casino").rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def test_the_examples_are_found() -> None:
    """The finder finds the known ones (so the test below is not vacuous)."""
    assert {"casino.clock", "casino.page", "casino.cards.three"} <= set(modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_examples_pass(name: str) -> None:
    """Each module's examples all pass, and it has at least one that ran."""
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0
    assert results.failed == 0
