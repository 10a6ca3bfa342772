"""Build the CASINO-ROYAL deliverables from the code: ``tox -e docs`` runs this.

    python docs/build_docs.py [OUT]        (default OUT: build/docs)

- a class diagram of every package of casino (``OUT/classes_nim.svg``, ``classes_holdem.svg``
  …, with its ``packages_*.svg`` of imports) and one of the modules at the top of casino that
  every program shares (``classes_core.svg``): pylint's ``pyreverse`` writes Graphviz files,
  Graphviz's ``dot`` renders them to SVG;
- API documentation of the whole ``casino`` package: ``pdoc`` (``OUT/api/casino.html``);
- a single-file executable: ``python -m zipapp`` of the ``casino`` package and its pure-Python
  dependencies (``OUT/casino.pyz``; run ``python3 casino.pyz holdem``), with casino's exit
  status.

Nothing here is written by hand: the packages are found in the code, so a new one gets its
diagram and its pages without a change here.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import pkgutil
import shutil
import subprocess
import sys
import tempfile
import zipapp
from pathlib import Path

import casino


def packages() -> list[str]:
    """Every package inside ``casino`` (``nim``, ``videopoker`` …), by its short name."""
    return sorted(info.name for info in pkgutil.iter_modules(casino.__path__) if info.ispkg)


def core_modules() -> list[str]:
    """The modules at the top of ``casino`` (``casino.cmdline``, ``casino.shell`` …)."""
    found = pkgutil.iter_modules(casino.__path__)
    return sorted(f"casino.{i.name}" for i in found if not i.ispkg and i.name != "__main__")


def main() -> int:
    """Build everything into the folder given (or ``build/docs``); 1 if a tool is missing."""
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "build/docs")
    out.mkdir(parents=True, exist_ok=True)
    if shutil.which("dot") is None:
        print("build_docs: Graphviz's dot is missing (apt-get install graphviz)", file=sys.stderr)
        return 1
    for name in packages():
        run("pyreverse", "-o", "svg", "-p", name, "-d", str(out), f"casino.{name}")
    run("pyreverse", "-o", "svg", "-p", "core", "-d", str(out), *core_modules())
    run("pdoc", "-o", str(out / "api"), "casino")
    expected = [out / f"classes_{name}.svg" for name in [*packages(), "core"]]
    expected += [out / "api" / "casino" / f"{name}.html" for name in packages()]
    missing = [str(path) for path in expected if not path.is_file()]
    if missing:
        print(f"build_docs: not written: {', '.join(missing)}", file=sys.stderr)
        return 1
    build_zipapp(out / "casino.pyz")
    print(
        f"build_docs: wrote {out}/classes_*.svg, {out}/packages_*.svg, {out}/api/, {out}/casino.pyz"
    )
    return 0


def run(*command: str) -> None:
    """Run a tool; stop with its status if it fails."""
    print("build_docs:", " ".join(command), flush=True)
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


def _licences(distribution: str) -> list[Path]:
    """The licence files ``distribution`` was installed with."""
    files = importlib.metadata.files(distribution) or []
    names = ("LICENSE", "LICENCE", "COPYING")
    return [Path(str(f.locate())) for f in files if f.name.upper().startswith(names)]


if __name__ == "__main__":
    raise SystemExit(main())
