"""Every exception class in casino is an error of a kind of :mod:`casino.errors` (it derives
from :class:`~casino.errors.CasinoError`) or is named below with the reason it is not: read
from the source (ast), so a new class straight from ``Exception`` fails here until it is
given its kind."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from pathlib import Path

CASINO = Path(__file__).resolve().parent.parent / "casino"

CONTROL_FLOW = {
    "casino/cmdline.py:HelpShown",
    "casino/domino/shell.py:_Quit",
    "casino/explore/engine.py:OutOfBudget",
    "casino/explore/nimsys_model.py:Unpinned",
    "casino/explore/videopoker.py:_Unpinned",
    "casino/harness/parse.py:_Invalid",
    "casino/harness/regex.py:PatternTimeout",
    "casino/harness/yamltext.py:_LibraryLimit",
    "casino/holdem/shell.py:Quit",
}
"""Control flow, not errors: raised to end a loop or give up a try, and caught by casino
itself (a ``quit``, a spent budget, a line explore skips, a problem given its place)."""

SYSTEM = {
    "casino/files.py:ReadOnlyFile",
    "casino/files.py:UnsuitableFile",
}
"""The system's refusals (``OSError``s): the entry contract says them as it says every
``OSError`` (``FILE: reason``, status 1); as a ``CasinoError`` an ``except CasinoError``
(``casino stud``'s) would say them otherwise."""

INTERNAL = {"casino/stopping.py:TaskFailed"}
"""A bug in casino (a server's task that failed): the contract's status 70, not a user's."""


NOT_ERRORS = CONTROL_FLOW | SYSTEM | INTERNAL

BUILTIN_EXCEPTIONS = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, Exception)
}


def _base_names(node: ast.ClassDef) -> list[str]:
    names = []
    for base in node.bases:
        if isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names


def _classes() -> Iterator[tuple[str, ast.ClassDef]]:
    for path in sorted(CASINO.rglob("*.py")):
        where = path.relative_to(CASINO.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                yield f"{where}:{node.name}", node


CLASSES = dict(_classes())
BASES: dict[str, set[str]] = {}
for _key, _node in CLASSES.items():
    BASES.setdefault(_node.name, set()).update(_base_names(_node))


def _ancestors(name: str) -> set[str]:
    found: set[str] = set()
    todo = [name]
    while todo:
        for base in BASES.get(todo.pop(), set()) - found:
            found.add(base)
            todo.append(base)
    return found


def _exceptions() -> dict[str, set[str]]:
    """Every class of casino that is an ``Exception``, with its ancestors' names."""
    found = {}
    for key, node in CLASSES.items():
        ancestors = _ancestors(node.name)
        if ancestors & BUILTIN_EXCEPTIONS and node.name != "CasinoError":
            found[key] = ancestors
    return found


def test_every_exception_is_a_casino_error_or_named_with_its_reason() -> None:
    outside = {key for key, ancestors in _exceptions().items() if "CasinoError" not in ancestors}
    assert outside == NOT_ERRORS  # a stale name here fails too


def test_the_reading_finds_each_kind_through_its_bases() -> None:
    exceptions = _exceptions()
    assert "SetupError" in exceptions["casino/grade/course.py:CourseError"]
    assert "OverLimit" in exceptions["casino/web/sessions.py:SessionsFull"]
    assert {"ParseError", "CasinoError"} <= exceptions["casino/duel.py:Unreadable"]
    assert {"ConnectionClosed", "CasinoError"} <= exceptions["casino/net/guard.py:Flooding"]
    assert "casino/harness/runners/inproc.py:StepTimeout" not in exceptions  # BaseException


def test_each_control_flow_exception_says_so() -> None:
    for key in CONTROL_FLOW:
        doc = ast.get_docstring(CLASSES[key]) or ""
        assert doc.startswith("Control flow, not an error"), key
