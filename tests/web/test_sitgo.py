"""A sit-and-go at a web table (:mod:`casino.web.sitgo`), played in-process with a FakeClock
over a real SQLite store: two members playing scripted moves and two computer players, the
buy-ins in one game of the store, the blinds rising on the schedule, places and the prize
paid through the ledger in one transaction; a stop in the middle refunded on restart."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from casino.clock import FakeClock
from casino.holdem.rules import Rules
from casino.holdem.tournament import Schedule
from casino.i18n import translator
from casino.web.bank import Bank
from casino.web.databases import open_store
from casino.web.holdemlog import LEVEL, OUT, WINS, line_text
from casino.web.holdemseats import Member, TableSettings
from casino.web.sitgo import SMALL_WALLET, SitGoSettings, SitGoTable
from casino.web.store import Store, StoreError

from .forms import PASSWORD

SETTINGS = TableSettings(seats=4, pause=0, bot_delay=0, samples=10, wait=2)
FAST = Schedule(tuple(Rules(10 * 2**k, 20 * 2**k) for k in range(8)), hands_per_level=2)
Move = Callable[[dict[str, Any]], dict[str, Any]]


def all_in(_view: dict[str, Any]) -> dict[str, Any]:
    """Ana: all in at every turn."""
    return {"type": "act", "verb": "allin"}


def calls(view: dict[str, Any]) -> dict[str, Any]:
    """Bruno: checks or calls at every turn."""
    return {"type": "act", "verb": "check" if view["legal"]["call"] == 0 else "call"}


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each kind (PostgreSQL where its server runs)."""
    if request.param == "sqlite":
        return str(tmp_path / "casino.db")
    from . import postgres_server

    return postgres_server.fresh_database(request.getfixturevalue("postgres"))


def tournament_of(store: Store, schedule: Schedule = FAST) -> tuple[SitGoTable, list[Member]]:
    """A sit-and-go of four with Ana and Bruno (registered, $1000 each) seated, pages open."""
    table = SitGoTable(1, SETTINGS, FakeClock(), 11, Bank(store))
    table.plays(SitGoSettings(100, 1500, schedule))
    members = []
    for name in ("Ana", "Bruno"):
        account = store.register(name, PASSWORD).id
        member = asyncio.run(table.enter(account, name, "en"))
        assert member is not None

        async def send(_view: dict[str, Any]) -> None:
            return None

        member.send = send
        members.append(member)
    return table, members


def drive(
    table: SitGoTable, moves: dict[int, Move], stop: Callable[[SitGoTable], bool] | None = None
) -> None:
    """Play the tournament: each member's turn answered by ``moves[seat]``; ``stop`` says when
    to cut it short, as a stopped server would (nothing more is written)."""

    async def run() -> None:
        task = asyncio.ensure_future(table.play_tournament())
        asked: set[tuple[int, int]] = set()
        while not task.done():
            await asyncio.sleep(0)
            if stop is not None and stop(table):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                return
            hand, waiting = table.table.hand, table.waiting
            if hand is None or waiting is None or waiting not in table.members:
                continue
            member = table.members[waiting]
            turn = (table.table.number, len(hand.actions))
            if turn in asked or not member.inbox.empty():
                continue
            asked.add(turn)
            await table.receive(member, moves[waiting](table.view(member)))
        await task

    asyncio.run(asyncio.wait_for(run(), 120))


def ledger(store: Store, game: int) -> list[tuple[int, str, int, float]]:
    """The ledger's rows of ``game``: account, kind, amount, when."""
    with store.transaction() as run:
        rows = run(
            "SELECT account, kind, amount, at FROM ledger WHERE game = ? ORDER BY id", game
        ).fetchall()
    return [(int(r[0]), str(r[1]), int(r[2]), float(r[3])) for r in rows]


def game_state(store: Store, game: int) -> str:
    """The game's state in the store."""
    with store.transaction() as run:
        return str(run("SELECT state FROM games WHERE id = ?", game).fetchone()[0])


def test_a_sit_and_go_of_two_members_and_two_bots_is_played_to_its_end_and_paid(where: str) -> None:
    store = open_store(where)
    table, (ana, bruno) = tournament_of(store)
    hands: list[tuple[int, int, int]] = []  # hand, small, big as dealt
    told: set[str | None] = set()  # what a member out of it is told while it goes on

    def hand_over(t: Any, before: int, after: int) -> None:
        dealt = t.table.hand
        hands.append((t.table.number, dealt.small_blind, dealt.big_blind))
        out = [m for m in (ana, bruno) if m.seat in t.standings.places]
        told.update(t.notice(m) for m in out if m.seat in t.standings.places)

    table.on_hand = hand_over
    games_before = store.audit()
    settled: list[tuple[int, dict[int, int]]] = []
    settle = table.bank.settle

    async def recorded(game: int, payouts: Any, record: str | None = None) -> None:
        settled.append((game, dict(payouts)))
        await settle(game, payouts, record)

    table.bank.settle = recorded  # type: ignore[method-assign]
    drive(table, {ana.seat: all_in, bruno.seat: calls})
    assert store.audit()[0] == store.audit()[1] == games_before[0] == 2000
    # the places: four, each once, the prizes 65/35 of the $400 pool
    places = sorted(place for _, place, _ in table.results)
    assert places == [1, 2, 3, 4]
    assert [prize for _, _, prize in table.results] == [260, 140, 0, 0]
    assert {name for name, _, _ in table.results} == {
        "Ana",
        "Bruno",
        table.bot_names[2],
        table.bot_names[3],
    }
    # the blinds of every hand are the schedule's for the hands played before it
    assert hands and [h for h, _, _ in hands] == list(range(1, len(hands) + 1))
    assert [(s, b) for _, s, b in hands] == [FAST.rules(k).blinds for k in range(len(hands))]
    # the money: one game of the store, the buy-ins staked and the pool paid out at once
    games = {entry.game for m in (ana, bruno) for entry in store.history(m.account)}
    assert len(games) == 1
    (game,) = games
    rows = ledger(store, game)
    stakes = {account: -amount for account, kind, amount, _ in rows if kind == "stake"}
    assert stakes == {ana.account: 100, bruno.account: 100, store.house: 200}
    paid = [(account, amount) for account, kind, amount, _ in rows if kind == "payout"]
    assert sorted(account for account, _ in paid) == sorted(stakes)
    assert sum(amount for _, amount in paid) == 400
    assert settled == [(game, dict(paid))]  # one settle: one transaction of the store
    prize = {name: prize for name, _, prize in table.results}
    for member in (ana, bruno):
        found = store.member(member.account)
        assert found is not None
        assert found.balance == 1000 - 100 + prize[member.name]
        (entry,) = store.history(member.account)
        assert (entry.kind, entry.state, entry.stake, entry.payout) == (
            "sitgo",
            "settled",
            100,
            prize[member.name],
        )
    bots_prize = 400 - prize["Ana"] - prize["Bruno"]
    assert dict(paid)[store.house] == bots_prize
    assert told == {"You are out of the sit-and-go in place 3."}  # Bruno, until the end
    # this seed's tournament (an oracle of its own: the same seed, the same tournament)
    assert table.results == (
        ("Ana", 1, 260),
        (table.bot_names[3], 2, 140),
        ("Bruno", 3, 0),
        (table.bot_names[2], 4, 0),
    )
    assert dict(paid) == {ana.account: 260, bruno.account: 0, store.house: 140}
    # the table stands everybody up and waits for the next tournament
    assert not table.everyone and not table.started
    store.close()


def test_a_stop_in_the_middle_of_a_tournament_is_refunded_on_restart(where: str) -> None:
    store = open_store(where)
    table, (ana, bruno) = tournament_of(store)
    drive(table, {ana.seat: calls, bruno.seat: calls}, stop=lambda t: t.played >= 3)
    issued, accounted = store.audit()
    assert issued == accounted == 2000
    assert store.holdings() == {ana.account: 100, bruno.account: 100}
    store.close()
    restarted = open_store(where)  # what the server's start does: voids what was open
    voided = restarted.void_open_games()
    assert len(voided) == 1
    assert game_state(restarted, voided[0]) == "void"
    for member in (ana, bruno):
        found = restarted.member(member.account)
        assert found is not None and found.balance == 1000
        (entry,) = restarted.history(member.account)
        shown = (entry.kind, entry.state, entry.stake, entry.payout)
        assert shown == ("sitgo", "void", 100, 100)
    kinds = [kind for _, kind, _, _ in ledger(restarted, voided[0])]
    assert kinds.count("refund") == 3  # Ana, Bruno, the house (for both bots)
    assert restarted.audit() == (2000, 2000)
    with restarted.transaction() as run:
        house = run("SELECT balance FROM accounts WHERE id = ?", restarted.house).fetchone()
    assert int(house[0]) == 0
    restarted.close()


def test_a_member_whose_wallet_is_smaller_than_the_buy_in_cannot_sit_down(where: str) -> None:
    store = open_store(where)
    table = SitGoTable(1, SETTINGS, FakeClock(), 7, Bank(store)).plays(SitGoSettings())
    poor = store.register("Carla", PASSWORD).id
    store.open_game("holdem", "table 1", {poor: 901})  # $99 left: the buy-in is $100
    with pytest.raises(StoreError) as refused:
        asyncio.run(table.enter(poor, "Carla", "en"))
    assert refused.value.template == SMALL_WALLET
    assert not table.everyone
    rich = store.register("Diego", PASSWORD).id
    assert asyncio.run(table.enter(rich, "Diego", "en")) is not None
    store.close()


def test_nobody_sits_down_once_started_and_the_view_shows_the_level(where: str) -> None:
    store = open_store(where)
    table, (ana, bruno) = tournament_of(store)
    late = store.register("Eva", PASSWORD).id
    seen: list[dict[str, Any]] = []

    def stop(t: SitGoTable) -> bool:
        if t.played >= 2 and not seen:
            seen.append(t.view(ana)["tournament"])
            assert t.sit(late, "Eva", "en") is None
        return bool(seen)

    drive(table, {ana.seat: calls, bruno.seat: calls}, stop=stop)
    (view,) = seen
    assert view["started"] and view["buy_in"] == 100
    assert (view["level"], view["blinds"], view["next_level_in"]) == (2, [20, 40], 2)
    store.close()


def test_the_log_says_the_levels_who_is_out_and_the_winner_in_spanish(where: str) -> None:
    store = open_store(where)
    table, (ana, bruno) = tournament_of(store)
    said: list[tuple[str, tuple[Any, ...]]] = []
    say = table.say

    def recorded(template: str, *values: Any) -> None:
        said.append((template, values))
        say(template, *values)

    table.say = recorded  # type: ignore[method-assign]
    drive(table, {ana.seat: all_in, bruno.seat: calls})
    spanish = translator("holdem", "es")
    spoken = [
        line_text(spanish, template, values, "es")
        for template, values in said
        if template in (LEVEL, OUT, WINS)
    ]
    assert spoken[0] == "Nivel 1: ciegas 10/20, ante 0."
    assert sum("queda eliminado en el puesto" in line for line in spoken) == 3
    assert [line[-2] for line in spoken if "puesto" in line] == ["4", "3", "2"]
    winner = table.results[0][0]
    assert spoken[-1] == f"{winner} gana el sit-and-go y 260\xa0US$."
    ana.lang = "es"
    assert table.view(ana)["log"][-1] == spoken[-1]
    store.close()
