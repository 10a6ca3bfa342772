"""Build the CASINO-ROYAL deliverables from the code: ``tox -e docs`` runs this.

    python docs/build_docs.py [OUT]                (default OUT: build/docs)
    python docs/build_docs.py --update-uml [OUT]   (and rewrite docs/uml/)

- the class diagrams and the package diagrams of the six programs (``nim``, ``videopoker``,
  ``draw``, ``stud``, ``domino``, ``holdem``), of the browser games (``web``), of the
  transcript harness (``harness``) and of the grader (``grade``): pylint's ``pyreverse``
  writes them as Graphviz text, made deterministic here (no absolute paths, nodes and edges
  sorted), and Graphviz's ``dot`` draws each as PNG and PDF, into ``OUT/uml``. Nimsys's class
  diagram shows every member, private ones too, each marked with its UML visibility (the seed
  grades "public and private modifiers": :func:`with_visibility`); the others show the
  public members (pyreverse's default), unmarked. The same diagrams are committed in
  ``docs/uml`` (where the courses' graders look for them): the build **fails** when the
  committed ``.dot`` text is not what the code gives now, and ``--update-uml`` rewrites them
  (text, PNG and PDF);
- API documentation of the whole ``casino`` package: ``pdoc`` (``OUT/api/casino.html``), in
  a process of its own that runs beside the diagrams;
- a single-file executable: ``python -m zipapp`` of the ``casino`` package and its pure-Python
  dependencies (``OUT/casino.pyz``; run ``python3 casino.pyz holdem``), with casino's exit
  status;
- the documents the seeds ask students for, written for the reference and kept in
  ``docs/reports/`` as Markdown, as PDF (:data:`REPORTS`: video poker's final report,
  five-card draw's ``doc/design.pdf``, ``doc/writeup.pdf`` and ``doc/testplan.pdf``), by a
  small PDF writer of its own (:func:`pdf`: the standard PDF fonts, no tool to install, the
  same bytes from the same text).

Why it is quick (it took 7 minutes on a busy machine): one pyreverse process drew a diagram of
every package, thirteen times parsing and inferring the code the packages share; now one
process draws the eight diagrams asked for, astroid's cache shared between them, while pdoc (the
other half of the CPU) runs in a second process.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
import tempfile
import zipapp
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

DIAGRAMS = ("nim", "videopoker", "draw", "stud", "domino", "holdem", "web", "harness", "grade")
"""The packages drawn: the six programs, the browser games, the harness and the grader."""
KINDS = ("classes", "packages")
"""pyreverse's two diagrams of each package: its classes, and its modules' imports."""
ALL_MEMBERS = frozenset({"nim"})
"""The packages whose class diagram shows private members too, with visibility marks."""
ROOT = Path(__file__).resolve().parents[1]
UML = ROOT / "docs" / "uml"
"""Where the diagrams are committed."""
FORMATS = ("png", "pdf")


def main(argv: list[str] | None = None) -> int:
    """Build everything into the folder given (or ``build/docs``); 1 if a tool is missing or
    a committed diagram is out of date."""
    args = sys.argv[1:] if argv is None else argv
    update = "--update-uml" in args
    rest = [arg for arg in args if arg != "--update-uml"]
    out = Path(rest[0] if rest else "build/docs")
    out.mkdir(parents=True, exist_ok=True)
    if shutil.which("dot") is None:
        print("build_docs: Graphviz's dot is missing (apt-get install graphviz)", file=sys.stderr)
        return 1
    api = [sys.executable, "-m", "pdoc", "-o", str(out / "api"), "casino"]
    print("build_docs:", " ".join(api[1:]), flush=True)
    pdoc = subprocess.Popen(api)
    stale = write_diagrams(out / "uml", update)
    if pdoc.wait() != 0:
        print(f"build_docs: pdoc failed (status {pdoc.returncode})", file=sys.stderr)
        return 1
    if not (out / "api" / "casino.html").is_file():
        print(f"build_docs: not written: {out / 'api' / 'casino.html'}", file=sys.stderr)
        return 1
    build_zipapp(out / "casino.pyz")
    write_reports(out / "reports")
    print(f"build_docs: wrote {out}/uml/, {out}/api/, {out}/casino.pyz, {out}/reports/")
    if stale:
        names = ", ".join(f"docs/uml/{name}.dot" for name in stale)
        print(
            f"build_docs: out of date with the code: {names}; "
            "run python docs/build_docs.py --update-uml and commit docs/uml",
            file=sys.stderr,
        )
        return 1
    return 0


def write_diagrams(folder: Path, update: bool) -> list[str]:
    """Draw :data:`DIAGRAMS` into ``folder`` (``.dot``, ``.png``, ``.pdf``), copy them to
    :data:`UML` when ``update`` (only the diagrams whose ``.dot`` changed); the names whose
    committed ``.dot`` differs (before any update)."""
    folder.mkdir(parents=True, exist_ok=True)
    stale = []
    for name, text in class_diagrams().items():
        dot = folder / f"{name}.dot"
        dot.write_text(text, encoding="utf-8")
        for kind in FORMATS:
            run("dot", f"-T{kind}", "-o", str(dot.with_suffix(f".{kind}")), str(dot))
        committed = UML / dot.name
        if not committed.is_file() or committed.read_text(encoding="utf-8") != text:
            stale.append(name)
        if update and stale[-1:] == [name]:  # only what changed: a PDF carries its date
            UML.mkdir(exist_ok=True)
            for suffix in (".dot", *(f".{kind}" for kind in FORMATS)):
                shutil.copyfile(dot.with_suffix(suffix), committed.with_suffix(suffix))
    return [] if update else stale


def class_diagrams() -> dict[str, str]:
    """The Graphviz text of each of :data:`DIAGRAMS`' :data:`KINDS` (``classes_nim``,
    ``packages_nim``, …), as :func:`deterministic` makes it; drawn by pyreverse in this
    process, one package after the other (astroid parses each module once for all of them)."""
    from pylint.pyreverse.main import Run

    # The sources in this checkout, never an installed copy: astroid infers less in an installed
    # package (attribute types whose class is in another module are lost), and tox installs one.
    sys.path.insert(0, str(ROOT))
    found = {}
    with tempfile.TemporaryDirectory() as scratch:
        for name in DIAGRAMS:
            print(f"build_docs: pyreverse -o dot -p {name} casino.{name}", flush=True)
            members = ["-f", "SPECIAL"] if name in ALL_MEMBERS else []
            argv = ["-o", "dot", *members, "-p", name, "-d", scratch, f"casino.{name}"]
            with redirect_stdout(StringIO()):  # its "parsing …" lines
                status = Run(argv).run()
            if status != 0:
                raise SystemExit(f"build_docs: pyreverse failed on casino.{name} ({status})")
            for kind in KINDS:
                text = Path(scratch, f"{kind}_{name}.dot").read_text(encoding="utf-8")
                if kind == "classes" and name in ALL_MEMBERS:
                    text = with_visibility(text)
                found[f"{kind}_{name}"] = deterministic(text)
    return found


LABEL = re.compile(r"label=<\{(.*?)\}>")
"""A class node's record label: ``{Name|attributes|methods}``, entries ended by ``<br …/>``."""
FIELDS = re.compile(r"(?<!\\)\|")
"""The bars between a record's fields (a type's ``\\|``, as in ``Side \\| None``, is not one)."""
BREAK = '<br ALIGN="LEFT"/>'
MEMBER = re.compile(r"^(?:<I>)?(\w+)")


def with_visibility(text: str) -> str:
    """Each attribute and method of every class in ``text`` marked with its UML visibility:
    ``-`` private for a name Python keeps to its class or module (a leading ``_``, but not a
    special name such as ``__init__``), ``+`` public for every other (Python has no
    "protected": a single ``_`` is private by convention, so both are ``-``)."""

    def mark(entry: str) -> str:
        name = MEMBER.match(entry)
        if not entry or name is None:
            return entry
        word = name[1]
        private = word.startswith("_") and not (word.startswith("__") and word.endswith("__"))
        return f"{'-' if private else '+'} {entry}"

    def label(match: re.Match[str]) -> str:
        head, *members = FIELDS.split(match[1])
        marked = [BREAK.join(map(mark, field.split(BREAK))) for field in members]
        return "label=<{" + "|".join([head, *marked]) + "}>"

    return LABEL.sub(label, text)


NODE = re.compile(r'"[^"]*?/(casino/[^"]*?)(?:/__init__)?\.py\.([^"]+)"')
"""A node pyreverse names by its file (``"/home/…/casino/draw/rules.py.Table"``), as it does
for a package imported from its source folder; installed, it names it by its module."""


def deterministic(text: str) -> str:
    """pyreverse's Graphviz text the same wherever casino is and however it is installed: each
    node named by its module (``casino.draw.rules.Table``), nodes then edges sorted, one per
    line."""
    named = NODE.sub(lambda m: f'"{m[1].replace("/", ".")}.{m[2]}"', text)
    lines = named.splitlines()
    body = [line for line in lines[1:] if line not in ("}", "")]
    settings = [line for line in body if "=" in line and not line.startswith('"')]
    nodes = sorted(line for line in body if line.startswith('"') and " -> " not in line)
    edges = sorted(line for line in body if line.startswith('"') and " -> " in line)
    return "\n".join([lines[0], *settings, *nodes, *edges, "}"]) + "\n"


def run(*command: str) -> None:
    """Run a tool; stop with its status if it fails."""
    status = subprocess.run(command, check=False).returncode
    if status != 0:
        raise SystemExit(f"build_docs: {command[0]} failed (status {status})")


BUNDLED = {"yaml": "PyYAML", "pexpect": "pexpect", "ptyprocess": "ptyprocess"}
"""The pure-Python dependencies the single file carries (module: distribution), so that
``replay``, ``record`` and ``grade`` work from it as from the installed program. PyYAML goes
without its C part (a zip cannot load one): its pure-Python loader reads the same transcripts
(:mod:`casino.harness.yamltext`)."""

ZIPAPP_MAIN = '''"""casino as one file: ``python3 casino.pyz COMMAND``, with casino's status."""

import sys

from casino.__main__ import main

sys.exit(main())
'''


def build_zipapp(target: Path) -> None:
    """The ``casino`` package (sources and catalogs, no caches) and :data:`BUNDLED` (with their
    licences) as one runnable file; ``SystemExit`` naming a dependency that is not installed."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for module in ("casino", *BUNDLED):
            spec = importlib.util.find_spec(module)
            if spec is None or spec.origin is None:
                raise SystemExit(f"build_docs: {module} is not installed: cannot bundle it")
            shutil.copytree(
                Path(spec.origin).parent,
                root / module,
                ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
            )
        for module, distribution in BUNDLED.items():
            for licence in _licences(distribution):
                shutil.copyfile(licence, root / f"{module}-{licence.name}")
        (root / "__main__.py").write_text(ZIPAPP_MAIN, encoding="utf-8")
        zipapp.create_archive(root, target, interpreter="/usr/bin/env python3")


REPORTS = {
    "videopoker/DOCS/final-report.pdf": "videopoker-final-report.md",
    "draw/doc/design.pdf": "draw-design.md",
    "draw/doc/writeup.pdf": "draw-writeup.md",
    "draw/doc/testplan.pdf": "draw-testplan.md",
}
"""Each PDF (where the seed wants it, under ``OUT/reports``) and its Markdown in
``docs/reports``: the video poker seed's "final report (up to 10 pages, in .pdf format) …
inside a folder named DOCS", five-card draw's ``doc/design.pdf``, ``doc/writeup.pdf`` and
``doc/testplan.pdf``."""
PAGE = (595, 842)
"""A4, in points."""
MARGIN = 56
STYLES = {"h1": ("F2", 17, 26), "h2": ("F2", 13, 20), "p": ("F1", 10.5, 14), "pre": ("F3", 8.5, 11)}
"""Each kind of line: font (F1 Helvetica, F2 Helvetica-Bold, F3 Courier), size, leading."""
WIDTH = {"F1": 0.5, "F2": 0.55, "F3": 0.6}
"""A character's mean width, in ems, to wrap by."""
ASCII = str.maketrans({"→": "->", "←": "<-", "≤": "<=", "≥": ">=", "≈": "~", "−": "-", "✓": "v"})


def write_reports(folder: Path) -> None:
    """Every one of :data:`REPORTS` as PDF under ``folder``."""
    for target, source in REPORTS.items():
        text = (ROOT / "docs" / "reports" / source).read_text(encoding="utf-8")
        path = folder / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pdf(text))


def laid_out(markdown: str) -> list[tuple[str, str]]:
    """The lines of ``markdown`` (headings, paragraphs, bullets, code blocks and tables as
    fixed-width text), each with its style, wrapped to the page."""
    lines: list[tuple[str, str]] = []
    paragraph: list[str] = []
    code = False

    def flush() -> None:
        if paragraph:
            lines.extend(("p", line) for line in _wrap(" ".join(paragraph), "p"))
            lines.append(("p", ""))
            paragraph.clear()

    for raw in markdown.splitlines():
        if raw.startswith("```"):
            flush()
            code = not code
            continue
        if code or raw.startswith("|"):
            flush()
            lines.extend(("pre", line) for line in _wrap(raw, "pre"))
        elif raw.startswith(("# ", "## ")):
            flush()
            kind = "h1" if raw.startswith("# ") else "h2"
            lines.append((kind, _plain(raw.lstrip("# "))))
        elif raw.startswith("- "):
            flush()
            paragraph.append("\u2022 " + raw[2:])
        elif not raw.strip():
            flush()
        else:
            paragraph.append(raw.strip())
    flush()
    return lines


def _plain(text: str) -> str:
    """Markdown's inline marks (``code``, **bold**, *emphasis*) left out."""
    return re.sub(r"(\*\*|`|(?<!\w)\*(?=\S))", "", text)


def _wrap(text: str, kind: str) -> list[str]:
    """``text`` in lines that fit the page in style ``kind``."""
    font, size, _ = STYLES[kind]
    room = int((PAGE[0] - 2 * MARGIN) / (size * WIDTH[font]))
    if kind == "pre":
        return [text[i : i + room] for i in range(0, max(len(text), 1), room)]
    words, lines, line = _plain(text).split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > room:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def pdf(markdown: str) -> bytes:
    """``markdown`` as a PDF: A4 pages of Helvetica and Courier, numbered, no date in it (the
    same text gives the same bytes)."""
    pages: list[list[str]] = [[]]
    y = PAGE[1] - MARGIN
    for kind, line in laid_out(markdown):
        font, size, leading = STYLES[kind]
        if y - leading < MARGIN:
            pages.append([])
            y = PAGE[1] - MARGIN
        y -= leading
        if line:
            pages[-1].append(f"BT /{font} {size} Tf {MARGIN} {y} Td ({_escaped(line)}) Tj ET")
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "",  # the page tree, once the pages are numbered
        *(
            f"<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding >>"
            for name in ("Helvetica", "Helvetica-Bold", "Courier")
        ),
    ]
    kids = []
    for number, page in enumerate(pages, 1):
        footer = f"BT /F1 9 Tf {PAGE[0] / 2 - 10} {MARGIN / 2} Td ({number}/{len(pages)}) Tj ET"
        stream = "\n".join([*page, footer])
        objects.append(f"<< /Length {len(stream.encode('cp1252'))} >>\nstream\n{stream}\nendstream")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE[0]} {PAGE[1]}] "
            f"/Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >> "
            f"/Contents {len(objects)} 0 R >>"
        )
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("cp1252")
    start = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{start}\n%%EOF\n".encode()
    )
    return bytes(out)


def _escaped(text: str) -> str:
    """``text`` as a PDF string's inside, in the fonts' encoding (what it lacks as ``?``)."""
    text = text.translate(ASCII).encode("cp1252", "replace").decode("cp1252")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _licences(distribution: str) -> list[Path]:
    """The licence files ``distribution`` was installed with."""
    files = importlib.metadata.files(distribution) or []
    names = ("LICENSE", "LICENCE", "COPYING")
    return [Path(str(f.locate())) for f in files if f.name.upper().startswith(names)]


if __name__ == "__main__":
    raise SystemExit(main())
