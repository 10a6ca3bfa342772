"""The chat of the lobby and of the tables, through the server's sockets (a FakeClock; SQLite,
and PostgreSQL where the tests' server runs): what is said is seen, kept as typed and escaped
on the page, bounded in length and rate, muted per viewer, kept across a restart, and kept
with the hand it was said in."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import ClientWebSocketResponse, DummyCookieJar
from aiohttp.test_utils import TestClient, TestServer

from casino.clock import FakeClock
from casino.web.app import WebServer
from casino.web.chat import DOMINOES, LOBBY, Chat, ChatStore, Viewer, holdem_room, tidy
from casino.web.databases import open_store
from casino.web.guard import Limits
from casino.web.holdemseats import TableSettings
from casino.web.sessions import COOKIE
from casino.web.store import Store
from casino.web.words import CHAT, words

from .forms import join, register, temporary_store

SETTINGS = TableSettings(seats=3, stack=500, pause=0, bot_delay=0, samples=10)
NOW = 1_800_000_000.0
"""The store's clock (every line's time)."""

Body = Callable[[TestClient[Any, Any], WebServer], Awaitable[None]]


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each kind (its ``--database``)."""
    if request.param == "sqlite":
        return str(tmp_path / f"chat-{os.urandom(4).hex()}.db")
    from . import postgres_server

    return postgres_server.fresh_database(request.getfixturevalue("postgres"))


@pytest.fixture
def sqlite(tmp_path: Path) -> str:
    """A new SQLite database."""
    return str(tmp_path / "chat.db")


def serve(where: str, body: Body, clock: FakeClock | None = None) -> Store:
    """Run ``body`` against a server on the database ``where``; its store (closed)."""
    store = open_store(where, now=lambda: NOW)
    server = WebServer(SETTINGS, 1, 3, clock or FakeClock(), secret=b"k" * 32, store=store)

    async def run() -> None:
        async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as c:
            await asyncio.wait_for(body(c, server), 30)

    try:
        asyncio.run(run())
        issued, accounted = store.audit()
        assert issued == accounted
    finally:
        store.close()
    return store


async def chat(
    client: TestClient[Any, Any], cookie: str, path: str = "/ws/lobby"
) -> tuple[ClientWebSocketResponse, dict[str, Any]]:
    """A socket of a room, and the room as it is sent on joining."""
    ws = await client.ws_connect(path, headers={"Cookie": f"{COOKIE}={cookie}"})
    return ws, await heard(ws, lambda data: bool(data.get("reset")))


async def heard(
    ws: ClientWebSocketResponse, test: Callable[[dict[str, Any]], bool] = lambda _: True
) -> dict[str, Any]:
    """The next chat message on ``ws`` that passes ``test`` (the table's views skipped)."""
    while True:
        data: dict[str, Any] = json.loads(await ws.receive_str())
        if data["type"] == "chat" and test(data):
            return data


async def say(ws: ClientWebSocketResponse, text: str) -> None:
    await ws.send_json({"type": "chat", "text": text})


def texts(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(line["name"], line["text"]) for line in data["lines"]]


def test_members_see_each_others_lines_as_typed_and_the_lobby_escapes_them(where: str) -> None:
    hostile = "<script>alert(1)</script> &amp; <b>hi</b>"

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe, bo = await register(client, "Zoe"), await register(client, "Bo", "es")
        zoe_ws, empty = await chat(client, zoe)
        assert empty["lines"] == [] and empty["member"] is True and empty["length"] == 200
        assert empty["words"] == words(CHAT, "en") and empty["muted"] == []
        bo_ws, _ = await chat(client, bo)
        await say(zoe_ws, "  hola\n  a   todos ")
        first = await heard(bo_ws)
        assert texts(first) == [("Zoe", "hola a todos")]  # one line, its spaces collapsed
        assert first["lines"][0]["mine"] is False and first["lines"][0]["game"] is None
        assert first["lines"][0]["at"] == NOW
        assert (await heard(zoe_ws))["lines"][0]["mine"] is True
        await say(bo_ws, hostile)
        assert texts(await heard(zoe_ws)) == [("Bo", hostile)]  # sent as typed: drawn as text
        page = await (await client.get("/", headers={"Cookie": f"{COOKIE}={zoe}"})).text()
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; &lt;b&gt;hi&lt;/b&gt;" in page
        assert "<script>alert" not in page and "<b>hi</b>" not in page
        assert '<span class="said">hola a todos</span>' in page and "chat.js" in page
        again, joined = await chat(client, bo)  # a member joining sees the last lines
        assert texts(joined) == [("Zoe", "hola a todos"), ("Bo", hostile)]
        assert joined["words"]["chat"] == "Charla"
        for ws in (zoe_ws, bo_ws, again):
            await ws.close()

    serve(where, body)


def test_a_visitor_has_no_chat_and_a_watcher_may_only_read(sqlite: str) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        ws = await client.ws_connect("/ws/lobby")
        assert json.loads(await ws.receive_str())["type"] == "error"  # no session: no chat
        page = await (await client.get("/")).text()
        assert 'id="chat"' not in page
        sent: list[dict[str, Any]] = []
        await server.chat.join(LOBBY, Viewer(None, "en"), sent.append)
        await server.chat.receive(LOBBY, sent.append, {"type": "chat", "text": "hi"})
        assert sent[0]["member"] is False
        assert sent[1] == {
            "type": "chat",
            "refused": "Watching, you read the chat: take a seat to say something.",
        }
        assert server.chat.book.lines(LOBBY) == []

    serve(sqlite, body)


def test_a_line_over_200_characters_is_refused_saying_so(sqlite: str) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        ws, _ = await chat(client, await register(client, "Zoe"))
        es, _ = await chat(client, await register(client, "Bo", "es"))
        await say(ws, "x" * 201)
        assert await heard(ws) == {
            "type": "chat",
            "refused": "A chat line has at most 200 characters.",
        }
        await say(es, "ñ" * 201)
        assert (await heard(es))[
            "refused"
        ] == "Una línea de charla tiene como mucho 200 caracteres."
        await say(ws, "y" * 200)
        assert texts(await heard(ws)) == [("Zoe", "y" * 200)]
        assert [line.text for line in server.chat.book.lines(LOBBY)] == ["y" * 200]

    serve(sqlite, body)


def test_five_lines_per_ten_seconds_per_member_in_every_room_together(sqlite: str) -> None:
    clock = FakeClock()

    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe = await register(client, "Zoe")
        lobby, _ = await chat(client, zoe)
        table, _ = await chat(client, zoe, "/ws/holdem")
        for k in range(5):
            await say(lobby if k % 2 else table, f"line {k}")
            await heard(lobby if k % 2 else table, lambda data: "lines" in data)
        await say(lobby, "one too many")
        assert (await heard(lobby))["refused"] == "Too many lines: at most 5 every 10 seconds."
        clock.advance(10)
        await say(lobby, "later")
        assert texts(await heard(lobby)) == [("Zoe", "later")]
        said = [
            line.text for room in (LOBBY, holdem_room(1)) for line in server.chat.book.lines(room)
        ]
        assert sorted(said) == sorted([f"line {k}" for k in range(5)] + ["later"])
        await table.send_json({"type": "leave"})

    serve(sqlite, body, clock)


def test_a_muted_member_is_kept_but_not_shown_to_who_muted_them(where: str) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe_ws, _ = await chat(client, await register(client, "Zoe"))
        bo_ws, _ = await chat(client, await register(client, "Bo"))
        cy_ws, _ = await chat(client, await register(client, "Cy"))
        await say(zoe_ws, "before")
        line = (await heard(bo_ws))["lines"][0]
        await bo_ws.send_json({"type": "chat", "mute": line["member"]})
        muted = await heard(bo_ws)
        assert muted["reset"] and muted["lines"] == []  # her old lines go too
        assert muted["muted"] == [{"member": line["member"], "name": "Zoe"}]
        await heard(zoe_ws)  # her own "before"
        await say(zoe_ws, "after")
        assert texts(await heard(zoe_ws)) == [("Zoe", "after")]  # kept and sent
        await say(cy_ws, "hello")
        assert texts(await heard(bo_ws)) == [("Cy", "hello")]  # Zoe's "after" never came
        for expected in [("Zoe", "before"), ("Zoe", "after"), ("Cy", "hello")]:
            assert texts(await heard(cy_ws)) == [expected]  # Cy mutes nobody
        kept = [(x.name, x.text) for x in server.chat.book.lines(LOBBY)]
        assert kept == [("Zoe", "before"), ("Zoe", "after"), ("Cy", "hello")]
        await bo_ws.send_json({"type": "chat", "mute": 999_999})  # nobody: nothing
        assert (await heard(bo_ws))["muted"] == muted["muted"]
        await bo_ws.send_json({"type": "chat", "unmute": line["member"]})
        back = await heard(bo_ws)
        assert back["muted"] == [] and texts(back) == kept

    serve(where, body)


def test_the_lines_and_mutes_outlive_a_restart(where: str) -> None:
    cookies: dict[str, int] = {}

    async def first(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe_ws, _ = await chat(client, await register(client, "Zoe"))
        bo_ws, _ = await chat(client, await register(client, "Bo"))
        await say(zoe_ws, "see you after the restart")
        cookies["zoe"] = (await heard(bo_ws))["lines"][0]["member"]
        await say(bo_ws, "me too")
        await heard(zoe_ws)
        await zoe_ws.send_json({"type": "chat", "mute": cookies["zoe"] + 1})  # Bo
        await heard(zoe_ws, lambda data: bool(data.get("muted")))

    async def second(client: TestClient[Any, Any], server: WebServer) -> None:
        from .forms import PASSWORD, post_form

        logged = await post_form(client, "/login", {"name": "Zoe", "password": PASSWORD})
        zoe = logged.cookies[COOKIE].value
        _, joined = await chat(client, zoe)
        assert texts(joined) == [("Zoe", "see you after the restart")]  # Bo still muted
        assert [m["name"] for m in joined["muted"]] == ["Bo"]
        book = ChatStore(server.store)
        assert [x.text for x in book.lines(LOBBY)] == ["see you after the restart", "me too"]

    serve(where, first)
    serve(where, second)


def test_a_line_at_a_table_is_kept_with_the_hand_it_was_said_in(sqlite: str) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe = await register(client, "Zoe")
        ws = await client.ws_connect("/ws/holdem", headers={"Cookie": f"{COOKIE}={zoe}"})
        seen: set[str] = set()
        while seen != {"reset", "turn"}:  # the hand is dealt: its game is open in the store
            view = json.loads(await ws.receive_str())
            if view.get("reset"):
                seen.add("reset")
            elif view["type"] == "state" and view["legal"] is not None:
                seen.add("turn")
        hand = server.tables[0].game
        assert hand is not None
        await say(ws, "nice hand")
        line = (await heard(ws))["lines"][0]
        assert line["game"] == hand
        with server.store.transaction() as run:
            kind, state = run("SELECT kind, state FROM games WHERE id = ?", hand).fetchone()
        assert (kind, state) == ("holdem", "open")
        dom, _ = await chat(client, await register(client, "Bo"), "/ws/domino")
        await say(dom, "between hands")
        assert (await heard(dom))["lines"][0]["game"] is None
        await dom.send_json({"type": "next"})
        while True:
            view = json.loads(await dom.receive_str())
            if view["type"] == "domino" and view.get("turn") == "you" and not view["over"]:
                break
        match = next(iter(server.dominoes.values()))[0]
        assert match.game is not None and match.game != hand
        await say(dom, "my turn")
        assert (await heard(dom))["lines"][0]["game"] == match.game
        kept = [(x.text, x.game) for x in server.chat.book.lines(DOMINOES)]
        assert kept == [("between hands", None), ("my turn", match.game)]
        assert [x.game for x in server.chat.book.lines(holdem_room(1))] == [hand]
        await ws.send_json({"type": "leave"})

    serve(sqlite, body)


def test_a_line_is_kept_on_one_line_and_cannot_turn_the_next_ones_around() -> None:
    assert tidy(" a\tb\r\nc\u2028d\x00e  ") == "a b c d e"
    assert tidy("\u202eevil\u2066") == "evil"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji, joined
    assert tidy(f"{family} ñandú <b>") == f"{family} ñandú <b>"


def test_every_chat_word_is_in_spanish_with_its_fields() -> None:
    spanish, english = words(CHAT, "es"), words(CHAT, "en")
    assert spanish.keys() == english.keys() == CHAT.keys()
    for key, text in english.items():
        assert spanish[key] != text, key
        assert re.findall(r"\{(\w+)\}", spanish[key]) == re.findall(r"\{(\w+)\}", text), key


def test_smaller_limits_are_kept_to() -> None:
    """The numbers are :class:`Limits`' (the server's guard): a smaller budget is kept to."""
    clock = FakeClock()

    async def run(store: Store) -> list[dict[str, Any]]:
        from casino.web.bank import Bank

        limits = Limits(chat_length=5, chat_lines=2, chat_period=60.0)
        room = Chat(Bank(store), clock, limits)
        member = store.register("Zoe", "correct horse battery").id
        sent: list[dict[str, Any]] = []
        await room.join(LOBBY, Viewer(member, "en"), sent.append)
        for text in ["123456", "12345", "ok", "no"]:
            await room.receive(LOBBY, sent.append, {"type": "chat", "text": text})
        clock.advance(60)
        await room.receive(LOBBY, sent.append, {"type": "chat", "text": "yes"})
        return sent[1:]

    with temporary_store() as store:
        sent = asyncio.run(run(store))
    assert [s.get("refused") or s["lines"][0]["text"] for s in sent] == [
        "A chat line has at most 5 characters.",
        "12345",
        "ok",
        "Too many lines: at most 2 every 60 seconds.",
        "yes",
    ]


def test_a_watcher_of_a_table_reads_its_chat_and_cannot_post(sqlite: str) -> None:
    async def body(client: TestClient[Any, Any], server: WebServer) -> None:
        zoe_ws, _ = await chat(client, await join(client, "Zoe"), "/ws/holdem?table=1")
        wes_ws, joined = await chat(
            client, await register(client, "Wes"), "/ws/holdem?table=1&watch=1"
        )
        assert joined["member"] is False  # no form: a watcher reads
        await say(zoe_ws, "nice hand")
        assert texts(await heard(wes_ws)) == [("Zoe", "nice hand")]
        await say(wes_ws, "fold now, Zoe")
        assert (await heard(wes_ws, lambda data: "refused" in data))["refused"] == (
            "Watching, you read the chat: take a seat to say something."
        )
        assert [line.text for line in server.chat.book.lines(holdem_room(1))] == ["nice hand"]
        for ws in (zoe_ws, wes_ws):
            await ws.close()

    serve(sqlite, body)
