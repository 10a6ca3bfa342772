"""Settings every test shares."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# No property test is timed: hypothesis's per-example deadline (200 ms) is a timed assertion,
# which a busy CI machine fails at random. Examples still run; only the clock is not judged.
settings.register_profile("casino", deadline=None)
settings.load_profile("casino")


def _ignored_here_only(signum: int, frame: object) -> None:
    """Stands for ``SIG_IGN`` in the test process; a handler, unlike ``SIG_IGN``, is not
    inherited by the programs it starts (``exec`` resets it to the default)."""


# Started under nohup, or with ``&`` from a script, the suite would have SIGHUP or SIGINT
# ignored, and hand that to every program it starts: casino keeps a signal ignored when it
# finds it so (as nohup wants), and the tests that stop programs with Ctrl-C or a hang-up would
# wait for nothing. So the test process takes Ctrl-C as Python does by default (KeyboardInterrupt:
# the in-process tests send it to themselves) and ignores a hang-up through a handler; the
# programs it starts get the defaults.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, _ignored_here_only)


def pytest_report_header() -> str:
    """The hash seed the tests run with: tox's ``oldest`` draws one at random (``tox -e oldest
    --hashseed N`` runs with N again), ``tests`` fixes it at 0."""
    return f"PYTHONHASHSEED={os.environ.get('PYTHONHASHSEED', 'random (not set)')}"


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Precomputed tables go to a temporary cache directory for the session (built once in
    it), never to the user's (:func:`casino.cache.cache_dir`); subprocesses inherit it."""
    folder = tmp_path_factory.mktemp("casino-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CASINO_CACHE_DIR", str(folder))
        patch.delenv("XDG_CACHE_HOME", raising=False)
        yield folder


@pytest.fixture(scope="session", autouse=True)
def cheap_password_hashes() -> Iterator[None]:
    """Members' passwords hashed at scrypt N=16 for the session (subprocesses inherit it):
    OWASP's N=2^17 costs 128 MiB and about 0.3 s a hash, and the web's tests register
    hundreds of members. ``tests/web/test_passwords.py`` checks the real default."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CASINO_WEB_SCRYPT_N", "16")
        yield
