"""Imports go one way between casino's layers (``docs/design.md``, *Imports go one way*).

Every import in ``casino/`` counts, lazy ones inside functions and ``TYPE_CHECKING`` ones too:

- the games (:data:`GAMES`, and every top-level module but ``__main__`` and ``manpage``, which
  sit at the top) import nothing of :data:`ABOVE_GAMES`, but for the edges of :data:`ALLOWED`;
- the harness imports nothing of ``grade``, ``explore`` or ``web``;
- ``grade`` and ``explore`` import nothing of ``web``.

:data:`ALLOWED` is the one table of the exceptions, and ``docs/design.md`` states the same
table (checked here): an exception no longer used fails too, so that the table stays true.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "casino"
DESIGN = ROOT / "docs" / "design.md"

GAMES = ("cards", "nim", "videopoker", "draw", "stud", "domino", "holdem", "net")
"""The game packages (``casino.<name>``)."""
TOP = ("__main__", "manpage")
"""The top-level modules above every layer (they dispatch to, or document, all of them)."""
ABOVE_GAMES = ("harness", "grade", "explore", "web")

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "game": ABOVE_GAMES,
    "harness": ("grade", "explore", "web"),
    "grade": ("web",),
    "explore": ("web",),
}
"""Each layer and the packages (``casino.<name>``) it must not import."""

ALLOWED: dict[tuple[str, str], str] = {
    ("casino.stud.check", "casino.harness.runners.base"): (
        "a player's stderr kept as a run's, the sandbox's own noise left out"
    ),
    ("casino.stud.launch", "casino.harness.runners.base"): "a player's command found as a run's",
    ("casino.stud.launch", "casino.harness.runners.sandbox"): "a player started in a run's sandbox",
    ("casino.stud.report", "casino.harness.formats"): "the report in the harness's formats",
    ("casino.stud.report", "casino.harness.report"): "points and stderr shown as replay shows them",
    ("casino.stud.report", "casino.harness.session"): "a rubric line's status as a transcript's",
}
"""The one table of the imports a lower layer may make of a higher one: (importer, imported
module) → why. Three-card stud's tester writes the harness's report formats and starts each
player as the harness starts a run."""


@dataclass(frozen=True)
class Import:
    """One import statement: where it is and the module it imports."""

    path: str
    """The file, from the folder the package is in (``casino/stud/cli.py``)."""
    line: int
    source: str
    target: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.source} imports {self.target}"


def module_name(path: Path, top: Path) -> str:
    """``casino/stud/cli.py`` -> ``casino.stud.cli``; a package's ``__init__`` -> the package."""
    parts = list(path.relative_to(top.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names an import names: ``import a.b`` -> ``a.b``; ``from a import b`` ->
    ``a.b`` (``b`` may be a module); relative imports made absolute."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        anchor = module.split(".") if is_package else module.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, *([base] if base else [])])
    return [f"{base}.{alias.name}" for alias in node.names]


def imports(top: Path) -> Iterator[Import]:
    """Every import of a module of the package at ``top``, resolved to the module it loads (the
    longest name that is a module of the package; others, the standard library's, left out)."""
    paths = {module_name(path, top): path for path in sorted(top.rglob("*.py"))}

    def resolve(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = path.relative_to(top.parent).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            names = _targets(node, module, path.name == "__init__.py")
            targets = dict.fromkeys(resolve(name) for name in names)  # once per statement
            for target in targets:
                if target is not None and target != module:
                    yield Import(where, node.lineno, module, target)


def layer(module: str, top: str = "casino") -> str:
    """The layer of ``module``: ``game`` (a game package or a top-level module below the
    others), ``top`` (``__main__``, ``manpage``, the package itself) or the package's name."""
    parts = module.split(".")
    if len(parts) == 1 or parts[0] != top:
        return "top"
    if parts[1] in GAMES:
        return "game"
    if len(parts) == 2 and parts[1] not in ABOVE_GAMES:
        return "top" if parts[1] in TOP else "game"
    return parts[1]


def offending(top: Path, allowed: dict[tuple[str, str], str]) -> list[str]:
    """Each import of the package at ``top`` that goes the wrong way and is not ``allowed``,
    as ``path:line: source imports target``."""
    wrong = []
    for found in imports(top):
        target = found.target.split(".")
        banned = FORBIDDEN.get(layer(found.source, top.name), ())
        if len(target) > 1 and target[1] in banned and (found.source, found.target) not in allowed:
            wrong.append(str(found))
    return wrong


def test_imports_go_one_way() -> None:
    wrong = offending(PACKAGE, ALLOWED)
    assert not wrong, "imports against the layers (docs/design.md):\n" + "\n".join(wrong)


def test_every_allowed_edge_is_used() -> None:
    """An exception no import makes any more is taken out of the table (and the doc)."""
    used = {(found.source, found.target) for found in imports(PACKAGE)}
    assert sorted(set(ALLOWED) - used) == []


def test_the_design_states_the_same_table() -> None:
    text = DESIGN.read_text(encoding="utf-8")
    section = text.partition("Imports go one way")[2].partition("\n## ")[0]
    rows = re.findall(r"^\| `(casino[\w.]*)` \| `(casino[\w.]*)` \|", section, re.MULTILINE)
    assert sorted(rows) == sorted(ALLOWED)


LAYERED = {
    "pkg/__init__.py": "",
    "pkg/errors.py": "",
    "pkg/stud/__init__.py": "",
    "pkg/stud/ok.py": "from pkg.harness import formats\n",
    "pkg/stud/cli.py": "import os\n\n\ndef late():\n    from ..grade import books\n",
    "pkg/errors2.py": "import pkg.web.app\n",
    "pkg/harness/__init__.py": "",
    "pkg/harness/formats.py": "from pkg.errors import x\nfrom pkg import explore\n",
    "pkg/grade/__init__.py": "",
    "pkg/grade/books.py": "from pkg.stud import ok\n",
    "pkg/explore/__init__.py": "",
    "pkg/web/__init__.py": "",
    "pkg/web/app.py": "from pkg.grade import books\n",
    "pkg/__main__.py": "from pkg.web import app\n",
}


@pytest.fixture
def layered(tmp_path: Path) -> Path:
    """A small package with imports each way."""
    for name, text in LAYERED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path / "pkg"


def test_a_wrong_import_is_named_by_its_file_and_line(layered: Path) -> None:
    """A lazy import in a function, a relative one, a whole package and a top-level module:
    each found where it is; the allowed one, the top's and the downward ones are not."""
    assert offending(layered, {("pkg.stud.ok", "pkg.harness.formats"): "a test"}) == [
        "pkg/errors2.py:1: pkg.errors2 imports pkg.web.app",
        "pkg/harness/formats.py:2: pkg.harness.formats imports pkg.explore",
        "pkg/stud/cli.py:5: pkg.stud.cli imports pkg.grade.books",
    ]
    assert "pkg/stud/ok.py:1: pkg.stud.ok imports pkg.harness.formats" in offending(layered, {})
