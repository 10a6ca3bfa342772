"""The packages others import say what is theirs: ``casino`` ships ``py.typed`` (PEP 561: a
type checker reads its annotations), and ``casino.harness`` and ``casino.grade`` each name
their public modules in ``__all__``."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_py_typed_ships() -> None:
    """The marker is there and is package data (so a wheel carries it)."""
    assert (ROOT / "casino" / "py.typed").is_file()
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in setup["tool"]["setuptools"]["package-data"]["casino"]


@pytest.mark.parametrize("package", ["casino.harness", "casino.grade"])
def test_all_names_every_public_module(package: str) -> None:
    """``__all__`` is exactly the modules (and subpackages) not named ``_…``, and each
    imports."""
    folder = ROOT.joinpath(*package.split("."))
    public = {p.stem for p in folder.glob("*.py") if not p.name.startswith("_")}
    public |= {p.parent.name for p in folder.glob("*/__init__.py")}
    module = importlib.import_module(package)
    assert sorted(module.__all__) == sorted(public)
    for name in module.__all__:
        importlib.import_module(f"{package}.{name}")
