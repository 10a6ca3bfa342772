"""``docs/build_docs.py`` loaded as a module, for the tests of what it builds (the class
diagrams, the single-file program)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def build_docs() -> ModuleType:
    """``docs/build_docs.py`` as a module."""
    spec = importlib.util.spec_from_file_location("build_docs", ROOT / "docs" / "build_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
