"""The class diagrams committed in ``docs/uml``: one for each of the six programs, the harness
and the grader, as Graphviz text (``.dot``), PNG and PDF.

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
NAMES = ["nim", "videopoker", "draw", "stud", "domino", "holdem", "harness", "grade"]


def test_the_diagrams_drawn_are_the_six_programs_the_harness_and_the_grader() -> None:
    assert list(build_docs().DIAGRAMS) == NAMES
    assert sorted(path.name for path in UML.iterdir()) == sorted(
        f"classes_{name}.{kind}" for name in NAMES for kind in ("dot", "png", "pdf")
    )


@pytest.mark.parametrize("name", NAMES)
def test_each_diagram_is_there_in_three_forms(name: str) -> None:
    assert (UML / f"classes_{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (UML / f"classes_{name}.pdf").read_bytes()[:5] == b"%PDF-"
    text = (UML / f"classes_{name}.dot").read_text(encoding="utf-8")
    assert text.startswith(f'digraph "classes_{name}" {{\n') and text.endswith("\n}\n")


@pytest.mark.parametrize("name", NAMES)
def test_each_diagram_is_deterministic_text_of_its_own_package(name: str) -> None:
    text = (UML / f"classes_{name}.dot").read_text(encoding="utf-8")
    assert build_docs().deterministic(text) == text  # sorted, no absolute path: comparable
    nodes = re.findall(r'^"([^"]+)" \[', text, flags=re.MULTILINE)
    assert len(nodes) >= 5
    assert all(node.startswith(f"casino.{name}.") for node in nodes), nodes


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
