"""The store ``--database`` names, opened: an SQLite file (the standard library's, WAL) or a
PostgreSQL database (psycopg 3, the ``postgres`` extra), each a :class:`casino.web.store.Store`."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from casino.errors import SetupError
from casino.web.schema import POSTGRES, SQLITE, Connection
from casino.web.store import Store


class StoreUnavailable(SetupError):
    """The database cannot be reached or opened (one line for the operator)."""


def sqlite_store(path: str, **options: Any) -> Store:
    """A store in the SQLite file ``path`` (WAL; created if missing)."""

    def connect() -> Connection:
        try:
            connection = sqlite3.connect(path, timeout=30, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreUnavailable(f"cannot open the database {path}: {error}") from None
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        return _SqliteConnection(connection)

    return Store(connect, SQLITE, **options)


class _SqliteConnection:
    """sqlite3 in autocommit mode, with transactions begun by the store itself."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        return self._connection.execute(sql, parameters)

    def commit(self) -> None:
        if self._connection.in_transaction:
            self._connection.execute("COMMIT")

    def rollback(self) -> None:
        if self._connection.in_transaction:
            self._connection.execute("ROLLBACK")

    def close(self) -> None:
        self._connection.close()


def postgres_store(url: str, **options: Any) -> Store:
    """A store in the PostgreSQL database at ``url`` (``postgresql://…``; psycopg 3)."""
    try:
        import psycopg
    except ImportError:
        raise StoreUnavailable(
            "--database postgresql://… needs psycopg: "
            "pip install -e '.[postgres]' in casino's folder"
        ) from None

    def connect() -> Connection:
        try:
            return psycopg.connect(url)
        except psycopg.Error as error:
            why = " ".join(str(error).split())  # one line
            raise StoreUnavailable(f"cannot reach the database: {why}") from None

    return Store(connect, POSTGRES, **options)


def open_store(where: str, **options: Any) -> Store:
    """The store ``--database`` names: a ``postgresql://`` URL, or an SQLite file."""
    if where.startswith(("postgresql://", "postgres://")):
        return postgres_store(where, **options)
    return sqlite_store(where, **options)
