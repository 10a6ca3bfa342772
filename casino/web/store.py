"""The casino's members and their money, kept in a real database: SQLite (the standard
library's, WAL) by default, PostgreSQL (psycopg 3, the ``postgres`` extra) for a casino that
outgrows one process. One small layer, the same for both.

**Members.** :meth:`Store.register` keeps a name (printable text, compared case-blind) and the
password's ``hashlib.scrypt`` hash with a salt of the member's own, at OWASP's cost (N=2^17,
r=8, p=1: :data:`casino.web.passwords.OWASP_SCRYPT`), the cost kept with the hash so that an
older, cheaper one is made again at the next log-in; the house's starting amount is issued to
the new wallet in the same transaction. :meth:`Store.login` checks it; after
:data:`LOGIN_FAILURES` failed attempts on a name within :data:`LOGIN_WINDOW` seconds, the name
is refused until the window has passed (kept in the database, so every process sees it; each
attempt counted before its hash is made, so that concurrent ones cannot test more).

**Money.** Every chip is somewhere: in a member's wallet, in the house's account, or *held* in
an open game (a Hold'em hand, a dominoes hand). The ledger records every movement, so that

    sum of every wallet + the house + what open games hold == sum of what was ever issued

**Refills.** The house's rule for a member who has lost everything: :meth:`Store.refill`
issues the starting bankroll again to a wallet that is empty while nothing of the member's is
held at a table, at most once every :data:`REFILL_EVERY` seconds (a day); the ledger gets an
``issue`` row like a registration's (so the books balance as ever) and ``refills`` says when.

A game is opened, each player's stake moved from its account into the game's holds
(:meth:`Store.stake`: a member cannot stake what the wallet does not have), and settled in ONE
transaction (:meth:`Store.settle`: the payouts must add up to the holds; the wallets, the
results and the ledger rows are written together, and a game is settled once, whichever
process tries). On start, :meth:`Store.void_open_games` returns the stakes of every game a
stopped server left open (``kill -9`` in the middle of a hand loses nothing).

**Schema.** Versioned: :data:`casino.web.schema.MIGRATIONS` are applied in order, each in a
transaction, and the version kept in ``schema_version`` (two processes starting at once on
PostgreSQL take turns under an advisory lock). :mod:`casino.web.databases` opens the store
``--database`` names.

Time comes from an injected ``now()`` (seconds since the epoch; tests pass their own).
"""

from __future__ import annotations

import hmac
import os
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from casino.errors import CasinoError
from casino.web import schema
from casino.web.passwords import ScryptCost, default_cost, password_hash, read_hash
from casino.web.schema import POSTGRES, SQLITE, Connection, Dialect

HOUSE = "house"
"""The house's account name (the computer players' chips, and what the members lose)."""
LOGIN_FAILURES = 5
LOGIN_WINDOW = 15 * 60.0
NAME_LENGTH = 24
PASSWORD_LENGTH = (8, 256)


REFILLED = "your wallet was already refilled today: it is not empty"
"""The refusal of a refill asked again after one (another tab's, a second click)."""


class StoreError(CasinoError):
    """What the member asked cannot be done (a name taken, a wrong password, no money): a
    message for the member. ``template`` (a message id of the ``web`` catalog) and ``values``
    let a page say it in the member's language."""

    def __init__(self, template: str, **values: object) -> None:
        super().__init__(template.format(**values))
        self.template = template
        self.values = values


@dataclass(frozen=True)
class Member:
    """A member as the pages show them."""

    id: int
    name: str
    balance: int


@dataclass(frozen=True)
class HistoryEntry:
    """One finished game of a member's: what kind, when, what was staked and paid back."""

    game: int
    kind: str
    table: str
    at: float
    stake: int
    payout: int
    state: str
    """``settled``, or ``void`` (a game a stopped server left open: its stakes returned)."""
    recorded: bool = False
    """Whether the game's hand record is kept (a settled Hold'em hand: ``/hand/GAME``)."""

    @property
    def net(self) -> int:
        """What the member won (negative: lost)."""
        return self.payout - self.stake


REFILL_EVERY = 24 * 60 * 60.0
"""Seconds between two refills of one member's wallet (the house's rule: once a day)."""


def fold(name: str) -> str:
    """A name as compared: Unicode-normalised, case-blind, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_name(name: str) -> str:
    """The name as kept (spaces collapsed); :class:`StoreError` for one that is empty, too
    long, or holds anything but printable text."""
    kept = " ".join(name.split())
    if not kept:
        raise StoreError("a member needs a name")
    if len(kept) > NAME_LENGTH:
        raise StoreError("a name has at most {count} characters", count=NAME_LENGTH)
    if any(unicodedata.category(c)[0] == "C" for c in kept):
        raise StoreError("a name is printable text only")
    if fold(kept) == HOUSE:
        raise StoreError("{name!r} is the house's", name=kept)
    return kept


class Store:
    """Members, wallets, games and the ledger, in one database (see the module)."""

    def __init__(
        self,
        connect: Callable[[], Connection],
        dialect: Dialect,
        starting_bankroll: int = 1000,
        now: Callable[[], float] = time.time,
        cost: ScryptCost | None = None,
    ) -> None:
        """``connect`` opens a connection (one per thread); the schema is brought up to date.
        New and upgraded passwords are hashed at ``cost`` (default:
        :func:`casino.web.passwords.default_cost`)."""
        self._connect = connect
        self.dialect = dialect
        self.starting_bankroll = starting_bankroll
        self.now = now
        self.cost = cost or default_cost()
        self._local = threading.local()
        self.migrate()
        self._house = self._ensure_house()

    # -- plumbing -------------------------------------------------------------------------------

    def _connection(self) -> Connection:
        connection: Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._connect()
            self._local.connection = connection
        return connection

    @contextmanager
    def transaction(self) -> Iterator[Callable[..., Any]]:
        """One transaction; yields ``run(sql, *parameters)`` (``?`` placeholders)."""
        connection = self._connection()
        if self.dialect is SQLITE:
            connection.execute("BEGIN IMMEDIATE")

        def run(sql: str, *parameters: Any) -> Any:
            return connection.execute(self.dialect.sql(sql), parameters)

        try:
            yield run
        except BaseException:
            connection.rollback()
            raise
        connection.commit()

    def close(self) -> None:
        """Close this thread's connection."""
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def version(self) -> int:
        """The schema version the database is at."""
        with self.transaction() as run:
            return self._version(run)

    def _version(self, run: Callable[..., Any]) -> int:
        run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = run("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def migrate(self) -> None:
        """Apply every migration the database has not had, each in a transaction."""
        for number, steps in enumerate(schema.MIGRATIONS, start=1):
            with self.transaction() as run:
                if self.dialect is POSTGRES:
                    run("SELECT pg_advisory_xact_lock(7406195)")
                if self._version(run) >= number:
                    continue
                for step in steps:
                    run(step.format(serial=self.dialect.serial, blob=self.dialect.blob))
                run("INSERT INTO schema_version (version) VALUES (?)", number)

    def _ensure_house(self) -> int:
        with self.transaction() as run:
            row = run("SELECT id FROM accounts WHERE folded = ?", HOUSE).fetchone()
            if row is None:
                run(
                    "INSERT INTO accounts (name, folded, kind, balance, created) "
                    "VALUES (?, ?, 'house', 0, ?)",
                    HOUSE,
                    HOUSE,
                    self.now(),
                )
                row = run("SELECT id FROM accounts WHERE folded = ?", HOUSE).fetchone()
            return int(row[0])

    @property
    def house(self) -> int:
        """The house's account id."""
        return self._house

    # -- members --------------------------------------------------------------------------------

    def register(self, name: str, password: str) -> Member:
        """A new member with the house's starting amount; :class:`StoreError` if the name is
        taken or not allowed, or the password too short or long."""
        kept = check_name(name)
        low, high = PASSWORD_LENGTH
        if not low <= len(password) <= high:
            raise StoreError("a password has {low} to {high} characters", low=low, high=high)
        salt = os.urandom(16)
        digest = password_hash(password, salt, self.cost)
        with self.transaction() as run:
            if run("SELECT 1 FROM accounts WHERE folded = ?", fold(kept)).fetchone():
                raise StoreError("the name {name!r} is taken", name=kept)
            member = run(
                "INSERT INTO accounts (name, folded, kind, balance, salt, hash, created) "
                "VALUES (?, ?, 'member', ?, ?, ?, ?) RETURNING id",
                kept,
                fold(kept),
                self.starting_bankroll,
                salt,
                digest,
                self.now(),
            ).fetchone()[0]
            run(
                "INSERT INTO ledger (at, account, kind, amount) VALUES (?, ?, 'issue', ?)",
                self.now(),
                member,
                self.starting_bankroll,
            )
        return Member(int(member), kept, self.starting_bankroll)

    def login(self, name: str, password: str) -> Member:
        """The member, if the password is theirs; :class:`StoreError` otherwise, or while the
        name is locked after too many failures.

        Each attempt is counted *before* its hash is made, in the transaction that checks the
        lock (on PostgreSQL under a lock of the name's; SQLite's write transactions take
        turns anyway): however many arrive at once, at most :data:`LOGIN_FAILURES` of them
        within :data:`LOGIN_WINDOW` are ever hashed. A right password takes its own attempt
        back; a hash kept at another cost than the store's is made again at the store's."""
        folded = fold(name)
        with self.transaction() as run:
            if self.dialect is POSTGRES:
                run("SELECT pg_advisory_xact_lock(7406196, hashtext(?))", folded)
            at = self.now()
            failures = run(
                "SELECT COUNT(*) FROM login_failures WHERE folded = ? AND at > ?",
                folded,
                at - LOGIN_WINDOW,
            ).fetchone()[0]
            if failures >= LOGIN_FAILURES:
                raise StoreError("too many failed logins for this name: try again later")
            run("INSERT INTO login_failures (folded, at) VALUES (?, ?)", folded, at)
            row = run(
                "SELECT id, name, balance, salt, hash FROM accounts "
                "WHERE folded = ? AND kind = 'member'",
                folded,
            ).fetchone()
        cost, kept = read_hash(bytes(row[4])) if row else (self.cost, b"")
        salt = bytes(row[3]) if row else os.urandom(16)
        digest = cost.digest(password, salt)  # made for an unknown name too: no timing hint
        if row is None or not hmac.compare_digest(digest, kept):  # that a name is free
            with self.transaction() as run:
                run("DELETE FROM login_failures WHERE at <= ?", self.now() - LOGIN_WINDOW)
            raise StoreError("wrong name or password")
        self._logged_in(int(row[0]), folded, at, password if cost != self.cost else None)
        return Member(int(row[0]), str(row[1]), int(row[2]))

    def _logged_in(self, member: int, folded: str, at: float, rehash: str | None) -> None:
        """Take back the attempt counted at ``at`` (one row); with ``rehash`` (the password),
        keep its hash at the store's cost, with a new salt."""
        update = None
        if rehash is not None:
            salt = os.urandom(16)
            update = (salt, password_hash(rehash, salt, self.cost), member)
        with self.transaction() as run:
            rowid = self.dialect.row_id
            run(
                f"DELETE FROM login_failures WHERE {rowid} IN (SELECT {rowid} FROM "
                "login_failures WHERE folded = ? AND at = ? LIMIT 1)",
                folded,
                at,
            )
            if update is not None:
                run("UPDATE accounts SET salt = ?, hash = ? WHERE id = ?", *update)

    def member(self, member_id: int) -> Member | None:
        """The member with this id (``None`` if there is none)."""
        with self.transaction() as run:
            row = run(
                "SELECT id, name, balance FROM accounts WHERE id = ? AND kind = 'member'",
                member_id,
            ).fetchone()
        return None if row is None else Member(int(row[0]), str(row[1]), int(row[2]))

    def balances(self, members: Sequence[int]) -> dict[int, int]:
        """Each member's balance (id → dollars), in one query; an id that is no member's is
        left out."""
        if not members:
            return {}
        marks = ", ".join("?" * len(members))
        with self.transaction() as run:
            rows = run(
                f"SELECT id, balance FROM accounts WHERE kind = 'member' AND id IN ({marks})",
                *members,
            ).fetchall()
        return {int(r[0]): int(r[1]) for r in rows}

    def held(self, member_id: int) -> int:
        """What of the member's is held at a table now (their stakes in open games)."""
        with self.transaction() as run:
            row = run(
                "SELECT COALESCE(SUM(h.amount), 0) FROM holds h JOIN games g ON g.id = h.game "
                "WHERE h.account = ? AND g.state = 'open'",
                member_id,
            ).fetchone()
        return int(row[0])

    def holdings(self) -> dict[int, int]:
        """What each member has at a table now (account → chips in open games; none: left
        out)."""
        with self.transaction() as run:
            rows = run(
                "SELECT h.account, SUM(h.amount) FROM holds h JOIN games g ON g.id = h.game "
                "JOIN accounts a ON a.id = h.account "
                "WHERE g.state = 'open' AND a.kind = 'member' GROUP BY h.account"
            ).fetchall()
        return {int(r[0]): int(r[1]) for r in rows if int(r[1])}

    def refill_at(self, member_id: int) -> float | None:
        """When the member may next be refilled (``None``: now, if their wallet is empty)."""
        with self.transaction() as run:
            row = run("SELECT MAX(at) FROM refills WHERE account = ?", member_id).fetchone()
        last = None if row[0] is None else float(row[0])
        if last is None or self.now() >= last + REFILL_EVERY:
            return None
        return last + REFILL_EVERY

    def refill(self, member_id: int) -> int:
        """Issue the starting bankroll to the member's empty wallet (the house's rule: nothing
        left in the wallet or at a table, once every :data:`REFILL_EVERY` seconds); the new
        balance. :class:`StoreError` saying why when the rule does not allow it."""
        amount = self.starting_bankroll
        with self.transaction() as run:
            row = run(
                "SELECT balance FROM accounts WHERE id = ? AND kind = 'member'", member_id
            ).fetchone()
            if row is None:
                raise StoreError("no such member")
            held = run(
                "SELECT COALESCE(SUM(h.amount), 0) FROM holds h JOIN games g ON g.id = h.game "
                "WHERE h.account = ? AND g.state = 'open'",
                member_id,
            ).fetchone()[0]
            last = run("SELECT MAX(at) FROM refills WHERE account = ?", member_id).fetchone()[0]
            today = last is not None and self.now() < float(last) + REFILL_EVERY
            if int(row[0]) > 0 or int(held) > 0:  # (refilled today: a second tab, a double click)
                raise StoreError(REFILLED if today else "a refill is for an empty wallet")
            if today:
                raise StoreError("one refill a day: the next one is yours tomorrow")
            moved = run(
                "UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance = 0",
                amount,
                member_id,
            )
            if moved.rowcount != 1:  # spent or refilled meanwhile by another process
                raise StoreError("a refill is for an empty wallet")
            run(
                "INSERT INTO refills (account, at, amount) VALUES (?, ?, ?)",
                member_id,
                self.now(),
                amount,
            )
            run(
                "INSERT INTO ledger (at, account, kind, amount) VALUES (?, ?, 'issue', ?)",
                self.now(),
                member_id,
                amount,
            )
        return amount

    def leaderboard(self, count: int = 10) -> list[Member]:
        """The richest members, richest first (ties by name)."""
        with self.transaction() as run:
            rows = run(
                "SELECT id, name, balance FROM accounts WHERE kind = 'member' "
                "ORDER BY balance DESC, folded LIMIT ?",
                count,
            ).fetchall()
        return [Member(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    def history(self, member_id: int, count: int = 50) -> list[HistoryEntry]:
        """The member's finished games, newest first."""
        with self.transaction() as run:
            rows = run(
                "SELECT g.id, g.kind, g.tablename, g.closed, h.amount, h.payout, g.state, "
                "r.game IS NOT NULL FROM holds h JOIN games g ON g.id = h.game "
                "LEFT JOIN hands r ON r.game = g.id WHERE h.account = ? AND g.state <> 'open' "
                "ORDER BY g.closed DESC, g.id DESC "
                "LIMIT ?",
                member_id,
                count,
            ).fetchall()
        return [
            HistoryEntry(
                int(r[0]),
                str(r[1]),
                str(r[2]),
                float(r[3]),
                int(r[4]),
                int(r[4] if r[5] is None else r[5]),
                str(r[6]),
                bool(r[7]),
            )
            for r in rows
        ]

    # -- games ----------------------------------------------------------------------------------

    def open_game(self, kind: str, table: str, stakes: Mapping[int, int]) -> int:
        """Open a game and move each account's stake into it, in one transaction; the game's
        id. :class:`StoreError` (and nothing moved) if a member's wallet cannot cover it."""
        with self.transaction() as run:
            game = int(
                run(
                    "INSERT INTO games (kind, tablename, state, opened) "
                    "VALUES (?, ?, 'open', ?) RETURNING id",
                    kind,
                    table,
                    self.now(),
                ).fetchone()[0]
            )
            for account, amount in sorted(stakes.items()):
                self._stake(run, game, account, amount)
        return game

    def _stake(self, run: Callable[..., Any], game: int, account: int, amount: int) -> None:
        if amount < 0:
            raise StoreError("a stake is never negative")
        moved = run(
            "UPDATE accounts SET balance = balance - ? "
            "WHERE id = ? AND (balance >= ? OR kind = 'house')",
            amount,
            account,
            amount,
        )
        if moved.rowcount != 1:
            raise StoreError("not enough money in the wallet")
        run("INSERT INTO holds (game, account, amount) VALUES (?, ?, ?)", game, account, amount)
        run(
            "INSERT INTO ledger (at, account, game, kind, amount) VALUES (?, ?, ?, 'stake', ?)",
            self.now(),
            account,
            game,
            -amount,
        )

    def settle(self, game: int, payouts: Mapping[int, int], record: str | None = None) -> None:
        """Pay the game out and close it, in one transaction: every account that staked gets
        its payout (0 if not named); the payouts must add up to the stakes. A game already
        settled or voided is left alone (:class:`StoreError`). ``record`` (a hand's record,
        :mod:`casino.holdem.record`) is kept in the same transaction: never one without the
        other."""
        with self.transaction() as run:
            closed = run(
                "UPDATE games SET state = 'settled', closed = ? WHERE id = ? AND state = 'open'",
                self.now(),
                game,
            )
            if closed.rowcount != 1:
                raise StoreError("game {game} is not open", game=game)
            holds = dict(run("SELECT account, amount FROM holds WHERE game = ?", game).fetchall())
            if set(payouts) - set(holds) or sum(payouts.values()) != sum(holds.values()):
                raise StoreError("game {game}: the payouts do not match the stakes", game=game)
            if any(amount < 0 for amount in payouts.values()):
                raise StoreError("a payout is never negative")
            for account in sorted(holds):
                self._pay(run, game, account, payouts.get(account, 0), "payout")
            if record is not None:
                run("INSERT INTO hands (game, record) VALUES (?, ?)", game, record)

    def hand_record(self, game: int, account: int) -> str | None:
        """The record of hand ``game`` if ``account`` played in it (staked), else ``None``."""
        with self.transaction() as run:
            row = run(
                "SELECT r.record FROM hands r JOIN holds h ON h.game = r.game "
                "WHERE r.game = ? AND h.account = ?",
                game,
                account,
            ).fetchone()
        return None if row is None else str(row[0])

    def _pay(
        self, run: Callable[..., Any], game: int, account: int, amount: int, kind: str
    ) -> None:
        run("UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, account)
        run("UPDATE holds SET payout = ? WHERE game = ? AND account = ?", amount, game, account)
        run(
            "INSERT INTO ledger (at, account, game, kind, amount) VALUES (?, ?, ?, ?, ?)",
            self.now(),
            account,
            game,
            kind,
            amount,
        )

    def void_open_games(self, tables: str = "") -> list[int]:
        """Return every open game's stakes and mark it void (a server that stopped mid-game);
        the games voided. Only the games whose table's name starts with ``tables`` (one
        server's own, when several share the database; ``""``: every game).

        On PostgreSQL it first waits for every transaction that is writing games: a server
        killed a moment ago may have sent its last ``COMMIT``, which the database still carries
        out after the client died — a game opened so is voided here, not left open, and one
        settled so is not refunded on top of its payout."""
        with self.transaction() as run:
            if self.dialect is POSTGRES:
                run("LOCK TABLE games IN SHARE ROW EXCLUSIVE MODE")
            games = [
                int(r[0])
                for r in run(
                    "SELECT id FROM games WHERE state = 'open' "
                    "AND substr(tablename, 1, length(?)) = ?",
                    tables,
                    tables,
                ).fetchall()
            ]
            voided = [game for game in games if self._void(run, game)]
        return voided

    def _void(self, run: Callable[..., Any], game: int) -> bool:
        """Void one game and refund its holds if it is still open (settled meanwhile, it is
        left alone: nothing is paid twice)."""
        closed = run(
            "UPDATE games SET state = 'void', closed = ? WHERE id = ? AND state = 'open'",
            self.now(),
            game,
        )
        if closed.rowcount != 1:
            return False
        for account, amount in run(
            "SELECT account, amount FROM holds WHERE game = ?", game
        ).fetchall():
            self._pay(run, game, int(account), int(amount), "refund")
        return True

    # -- the books ------------------------------------------------------------------------------

    def audit(self) -> tuple[int, int]:
        """``(issued, accounted)``: what was ever issued, and what the wallets, the house and
        the open games' holds add up to — always equal."""
        with self.transaction() as run:
            issued = run("SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE kind = 'issue'")
            balances = run("SELECT COALESCE(SUM(balance), 0) FROM accounts").fetchone()[0]
            held = run(
                "SELECT COALESCE(SUM(h.amount), 0) FROM holds h JOIN games g ON g.id = h.game "
                "WHERE g.state = 'open'"
            ).fetchone()[0]
            return int(issued.fetchone()[0]), int(balances) + int(held)
