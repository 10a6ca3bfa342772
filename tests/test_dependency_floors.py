"""``constraints/oldest.txt`` pins exactly the floors ``pyproject.toml`` declares, so that
``tox -e oldest`` tests the lowest versions casino says it works with, and a raised floor is
raised in both places.

Counted: casino's dependencies and those of the extras the tests install (``test`` and the
extras it names), each with one floor (``>=``) or one exact version (``==``). ``ray`` and
``dev`` are left out: no test environment installs them at their floor.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
EXTRA_PINS = {"psycopg-binary": "psycopg"}
"""Pins of what an extra of a dependency brings (``psycopg[binary]``), at its version."""


def requirements_tested(project: dict[str, Any]) -> list[Requirement]:
    """The dependencies, and those of ``test`` and of every extra of casino it names."""
    extras: dict[str, list[str]] = project["optional-dependencies"]
    found = [Requirement(text) for text in project["dependencies"]]
    todo, seen = ["test"], set()
    while todo:
        extra = todo.pop()
        seen.add(extra)
        for requirement in map(Requirement, extras[extra]):
            if requirement.name == "casino":
                todo += sorted(requirement.extras - seen)
            else:
                found.append(requirement)
    return found


def floors() -> dict[str, str]:
    """Each tested dependency's lowest allowed version, by normalised name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lowest: dict[str, str] = {}
    for requirement in requirements_tested(project):
        (specifier,) = requirement.specifier  # one bound, and it is the floor
        assert specifier.operator in (">=", "=="), requirement
        lowest[canonicalize_name(requirement.name)] = specifier.version
    return lowest


def pins(text: str) -> dict[str, str]:
    """``name==version`` lines (comments and blank lines aside), by normalised name."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        line = line.partition("#")[0].strip()
        if line:
            match = re.fullmatch(r"([A-Za-z0-9._-]+)==([0-9][0-9A-Za-z.]*)", line)
            assert match, f"not a pin: {line!r}"
            found[canonicalize_name(match[1])] = match[2]
    return found


def test_the_oldest_constraints_pin_the_declared_floors() -> None:
    pinned = pins((ROOT / "constraints" / "oldest.txt").read_text(encoding="utf-8"))
    for extra, parent in EXTRA_PINS.items():
        assert pinned.pop(extra) == pinned[parent]
    assert pinned == floors()


def test_the_floors_are_read_from_the_extras_the_tests_install() -> None:
    lowest = floors()
    assert {"pyyaml", "pexpect", "pytest", "aiohttp", "psycopg"} <= set(lowest)
    assert "ray" not in lowest and "mypy" not in lowest
    assert pins("a==1.0  # why\n\n# note\nB_c==2.3.4\n") == {"a": "1.0", "b-c": "2.3.4"}
