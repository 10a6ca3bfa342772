"""Folders of any depth: made, emptied and removed without recursion.

A student's submission or program may make a tree 1,000 folders deep; Python's
``Path.mkdir(parents=True)``, ``os.makedirs`` and (before 3.12) ``shutil.rmtree`` recurse once
per level and fail there with ``RecursionError``.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def make_folders(base: Path, folder: Path) -> None:
    """Make ``folder`` (inside the existing ``base``) and the folders above it, one by one
    (``mkdir(parents=True)`` recurses, and a submission may be 1,000 folders deep)."""
    here = base
    for part in folder.relative_to(base).parts:  # one child at a time: no path parsed again
        here = here / part
        with contextlib.suppress(FileExistsError):
            here.mkdir()


def remove_tree(folder: Path) -> None:
    """Remove ``folder`` and everything in it, however deep (no recursion; what cannot be
    removed is left)."""
    todo, emptied = [str(folder)], []
    while todo:
        here = todo.pop()
        emptied.append(here)
        try:
            entries = list(os.scandir(here))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                todo.append(entry.path)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
    for here in reversed(emptied):
        with contextlib.suppress(OSError):
            os.rmdir(here)


def empty_folder(folder: Path) -> None:
    """Remove everything in ``folder`` (which stays), however deep."""
    with os.scandir(folder) as entries:
        inside = [Path(entry.path) for entry in entries]
    for path in inside:
        if path.is_dir() and not path.is_symlink():
            remove_tree(path)
        else:
            with contextlib.suppress(OSError):
                path.unlink()
