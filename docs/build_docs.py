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


def build_zipapp(target: Path) -> None:
    """The ``casino`` package (sources and catalogs, no caches) as one runnable file."""
    source = Path(importlib.util.find_spec("casino").origin or "").parent  # type: ignore[union-attr]
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(
            source, Path(folder) / "casino", ignore=shutil.ignore_patterns("__pycache__")
        )
        zipapp.create_archive(
            folder, target, interpreter="/usr/bin/env python3", main="casino.__main__:main"
        )


if __name__ == "__main__":
    raise SystemExit(main())
