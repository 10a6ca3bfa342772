"""The tests' own layout: every folder of test modules is a package (``grade``, ``harness``,
``nim``, …, imported as ``from grade.grade_support import …``), and ``tests/`` itself is not,
so pytest puts ``tests/`` on ``sys.path`` and never the checkout: ``tox`` tests the casino it
installed, not the one beside the tests."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_folder_of_test_modules_is_a_package() -> None:
    folders = {path.parent for path in TESTS.rglob("test_*.py")} - {TESTS}
    assert len(folders) >= 12
    assert (
        sorted(str(f.relative_to(TESTS)) for f in folders if not (f / "__init__.py").is_file())
        == []
    )


def test_the_tests_folder_is_not_a_package() -> None:
    assert not (TESTS / "__init__.py").exists()
