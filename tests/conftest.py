"""Settings every test shares."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Precomputed tables go to a temporary cache directory for the session (built once in
    it), never to the user's (:func:`casino.cache.cache_dir`); subprocesses inherit it."""
    folder = tmp_path_factory.mktemp("casino-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CASINO_CACHE_DIR", str(folder))
        patch.delenv("XDG_CACHE_HOME", raising=False)
        yield folder
