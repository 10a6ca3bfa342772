"""The one page shell (:mod:`casino.page`): its exact text, and every page written to disk
opens with it (so the policy is written in one place)."""

from __future__ import annotations

from pathlib import Path

from casino.page import POLICY, page_head

ROOT = Path(__file__).resolve().parents[1]


def test_the_shell_line_by_line() -> None:
    """The spread-out shell, with a viewport: one tag a line, the title escaped."""
    assert page_head("<x>", "p{}", viewport=True).split("\n") == [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">',
        '<meta name="viewport" content="width=device-width">',
        "<title>&lt;x&gt;</title>",
        "<style>p{}</style></head><body>",
    ]


def test_the_policy_allows_nothing_but_inline_style() -> None:
    """No source of any kind but the page's own style."""
    assert POLICY == "default-src 'none'; style-src 'unsafe-inline'"


def test_only_the_shell_writes_the_policy() -> None:
    """No other module outside the web server (whose policy is a header) writes one."""
    writers = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "casino").rglob("*.py")
        if "http-equiv" in path.read_text(encoding="utf-8")
    }
    assert writers == {"casino/page.py"}
