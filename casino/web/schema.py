"""The store's database as SQL: what it needs of a connection, the versioned schema
(:data:`MIGRATIONS`) and what differs between SQLite and PostgreSQL (:class:`Dialect`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Connection(Protocol):
    """What the store needs of a DB-API connection."""

    def execute(self, sql: str, parameters: Sequence[Any] = ...) -> Any: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...


MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: members, accounts, games, holds, results, ledger, login failures
        """CREATE TABLE accounts (
            id {serial} PRIMARY KEY,
            name TEXT NOT NULL,
            folded TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('member', 'house')),
            balance BIGINT NOT NULL CHECK (balance >= 0 OR kind = 'house'),
            salt {blob},
            hash {blob},
            created DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE games (
            id {serial} PRIMARY KEY,
            kind TEXT NOT NULL,
            tablename TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('open', 'settled', 'void')),
            opened DOUBLE PRECISION NOT NULL,
            closed DOUBLE PRECISION)""",
        """CREATE TABLE holds (
            game BIGINT NOT NULL REFERENCES games (id),
            account BIGINT NOT NULL REFERENCES accounts (id),
            amount BIGINT NOT NULL CHECK (amount >= 0),
            payout BIGINT,
            PRIMARY KEY (game, account))""",
        """CREATE TABLE ledger (
            id {serial} PRIMARY KEY,
            at DOUBLE PRECISION NOT NULL,
            account BIGINT REFERENCES accounts (id),
            game BIGINT REFERENCES games (id),
            kind TEXT NOT NULL CHECK (kind IN ('issue', 'stake', 'payout', 'refund')),
            amount BIGINT NOT NULL)""",
        "CREATE INDEX ledger_account ON ledger (account)",
        "CREATE INDEX holds_account ON holds (account)",
        "CREATE INDEX games_open ON games (state)",
        """CREATE TABLE login_failures (
            folded TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX login_failures_name ON login_failures (folded, at)",
    ),
    (  # 2: the house's refills of empty wallets (each one also an 'issue' row of the ledger)
        """CREATE TABLE refills (
            account BIGINT NOT NULL REFERENCES accounts (id),
            at DOUBLE PRECISION NOT NULL,
            amount BIGINT NOT NULL CHECK (amount > 0))""",
        "CREATE INDEX refills_account ON refills (account, at)",
    ),
    (  # 3: chat: the lines said in each room (the hand they were said in), and the mutes
        """CREATE TABLE chat_lines (
            id {serial} PRIMARY KEY,
            room TEXT NOT NULL,
            member BIGINT NOT NULL REFERENCES accounts (id),
            text TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            game BIGINT REFERENCES games (id))""",
        "CREATE INDEX chat_lines_room ON chat_lines (room, id)",
        """CREATE TABLE chat_mutes (
            member BIGINT NOT NULL REFERENCES accounts (id),
            muted BIGINT NOT NULL REFERENCES accounts (id),
            PRIMARY KEY (member, muted))""",
    ),
    (  # 4: each settled Hold'em hand's record (casino.holdem.record), written with its payouts
        """CREATE TABLE hands (
            game BIGINT PRIMARY KEY REFERENCES games (id),
            record TEXT NOT NULL)""",
    ),
)


@dataclass(frozen=True)
class Dialect:
    """What differs between the two databases: placeholders and a few types."""

    name: str
    placeholder: str
    serial: str
    blob: str
    row_id: str = "rowid"
    """The column that names one row of any table (SQLite's ``rowid``, PostgreSQL's
    ``ctid``)."""

    def sql(self, text: str) -> str:
        """``text`` (written with ``?`` placeholders) for this database."""
        return text.replace("?", self.placeholder) if self.placeholder != "?" else text


SQLITE = Dialect("sqlite", "?", "INTEGER", "BLOB")
POSTGRES = Dialect("postgresql", "%s", "BIGINT GENERATED ALWAYS AS IDENTITY", "BYTEA", "ctid")
