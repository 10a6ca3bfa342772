"""The seeds' style rows: ``Play5CardDraw.py`` is clean under plain ``pycodestyle`` (its
default settings: the five-card draw rubric gives 4 % to "pycodestyle produces no warnings"),
and so is the package under the stated ``[pycodestyle]`` section of ``tox.ini`` (``tox -e
lint`` runs both). ``Play5CardDraw.py`` also parses on Python 3.8 and tells a Python older
than casino's 3.11 what it needs, in one line, never a traceback."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "Play5CardDraw.py"
DEFAULTS = ["--max-line-length=79", "--ignore=E121,E123,E126,E226,E24,E704,W503,W504"]
"""pycodestyle's own defaults, given on the command line so that no config file changes them."""
OLD_PYTHONS = sorted((Path.home() / ".pyenv" / "versions").glob("3.[89].*/bin/python3"))


def pycodestyle(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("pycodestyle")
    command = [sys.executable, "-m", "pycodestyle", *map(str, argv)]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)


def test_play5carddraw_is_clean_under_plain_pycodestyle() -> None:
    done = pycodestyle(*DEFAULTS, PROGRAM)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_plain_pycodestyle_would_see_a_late_import(tmp_path: Path) -> None:
    """The check above can fail: the old shape (the path set, then the imports) is E402."""
    old = tmp_path / "Play5CardDraw.py"
    old.write_text(
        "import sys\n\nsys.path.insert(0, '.')\n\nfrom casino.draw.cli import main\n\nmain()\n"
    )
    done = pycodestyle(*DEFAULTS, old)
    assert done.returncode == 1 and done.stdout.count(" E402 ") == 1


def test_the_package_is_clean_under_the_stated_pycodestyle_settings() -> None:
    done = pycodestyle("casino", "docs/build_docs.py")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_play5carddraw_parses_on_python_3_8() -> None:
    ast.parse(PROGRAM.read_text(encoding="utf-8"), str(PROGRAM), feature_version=(3, 8))


def old_message(version: str) -> str:
    return f"Play5CardDraw.py: needs Python 3.11 or newer; this is Python {version}\n"


def test_a_python_too_old_is_told_what_it_needs_in_one_line() -> None:
    """This Python, made to say it is 3.8.18: what a real 3.8 prints (below, where one is)."""
    fake = (
        "import runpy, sys; sys.argv = ['Play5CardDraw.py']; "
        "sys.version_info = (3, 8, 18, 'final', 0); "
        f"runpy.run_path({str(PROGRAM)!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", fake], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", old_message("3.8.18"))


@pytest.mark.skipif(not OLD_PYTHONS, reason="no Python 3.8 or 3.9 under ~/.pyenv")
@pytest.mark.parametrize("python", OLD_PYTHONS, ids=lambda path: path.parent.parent.name)
def test_a_real_old_python_is_told_what_it_needs(python: Path) -> None:
    done = subprocess.run(
        [str(python), "Play5CardDraw.py", "--players", "2"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == old_message(python.parent.parent.name)
