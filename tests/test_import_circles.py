"""No import circle anywhere in ``casino/``: every import counts (lazy ones inside functions and
``TYPE_CHECKING`` ones too), so that each module can be read knowing only what is below it.

A package's ``__init__`` importing its own children, and a module importing the ``__init__`` of a
package it is in, are not circles (Python loads the package first either way).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path, top: Path) -> str:
    """``casino/harness/cli.py`` -> ``casino.harness.cli``; a package's ``__init__`` -> the
    package."""
    parts = list(path.relative_to(top.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(tree: ast.Module, module: str, is_package: bool) -> set[str]:
    """Every dotted name an import anywhere in ``tree`` names (``from a import b``: ``a.b``
    and ``a``), relative imports made absolute."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            names.update(f"{base}.{alias.name}" for alias in node.names)
            names.add(base)
    return names


def import_graph(top: Path) -> dict[str, set[str]]:
    """Module -> the modules of the package at ``top`` that it imports."""
    paths = {module_name(path, top): path for path in sorted(top.rglob("*.py"))}

    def resolve(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = {resolve(name) for name in imported(tree, module, is_package)}
        graph[module] = {
            target
            for target in targets
            if target is not None
            and target != module
            and not (is_package and target.startswith(module + "."))
            and not (paths[target].name == "__init__.py" and module.startswith(target + "."))
        }
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_casino_has_no_import_circle() -> None:
    graph = import_graph(ROOT / "casino")
    assert "casino.harness.cli" in graph and "casino.grade.cli" in graph
    assert circles(graph) == []


def test_the_check_finds_a_lazy_circle_and_a_relative_one(tmp_path: Path) -> None:
    top = tmp_path / "pkg"
    (top / "sub").mkdir(parents=True)
    (top / "__init__.py").write_text("from pkg import a\n")
    (top / "a.py").write_text("def f() -> None:\n    from pkg.b import g\n")
    (top / "b.py").write_text("from pkg import a\ng = 1\n")
    (top / "sub" / "__init__.py").write_text("from . import x\n")
    (top / "sub" / "x.py").write_text("from ..sub import y\n")
    (top / "sub" / "y.py").write_text("from .x import nothing\n")
    (top / "c.py").write_text("import pkg.sub\nimport os\n")
    assert circles(import_graph(top)) == [["pkg.a", "pkg.b"], ["pkg.sub.x", "pkg.sub.y"]]
