"""``.ci/run`` runs the README's test command exactly (its second command), and that command
runs every environment CI needs: tox's ``env_list`` holds the tests with the newest and with
the oldest dependencies, the docs, and grading on a real Ray cluster."""

from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """The lines of the README's first ``sh`` block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    return block.splitlines()


def test_ci_runs_the_readme_s_second_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip("\n").splitlines()
    assert script[-1] == readme_commands()[1]
    assert readme_commands()[1].endswith(".venv/bin/tox")


def test_tox_runs_the_oldest_dependencies_the_docs_and_ray_by_default() -> None:
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini", encoding="utf-8")
    envs = [name.strip() for name in tox["tox"]["env_list"].split(",")]
    assert {"tests", "oldest", "conformance", "lint", "type", "docs", "ray"} == set(envs)
    assert "constraints/oldest.txt" in tox["testenv:oldest"]["set_env"]
