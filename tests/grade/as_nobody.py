"""What another user (nobody) needs to run casino with the system's ``/usr/bin/python3``: a
copy of the checkout's ``casino`` and of the packages it imports, readable by everyone. The test
environment's own ``site-packages`` may be private to its owner (tox keeps ``.tox`` at mode
0700), and so may the checkout (a clone inside a 0700 folder such as ``mktemp -d`` makes), so
nobody could not import them from there."""

from __future__ import annotations

import importlib.util
import shutil
import stat
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("yaml", "_yaml", "pexpect", "ptyprocess")
"""What casino's harness and grader import beyond the standard library."""


def nobody_pythonpath(scratch: Path, *modules: Path) -> str:
    """``PYTHONPATH`` for nobody: the checkout's ``casino``, the test ``modules`` and
    :data:`PACKAGES` copied into ``scratch`` (made readable and searchable by everyone)."""
    site = scratch / "site-packages"
    site.mkdir(parents=True, exist_ok=True)
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "casino", site / "casino", ignore=skip, dirs_exist_ok=True)
    for module in modules:
        shutil.copy2(module, site / module.name)
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        origin = Path(spec.origin)
        if spec.submodule_search_locations:
            shutil.copytree(origin.parent, site / name, dirs_exist_ok=True)
        else:
            shutil.copy2(origin, site / origin.name)
    for path in [scratch, *scratch.rglob("*")]:
        searchable = stat.S_IXGRP | stat.S_IXOTH if path.is_dir() else 0
        path.chmod(path.stat().st_mode | stat.S_IRGRP | stat.S_IROTH | searchable)
    return str(site)
