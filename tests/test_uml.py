"""The diagrams committed in ``docs/uml``: a class diagram and a package diagram for each of
the six programs, the browser games, the harness and the grader, as Graphviz text (``.dot``),
PNG and PDF; Nimsys's class diagram with every member's UML visibility (``+``/``-``).

Whether they are what the code gives now is checked by ``tox -e docs`` (``docs/build_docs.py``
draws them again with pyreverse, about 20 s of CPU, and fails naming every diagram whose
``.dot`` text differs; ``--update-uml`` rewrites them). Here, cheaply: each diagram is there in
its three forms, its text is in the deterministic form that check compares, and it draws the
package it is named after.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docs_script import build_docs

ROOT = Path(__file__).resolve().parents[1]
UML = ROOT / "docs" / "uml"
NAMES = ["nim", "videopoker", "draw", "stud", "domino", "holdem", "web", "harness", "grade"]
DRAWN = [f"{kind}_{name}" for name in NAMES for kind in ("classes", "packages")]


def test_the_diagrams_drawn_are_the_six_programs_the_web_the_harness_and_the_grader() -> None:
    assert list(build_docs().DIAGRAMS) == NAMES
    assert sorted(path.name for path in UML.iterdir()) == sorted(
        f"{drawn}.{kind}" for drawn in DRAWN for kind in ("dot", "png", "pdf")
    )


@pytest.mark.parametrize("drawn", DRAWN)
def test_each_diagram_is_there_in_three_forms(drawn: str) -> None:
    assert (UML / f"{drawn}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (UML / f"{drawn}.pdf").read_bytes()[:5] == b"%PDF-"
    text = (UML / f"{drawn}.dot").read_text(encoding="utf-8")
    assert text.startswith(f'digraph "{drawn}" {{\n') and text.endswith("\n}\n")


@pytest.mark.parametrize("drawn", DRAWN)
def test_each_diagram_is_deterministic_text_of_its_own_package(drawn: str) -> None:
    text = (UML / f"{drawn}.dot").read_text(encoding="utf-8")
    assert build_docs().deterministic(text) == text  # sorted, no absolute path: comparable
    nodes = re.findall(r'^"([^"]+)" \[', text, flags=re.MULTILINE)
    assert len(nodes) >= 5
    package = f"casino.{drawn.partition('_')[2]}"
    assert all(node == package or node.startswith(f"{package}.") for node in nodes), nodes


def members(text: str) -> list[str]:
    """Every attribute and method entry of every class node in a diagram's text."""
    found = []
    for label in re.findall(r"label=<\{(.*?)\}>", text):
        _, *fields = re.split(r"(?<!\\)\|", label)
        found += [e for field in fields for e in field.split('<br ALIGN="LEFT"/>') if e]
    return found


def test_nimsys_s_class_diagram_marks_every_member_public_or_private() -> None:
    """The seed grades "instance variables and methods (including public and private
    modifiers)": every member is drawn, each marked ``+`` or ``-``."""
    entries = members((UML / "classes_nim.dot").read_text(encoding="utf-8"))
    assert len(entries) > 50
    assert all(entry.startswith(("+ ", "- ")) for entry in entries), entries
    for entry in entries:
        name = re.match(r"\w+", entry[2:].removeprefix("<I>"))
        assert name is not None, entry
        private = name[0].startswith("_") and not name[0].endswith("__")
        assert entry.startswith("- ") == private, entry
    assert any(entry.startswith("- _") for entry in entries)  # private members are drawn


def test_the_other_class_diagrams_show_public_members_unmarked() -> None:
    entries = members((UML / "classes_draw.dot").read_text(encoding="utf-8"))
    assert entries and not any(entry.startswith(("+ ", "- ", "_")) for entry in entries)


def test_visibility_marks_a_record_s_members_by_their_names() -> None:
    drawn = (
        '"casino.x.A" [label=<{A|size : int<br ALIGN="LEFT"/>_cache : dict<br ALIGN="LEFT"/>'
        '|__init__(n: int)<br ALIGN="LEFT"/><I>_step</I>(): Side \\| None<br ALIGN="LEFT"/>}>];'
    )
    assert build_docs().with_visibility(drawn) == (
        '"casino.x.A" [label=<{A|+ size : int<br ALIGN="LEFT"/>- _cache : dict<br ALIGN="LEFT"/>'
        '|+ __init__(n: int)<br ALIGN="LEFT"/>- <I>_step</I>(): Side \\| None'
        '<br ALIGN="LEFT"/>}>];'
    )


def test_deterministic_text_does_not_depend_on_where_casino_is_or_on_order() -> None:
    drawn = (
        'digraph "classes_x" {\nrankdir=BT\ncharset="utf-8"\n'
        '"/some/checkout/casino/x/b.py.B" [label="B"];\n'
        '"casino.x.a.A" [label="A"];\n'
        '"/some/checkout/casino/x/__init__.py.C" [label="C"];\n'
        '"/some/checkout/casino/x/b.py.B" -> "casino.x.a.A" [arrowhead="empty"];\n'
        "}\n"
    )
    assert build_docs().deterministic(drawn) == (
        'digraph "classes_x" {\nrankdir=BT\ncharset="utf-8"\n'
        '"casino.x.C" [label="C"];\n'
        '"casino.x.a.A" [label="A"];\n'
        '"casino.x.b.B" [label="B"];\n'
        '"casino.x.b.B" -> "casino.x.a.A" [arrowhead="empty"];\n'
        "}\n"
    )
