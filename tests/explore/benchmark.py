"""The mutation benchmark's mutants (``benchmarks/mutants.py``) for the tests here, loaded from
that file by its path: ``benchmarks/`` is a folder of scripts, not a package, and on
``sys.path`` every module in it could stand in for an installed one for the whole session."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["MUTANTS", "PROGRAM_OF", "Mutant", "mutant_main"]

MUTANTS_FILE = Path(__file__).resolve().parents[2] / "benchmarks" / "mutants.py"


def load_file(name: str, path: Path) -> ModuleType:
    """The module in ``path`` as ``name``, registered before it runs (as an import does: its
    dataclasses look their module up); the one already registered if it is that file."""
    known = sys.modules.get(name)
    if known is not None and Path(known.__file__ or "") == path:
        return known
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:  # mypy reads benchmarks/mutants.py as the module ``mutants`` (one of its files)
    from mutants import MUTANTS, PROGRAM_OF, Mutant, mutant_main
else:
    _MUTANTS = load_file("mutants", MUTANTS_FILE)
    MUTANTS, PROGRAM_OF = _MUTANTS.MUTANTS, _MUTANTS.PROGRAM_OF
    Mutant, mutant_main = _MUTANTS.Mutant, _MUTANTS.mutant_main
