"""The one shell of every HTML page casino writes to disk (``casino grade``'s summary, the
similarity pages, ``casino stud check``'s class summary): self-contained and inert.

Each page carries :data:`POLICY` as a Content-Security-Policy: nothing but its inline style,
so even a text that escaped escaping could fetch nothing. The shell is written here once;
each page gives its title, its style and whether it is laid out one tag a line.
"""

from __future__ import annotations

import html

__all__ = ["POLICY", "page_head"]

POLICY = "default-src 'none'; style-src 'unsafe-inline'"
"""Nothing but the inline style."""

_VIEWPORT = '<meta name="viewport" content="width=device-width">'


def page_head(title: str, style: str, *, viewport: bool = False, compact: bool = False) -> str:
    """The page up to and with ``<body>``: the doctype, the policy, ``title`` (escaped here),
    ``style``; with ``viewport`` a viewport line; ``compact`` puts the head on one line.

    >>> print(page_head("a & b", "p{}", compact=True))
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" \
content="default-src 'none'; style-src 'unsafe-inline'"><title>a &amp; b</title><style>p{}\
</style></head><body>
    """
    items = [
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">',
        *([_VIEWPORT] if viewport else []),
        f"<title>{html.escape(title, quote=True)}</title>",
        f"<style>{style}</style></head><body>",
    ]
    return "<!DOCTYPE html>\n" + ("" if compact else "\n").join(items)
