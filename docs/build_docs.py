"""Build the CASINO-ROYAL deliverables from the code: ``tox -e docs`` runs this.

    python docs/build_docs.py [OUT]        (default OUT: build/docs)

- class diagrams of the dominoes and Hold'em packages: pylint's ``pyreverse`` writes Graphviz
  files, Graphviz's ``dot`` renders them to SVG (``OUT/classes_holdem.svg`` …);
- API documentation of those packages and the shared modules they use: ``pdoc`` (``OUT/api``);
- a single-file executable: ``python -m zipapp`` of the ``casino`` package
  (``OUT/casino.pyz``; run ``python3 casino.pyz holdem``).

Nothing here is written by hand; a package that is not in this checkout is skipped, named.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import zipapp
from pathlib import Path

PACKAGES = ("casino.domino", "casino.holdem")
SHARED = ("casino.cards", "casino.clock", "casino.i18n", "casino.net", "casino.shell")


def main() -> int:
    """Build everything into the folder given (or ``build/docs``); 1 if a tool is missing."""
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "build/docs")
    out.mkdir(parents=True, exist_ok=True)
    present = [name for name in PACKAGES if importlib.util.find_spec(name) is not None]
    for name in sorted(set(PACKAGES) - set(present)):
        print(f"build_docs: {name} is not in this checkout; no diagram for it")
    if shutil.which("dot") is None:
        print("build_docs: Graphviz's dot is missing (apt-get install graphviz)", file=sys.stderr)
        return 1
    for name in present:
        project = name.rsplit(".", 1)[1]
        run("pyreverse", "-o", "svg", "-p", project, "-d", str(out), name)
    run("pdoc", "-o", str(out / "api"), *present, *SHARED)
    build_zipapp(out / "casino.pyz")
    print(f"build_docs: wrote {out}/classes_*.svg, {out}/api/, {out}/casino.pyz")
    return 0


def run(*command: str) -> None:
    """Run a tool; stop with its status if it fails."""
    print("build_docs:", " ".join(command))
    subprocess.run(command, check=True)


BUNDLED = {"yaml": "PyYAML", "pexpect": "pexpect", "ptyprocess": "ptyprocess"}
"""The pure-Python dependencies the single file carries (module: distribution), so that
``replay``, ``record`` and ``grade`` work from it as from the installed program. PyYAML goes
without its C part (a zip cannot load one): its pure-Python loader reads the same transcripts
(:mod:`casino.harness.yamltext`)."""

ZIPAPP_MAIN = '''"""casino as one file: ``python3 casino.pyz COMMAND ...``, with casino's exit status."""

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


def _licences(distribution: str) -> list[Path]:
    """The licence files ``distribution`` was installed with."""
    files = importlib.metadata.files(distribution) or []
    names = ("LICENSE", "LICENCE", "COPYING")
    return [Path(str(f.locate())) for f in files if f.name.upper().startswith(names)]


if __name__ == "__main__":
    raise SystemExit(main())
