"""The members' store, on SQLite and on a real PostgreSQL server (the same tests on both):
accounts with scrypt hashes and rate-limited logins, games that hold stakes and settle in one
transaction, nothing lost to ``kill -9``, and every chip accounted for."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.web import passwords, schema
from casino.web.databases import open_store
from casino.web.store import (
    LOGIN_FAILURES,
    LOGIN_WINDOW,
    REFILL_EVERY,
    Store,
    StoreError,
)

ROOT = Path(__file__).resolve().parents[2]
Factory = Callable[..., Store]
INTEGRITY: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)
try:
    import psycopg

    INTEGRITY += (psycopg.IntegrityError,)
except ImportError:  # (the PostgreSQL tests skip then)
    pass


class Now:
    """A clock the tests move: seconds since the epoch."""

    def __init__(self) -> None:
        self.value = 1_800_000_000.0

    def __call__(self) -> float:
        return self.value


@pytest.fixture(params=["sqlite", "postgresql"])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """Makes new, empty databases of each kind: their ``--database`` values."""
    if request.param == "sqlite":
        return lambda: str(tmp_path / f"casino-{os.urandom(6).hex()}.db")
    from . import postgres_server

    server = request.getfixturevalue("postgres")
    return lambda: postgres_server.fresh_database(server)


@pytest.fixture
def where(new_database: Callable[[], str]) -> str:
    """A new, empty database of each kind."""
    return new_database()


@pytest.fixture
def make(where: str) -> Iterator[Factory]:
    """Opens stores on the test's database (closed after the test)."""
    opened: list[Store] = []

    def factory(**options: object) -> Store:
        made = open_store(where, **options)
        opened.append(made)
        return made

    yield factory
    for each in opened:
        each.close()


def test_a_member_registers_with_the_houses_amount_and_logs_in(make: Factory) -> None:
    store = make(starting_bankroll=1000)
    ana = store.register("Ana  María", "correct horse")
    assert (ana.name, ana.balance) == ("Ana María", 1000)
    assert store.login("ana maría", "correct horse") == ana  # names are case-blind
    with pytest.raises(StoreError, match="wrong name or password"):
        store.login("Ana María", "wrong horse")
    with pytest.raises(StoreError, match="wrong name or password"):
        store.login("Nobody", "correct horse")
    with pytest.raises(StoreError, match="the name 'ANA MARÍA' is taken"):
        store.register("ANA MARÍA", "another one")
    assert store.audit() == (1000, 1000)


def test_passwords_are_kept_as_salted_scrypt_hashes(make: Factory) -> None:
    store = make()
    store.register("Ana", "same password")
    store.register("Bea", "same password")
    with store.transaction() as run:
        rows = run("SELECT salt, hash FROM accounts WHERE kind = 'member' ORDER BY id").fetchall()
    (salt_a, hash_a), (salt_b, hash_b) = ((bytes(s), bytes(h)) for s, h in rows)
    assert salt_a != salt_b and hash_a != hash_b
    assert hash_a == passwords.password_hash("same password", salt_a)
    assert b"same password" not in hash_a + hash_b


@pytest.mark.parametrize(
    ("name", "why"),
    [("", "needs a name"), ("x" * 25, "at most 24"), ("Ana\x1b[2J", "printable text only"),
     ("House", "the house's")],
)  # fmt: skip
def test_names_are_printable_text_and_never_the_houses(make: Factory, name: str, why: str) -> None:
    with pytest.raises(StoreError, match=why):
        make().register(name, "long enough")


def test_logins_are_rate_limited_per_name(make: Factory) -> None:
    now = Now()
    store = make(now=now)
    store.register("Ana", "correct horse")
    store.register("Bea", "correct horse")
    for _ in range(LOGIN_FAILURES):
        with pytest.raises(StoreError, match="wrong"):
            store.login("Ana", "guess")
    with pytest.raises(StoreError, match="too many failed logins"):
        store.login("Ana", "correct horse")  # even the right password, for now
    assert store.login("Bea", "correct horse").name == "Bea"  # another name is not locked
    now.value += LOGIN_WINDOW + 1
    assert store.login("Ana", "correct horse").name == "Ana"


def test_a_game_holds_the_stakes_and_settles_once(make: Factory) -> None:
    store = make(starting_bankroll=100)
    ana, bea = store.register("Ana", "password1"), store.register("Bea", "password2")
    game = store.open_game("holdem", "table-1", {ana.id: 60, bea.id: 100, store.house: 50})
    assert [m.balance for m in map(store.member, (ana.id, bea.id)) if m] == [40, 0]
    assert store.audit() == (200, 200)  # held chips count
    with pytest.raises(StoreError, match="do not match the stakes"):
        store.settle(game, {ana.id: 200})  # 10 short of the 210 held
    store.settle(game, {ana.id: 150, store.house: 60})
    assert [m.balance for m in map(store.member, (ana.id, bea.id)) if m] == [190, 0]
    assert store.balances([bea.id, ana.id, store.house, 10**6]) == {ana.id: 190, bea.id: 0}
    assert store.balances([]) == {}
    with pytest.raises(StoreError, match="is not open"):
        store.settle(game, {ana.id: 210})
    assert store.audit() == (200, 200)
    assert [(h.kind, h.stake, h.payout, h.net) for h in store.history(ana.id)] == [
        ("holdem", 60, 150, 90)
    ]
    assert store.history(bea.id)[0].net == -100


def test_a_stake_over_the_wallet_moves_nothing(make: Factory) -> None:
    store = make(starting_bankroll=10)
    ana = store.register("Ana", "password1")
    with pytest.raises(StoreError, match="not enough money"):
        store.open_game("domino", "ana", {ana.id: 10, store.house: 10, 999: 0})
    with pytest.raises(StoreError, match="not enough money"):
        store.open_game("domino", "ana", {ana.id: 11, store.house: 11})
    assert store.member(ana.id) == ana
    assert store.audit() == (10, 10)
    with store.transaction() as run:
        assert run("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_open_games_are_voided_and_their_stakes_returned(make: Factory) -> None:
    store = make(starting_bankroll=100)
    ana = store.register("Ana", "password1")
    settled = store.open_game("domino", "ana", {ana.id: 10, store.house: 10})
    store.settle(settled, {ana.id: 20})
    left_open = store.open_game("domino", "ana", {ana.id: 10, store.house: 10})
    reopened = make(starting_bankroll=100)  # the server again, after a crash
    assert reopened.void_open_games() == [left_open]
    assert reopened.member(ana.id).balance == 110  # type: ignore[union-attr]
    assert [(h.state, h.net) for h in reopened.history(ana.id)] == [("void", 0), ("settled", 10)]
    assert reopened.audit() == (100, 100)


def test_a_server_voids_only_its_own_open_games(make: Factory) -> None:
    store = make(starting_bankroll=100)
    ana, bo = store.register("Ana", "password1"), store.register("Bo", "password1")
    mine = store.open_game("holdem", "one/table 1", {ana.id: 30, store.house: 30})
    theirs = store.open_game("holdem", "two/table 1", {bo.id: 40, store.house: 40})
    assert store.void_open_games("one/") == [mine]
    assert store.member(ana.id).balance == 100  # type: ignore[union-attr]
    assert store.member(bo.id).balance == 60  # type: ignore[union-attr]
    store.settle(theirs, {bo.id: 80})  # the other server's hand goes on
    assert store.member(bo.id).balance == 140  # type: ignore[union-attr]
    assert store.audit() == (200, 200)


def test_the_schema_is_migrated_once_and_data_kept(make: Factory) -> None:
    first = make(starting_bankroll=100)
    first.register("Ana", "password1")
    assert first.version() == len(schema.MIGRATIONS)
    again = make(starting_bankroll=500)
    assert again.version() == len(schema.MIGRATIONS)
    assert again.login("Ana", "password1").balance == 100
    with again.transaction() as run:
        assert run("SELECT COUNT(*) FROM schema_version").fetchone()[0] == len(schema.MIGRATIONS)


def test_a_migration_added_later_is_applied_to_an_existing_database(
    make: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    make(starting_bankroll=100).register("Ana", "password1")
    step = ("CREATE TABLE tables_seen (name TEXT NOT NULL)",)
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, step))
    later = make(starting_bankroll=100)
    assert later.version() == len(schema.MIGRATIONS)
    assert later.login("Ana", "password1").balance == 100
    with later.transaction() as run:
        assert run("SELECT COUNT(*) FROM tables_seen").fetchone()[0] == 0


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_every_chip_is_accounted_for_whatever_happens(
    new_database: Callable[[], str], data: st.DataObject
) -> None:
    store = open_store(new_database(), starting_bankroll=50)
    members = [store.register(f"m{k}", "password1").id for k in range(3)]
    accounts = [*members, store.house]
    open_games: list[int] = []
    for _ in range(data.draw(st.integers(1, 12))):
        action = data.draw(st.sampled_from(["open", "settle", "void"]))
        if action == "open":
            stakes = {a: data.draw(st.integers(0, 30)) for a in accounts}
            with contextlib.suppress(StoreError):  # a wallet could not cover it: nothing moved
                open_games.append(store.open_game("holdem", "t", stakes))
        elif action == "settle" and open_games:
            game = open_games.pop(data.draw(st.integers(0, len(open_games) - 1)))
            with store.transaction() as run:
                pot = run("SELECT SUM(amount) FROM holds WHERE game = ?", game).fetchone()[0]
            winner = data.draw(st.sampled_from(accounts))
            store.settle(game, {winner: int(pot)})
        elif action == "void":
            store.void_open_games()
            open_games.clear()
        issued, accounted = store.audit()
        assert issued == accounted
        assert all(m.balance >= 0 for m in map(store.member, members) if m)
    store.close()


def test_settlements_hammered_from_many_connections_never_lose_a_chip(make: Factory) -> None:
    store = make(starting_bankroll=1000)
    members = [store.register(f"p{k}", "password1").id for k in range(4)]

    def play(seed: int) -> None:
        own = make(starting_bankroll=1000)  # a connection (and, on PostgreSQL, a process) apart
        chance = random.Random(seed)
        for _ in range(40):
            seats = chance.sample(members, 2)
            try:
                game = own.open_game("holdem", f"t{seed}", {seats[0]: 7, seats[1]: 7})
            except StoreError:
                continue
            own.settle(game, {chance.choice(seats): 14})
        own.close()

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.audit() == (4000, 4000)
    assert sum(m.balance for m in map(store.member, members) if m) == 4000


PLAYERS = """\
import os, random, sys
from casino.web.databases import open_store
from casino.web.store import StoreError

def play(where, attempt):
    store = open_store(where, starting_bankroll=100)
    members = [m.id for m in store.leaderboard(10)]
    chance = random.Random(attempt)
    print("ready", os.getpid(), flush=True)
    while True:
        seats = chance.sample(members, 2)
        try:
            game = store.open_game("holdem", "table", {seats[0]: 5, seats[1]: 5, store.house: 5})
        except StoreError:
            continue
        store.settle(game, {chance.choice([*seats, store.house]): 15})

if sys.argv[1].startswith("postgresql"):
    import psycopg  # the store imports it when it opens: here once, before the forks

for line in sys.stdin:
    player = os.fork()
    if player == 0:
        try:
            play(sys.argv[1], int(line))
        finally:
            os._exit(1)
    print("ended", os.waitstatus_to_exitcode(os.waitpid(player, 0)[1]), flush=True)
"""
"""Forks a player for each attempt number it reads: the player opens the store, says
``ready PID`` and plays games (each opened with stakes, then settled) until it is killed; then
``ended STATUS``. Forked from one process that imported the store once, so that each of the
many kills costs a fork rather than a Python start and its imports."""


def test_kill_9_at_any_moment_loses_nothing(where: str) -> None:
    """Kill -9 lands at a random moment of a player's loop, so over the attempts in every phase
    of a game: opening it (stakes moved to it), settling it (payouts), between two games.
    Whatever the moment, a restart voids the open game and the books balance."""
    store = open_store(where, starting_bankroll=100)
    for k in range(3):
        store.register(f"p{k}", "password1")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    chance = random.Random(1)
    times = 40 if not where.startswith("postgresql") else 30
    players = subprocess.Popen(
        [sys.executable, "-c", PLAYERS, where],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
    )  # fmt: skip
    assert players.stdin is not None and players.stdout is not None
    try:
        for attempt in range(times):
            players.stdin.write(f"{attempt}\n")
            players.stdin.flush()
            said, pid = players.stdout.readline().split()
            assert said == "ready"
            threading.Event().wait(chance.uniform(0, 0.05))  # somewhere in the middle of a game
            os.kill(int(pid), signal.SIGKILL)
            assert players.stdout.readline() == f"ended {-signal.SIGKILL}\n"
            restarted = open_store(where, starting_bankroll=100)
            restarted.void_open_games()
            assert restarted.audit() == (300, 300), f"after kill {attempt + 1}"
            with restarted.transaction() as run:
                assert run("SELECT COUNT(*) FROM games WHERE state = 'open'").fetchone()[0] == 0
            restarted.close()
    finally:
        players.stdin.close()
        assert players.wait(timeout=60) == 0
    store.close()


def test_an_empty_wallet_is_refilled_once_a_day_with_a_ledger_row(make: Factory) -> None:
    now = Now()
    store = make(starting_bankroll=50, now=now)
    ana = store.register("Ana", "password1")
    with pytest.raises(StoreError, match="an empty wallet"):
        store.refill(ana.id)  # 50 in the wallet
    game = store.open_game("holdem", "t", {ana.id: 50, store.house: 0})
    assert store.held(ana.id) == 50
    with pytest.raises(StoreError, match="an empty wallet"):
        store.refill(ana.id)  # nothing in the wallet, but 50 at a table
    store.settle(game, {store.house: 50})  # lost it all
    assert (store.held(ana.id), store.refill_at(ana.id)) == (0, None)
    assert store.refill(ana.id) == 50
    assert store.login("Ana", "password1").balance == 50
    with store.transaction() as run:
        rows = run(
            "SELECT kind, amount FROM ledger WHERE account = ? ORDER BY id", ana.id
        ).fetchall()
    assert [(str(k), int(a)) for k, a in rows] == [
        ("issue", 50),
        ("stake", -50),
        ("payout", 0),
        ("issue", 50),
    ]
    game = store.open_game("holdem", "t", {ana.id: 50, store.house: 0})
    store.settle(game, {store.house: 50})
    with pytest.raises(StoreError, match="one refill a day"):
        store.refill(ana.id)
    assert store.refill_at(ana.id) == now.value + REFILL_EVERY
    now.value += REFILL_EVERY
    assert store.refill(ana.id) == 50
    issued, accounted = store.audit()
    assert issued == accounted == 150  # the registration and two refills


def test_a_hands_record_is_kept_with_its_money_or_not_at_all(make: Factory) -> None:
    """The record of a hand goes in with its payouts, in one transaction, or neither does; it
    is read only by an account that staked in the hand."""
    store = make(starting_bankroll=1000)
    ana, bo = store.register("Ana", "password1"), store.register("Bo", "password2")
    game = store.open_game("holdem", "table 1", {ana.id: 100, store.house: 100})
    store.settle(game, {ana.id: 150, store.house: 50}, '{"a": 1}')
    assert store.hand_record(game, ana.id) == '{"a": 1}'
    assert store.hand_record(game, store.house) == '{"a": 1}'
    assert store.hand_record(game, bo.id) is None  # not his hand
    assert store.hand_record(game + 1, ana.id) is None
    assert [e.recorded for e in store.history(ana.id)] == [True]
    other = store.open_game("holdem", "table 1", {ana.id: 100, store.house: 100})
    with store.transaction() as run:  # a record already there: the settle must fail whole
        run("INSERT INTO hands (game, record) VALUES (?, ?)", other, "{}")
    with pytest.raises(INTEGRITY):
        store.settle(other, {ana.id: 0, store.house: 200}, '{"b": 2}')
    assert store.balances([ana.id])[ana.id] == 1050 - 100  # the stake still held
    assert store.void_open_games() == [other]  # still open: no payout was written
    assert store.audit()[0] == store.audit()[1]


def _waiting_for_a_lock(where: str) -> bool:
    import psycopg

    with psycopg.connect(where, autocommit=True) as connection:
        row = connection.execute("SELECT COUNT(*) FROM pg_locks WHERE NOT granted").fetchone()
    return bool(row and row[0])


@pytest.mark.parametrize("in_flight", ["open_game", "settle"])
def test_a_restart_waits_for_what_a_killed_server_had_sent(postgres: str, in_flight: str) -> None:
    """A server killed with its last ``COMMIT`` sent: PostgreSQL carries it out after the
    client died, while the next server is already voiding the open games. The void waits for
    it: a settled game is not refunded on top of its payout (money made), an opened one is
    voided rather than left open (money held for ever). Made to happen every time here: the
    dead server's transaction is held open until the void is seen waiting on the database."""
    from . import postgres_server

    where = postgres_server.fresh_database(postgres)  # (SQLite has no server to finish it)
    dead, restarted = (
        open_store(where, starting_bankroll=100),
        open_store(where, starting_bankroll=100),
    )
    ana, bo = (dead.register(name, "password1").id for name in ("ana", "bo"))
    game = dead.open_game("holdem", "table", {ana: 5, bo: 5}) if in_flight == "settle" else 0
    go, sent = threading.Event(), threading.Event()
    real_pay, real_stake = dead._pay, dead._stake

    def held(real: Callable[..., None]) -> Callable[..., None]:
        def step(*arguments: object) -> None:
            real(*arguments)
            sent.set()
            go.wait()

        return step

    if in_flight == "settle":
        dead._pay = held(real_pay)  # type: ignore[method-assign]
        last = threading.Thread(target=dead.settle, args=(game, {ana: 10}))
    else:
        dead._stake = held(real_stake)  # type: ignore[method-assign]
        last = threading.Thread(target=dead.open_game, args=("holdem", "table", {ana: 5}))
    last.start()
    sent.wait()
    void = threading.Thread(target=restarted.void_open_games)
    void.start()
    for _ in range(200):  # until the void waits on the database (or 10 s: it never does)
        if _waiting_for_a_lock(where):
            break
        threading.Event().wait(0.05)
    go.set()
    last.join()
    void.join()
    assert restarted.audit() == (200, 200)
    with restarted.transaction() as run:
        assert run("SELECT COUNT(*) FROM games WHERE state = 'open'").fetchone()[0] == 0
    assert sum(m.balance for m in map(restarted.member, (ana, bo)) if m) == 200
    dead.close()
    restarted.close()
