"""Members' passwords: hashed at OWASP's scrypt cost by default, an older hash made again at the
next log-in, and the log-in lock counted before the hash, so that 40 wrong passwords sent at
once test at most 5 (on SQLite and on a real PostgreSQL server)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from casino.web import passwords as passwords_module
from casino.web.passwords import (
    LEGACY_SCRYPT,
    OWASP_SCRYPT,
    ScryptCost,
    default_cost,
    read_hash,
    stored_hash,
)
from casino.web.store import LOGIN_FAILURES, Store, StoreError

from .test_store import Factory, make, new_database, where

__all__ = ["make", "new_database", "where"]  # the store's fixtures, both databases


def test_the_default_cost_is_owasps() -> None:
    assert default_cost({}) == OWASP_SCRYPT == ScryptCost(n=2**17, r=8, p=1)
    assert default_cost({"CASINO_WEB_SCRYPT_N": "1024"}) == ScryptCost(n=1024)
    for odd in ("1000", "0", "1", "-4", "x", str(2**21)):
        assert default_cost({"CASINO_WEB_SCRYPT_N": odd}) == OWASP_SCRYPT


def test_owasps_cost_hashes_here() -> None:
    """One real hash (128 MiB, a fraction of a second): its memory allowance suffices."""
    digest = OWASP_SCRYPT.digest("correct horse", b"salt" * 4)
    assert len(digest) == 32
    assert read_hash(stored_hash(OWASP_SCRYPT, digest)) == (OWASP_SCRYPT, digest)


def test_a_bare_digest_is_an_older_hash() -> None:
    assert read_hash(b"d" * 32) == (LEGACY_SCRYPT, b"d" * 32)


def kept_hash(store: Store, name: str) -> bytes:
    with store.transaction() as run:
        row = run("SELECT hash FROM accounts WHERE name = ?", name).fetchone()
    return bytes(row[0])


def test_an_older_hash_is_made_again_at_the_next_log_in(make: Factory) -> None:
    store = make(cost=ScryptCost(n=32))
    store.register("Ana", "correct horse")
    with store.transaction() as run:
        salt = bytes(run("SELECT salt FROM accounts WHERE name = 'Ana'").fetchone()[0])
        legacy = LEGACY_SCRYPT.digest("correct horse", salt)  # as kept before costs were
        run("UPDATE accounts SET hash = ? WHERE name = 'Ana'", legacy)
    assert store.login("Ana", "correct horse").name == "Ana"
    cost, digest = read_hash(kept_hash(store, "Ana"))
    assert cost == ScryptCost(n=32) and digest != legacy
    assert store.login("Ana", "correct horse").name == "Ana"  # the new hash holds
    with pytest.raises(StoreError, match="wrong name or password"):
        store.login("Ana", "wrong horse")
    stronger = make(cost=ScryptCost(n=64))  # the operator raises the cost
    assert stronger.login("Ana", "correct horse").name == "Ana"
    assert read_hash(kept_hash(stronger, "Ana"))[0] == ScryptCost(n=64)


def test_a_right_password_takes_its_attempt_back(make: Factory) -> None:
    store = make()
    store.register("Ana", "correct horse")
    for _ in range(LOGIN_FAILURES - 1):
        with pytest.raises(StoreError, match="wrong"):
            store.login("Ana", "guess")
    for _ in range(3):
        assert store.login("Ana", "correct horse").name == "Ana"
    with pytest.raises(StoreError, match="wrong"):
        store.login("Ana", "guess")  # the fifth failure
    with pytest.raises(StoreError, match="too many failed logins"):
        store.login("Ana", "correct horse")


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every password hashed from now on, in order."""
    made: list[str] = []
    real = ScryptCost.digest

    def counted(cost: ScryptCost, password: str, salt: bytes) -> bytes:
        made.append(password)
        return real(cost, password, salt)

    monkeypatch.setattr(passwords_module.ScryptCost, "digest", counted)
    yield made


def test_forty_wrong_passwords_at_once_test_at_most_five(make: Factory, hashes: list[str]) -> None:
    store = make()
    store.register("Ana", "correct horse")
    hashes.clear()
    said: list[str] = []
    start = threading.Barrier(40)

    def guess(number: int) -> None:
        start.wait()
        try:
            store.login("Ana", f"guess {number}")
        except StoreError as error:
            said.append(str(error))
        finally:
            store.close()  # this thread's connection

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(hashes) == LOGIN_FAILURES == 5
    assert sorted(set(said)) == [
        "too many failed logins for this name: try again later",
        "wrong name or password",
    ]
    assert said.count("wrong name or password") == LOGIN_FAILURES
    with pytest.raises(StoreError, match="too many failed logins"):
        store.login("Ana", "correct horse")
