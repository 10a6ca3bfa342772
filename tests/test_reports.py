"""The documents the seeds ask students for, written for the reference (``docs/reports/``) and
built as PDF by ``tox -e docs`` (``docs/build_docs.py``'s own small PDF writer): each is a
well-formed PDF, the same bytes from the same text, with its text in it, where the seed wants
it, and the video poker report within the seed's 10 pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docs_script import build_docs

ROOT = Path(__file__).resolve().parents[1]


def objects(data: bytes) -> dict[int, int]:
    """Each object's number and where its ``N 0 obj`` starts, read through the xref table."""
    start = int(re.findall(rb"startxref\n(\d+)\n%%EOF\n$", data)[0])
    table = data[start:].split(b"trailer")[0].split(b"\n")
    count = int(table[1].split()[1])
    entries = table[3 : 2 + count]
    return {n: int(entry.split()[0]) for n, entry in enumerate(entries, 1)}


def test_the_seeds_documents_are_where_the_seeds_want_them() -> None:
    reports = build_docs().REPORTS
    assert sorted(reports) == [
        "draw/doc/design.pdf",
        "draw/doc/testplan.pdf",
        "draw/doc/writeup.pdf",
        "videopoker/DOCS/final-report.pdf",
    ]
    for source in reports.values():
        assert (ROOT / "docs" / "reports" / source).read_text(encoding="utf-8").startswith("# ")


@pytest.mark.parametrize("target", sorted(build_docs().REPORTS))
def test_each_document_is_a_well_formed_pdf_of_its_text(target: str) -> None:
    module = build_docs()
    text = (ROOT / "docs" / "reports" / module.REPORTS[target]).read_text(encoding="utf-8")
    data = module.pdf(text)
    assert data.startswith(b"%PDF-1.4\n") and data.endswith(b"%%EOF\n")
    assert data == module.pdf(text)  # no date in it: the same text, the same bytes
    found = objects(data)
    for number, offset in found.items():
        assert data[offset:].startswith(f"{number} 0 obj\n".encode()), number
    pages = int(re.findall(rb"/Type /Pages /Kids \[[^]]*\] /Count (\d+)", data)[0])
    assert pages == data.count(b"/Type /Page ") >= 1
    for length, stream in re.findall(rb"/Length (\d+) >>\nstream\n(.*?)\nendstream", data, re.S):
        assert int(length) == len(stream)
    heading = text.splitlines()[0].removeprefix("# ")
    assert f"({module._escaped(heading)}) Tj".encode("cp1252") in data
    if target.startswith("videopoker/"):
        assert pages <= 10  # "a final report (up to 10 pages, in .pdf format)"


def test_lines_fit_the_page_and_strings_are_escaped() -> None:
    module = build_docs()
    text = "# T (draft)\n\n" + "word " * 400 + "\n\n```\n" + "x" * 300 + "\n```\n- a `b` **c**\n"
    lines = module.laid_out(text)
    assert lines[0] == ("h1", "T (draft)")
    for kind, line in lines:
        font, size, _ = module.STYLES[kind]
        assert len(line) * size * module.WIDTH[font] <= module.PAGE[0] - 2 * module.MARGIN
    assert ("p", "\u2022 a b c") in lines
    assert module._escaped("a (b) \\ c → d") == "a \\(b\\) \\\\ c -> d"
    many = module.pdf("```\n" + "\n".join(["x"] * 200) + "\n```\n")
    assert b"/Count 4" in many and b"(4/4) Tj" in many  # numbered pages of 66 code lines
