"""Idle tables leave memory and stay whole in the database; asking for one by id brings it back.

In-process (Starlette's TestClient), to look into the hub's memory: which tables it holds.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_helpers import choose
from starlette.exceptions import StarletteDeprecationWarning

from rules.server.app import create_app
from rules.server.hub import Hub
from rules.server.limits import Settings
from rules.server.store import EventStore

with warnings.catch_warnings():  # this Starlette would rather use httpx2, which is not installed here
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

IDLE = 0.2


@contextmanager
def _served(db: Path, **settings: Any) -> Iterator[tuple[TestClient, Hub]]:
    # Bots in threads; the test's quick player may move faster than a person's rate limit.
    quick = {"bot_processes": 0, "rate": 1000.0, "burst": 1000, "sync": "normal"}
    app = create_app(Settings(db=str(db), idle_table_seconds=IDLE, **quick, **settings))
    with TestClient(app) as client:
        yield client, app.state.hub


def _until(condition: Callable[[], bool], what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(IDLE / 4)


def _receive(ws: Any, kind: str = "update") -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] != "error", message


def _flags(db: Path, table_id: str) -> tuple[int, int]:
    """The table's ``finished`` and ``asleep`` columns, read from the file itself."""
    connection = sqlite3.connect(db)
    try:
        row = connection.execute("SELECT finished, asleep FROM tables WHERE id = ?", (table_id,)).fetchone()
        return row[0], row[1]
    finally:
        connection.close()


def _lobby(client: TestClient) -> set[str]:
    return {table["id"] for table in client.get("/api/tables").json()["tables"]}


def test_a_finished_match_leaves_memory_and_is_served_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "idle.sqlite3"
    with _served(db) as (client, hub):
        on_the_loop = _watch_replays(hub, monkeypatch)
        created = client.post("/api/tables", json={"match_hands": 1, "computer": [{"seat": 1, "level": "easy"}]})
        table_id, token = created.json()["table"]["id"], created.json()["token"]
        rng = random.Random(3)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token, "last_seen": None})
            update = _receive(ws)
            while not update["hand_end"]:
                view = update["view"]
                if view and view["legal_moves"] and view["to_act"] == 0:
                    ws.send_json({"type": "move", "event": choose(view, rng), "last_seen": update["event_no"]})
                update = _receive(ws)
        assert update["status"] == "finished"
        _until(lambda: table_id not in hub.tables, "putting the finished table to sleep")
        assert _flags(db, table_id) == (1, 0)

        # Looking it up answers from the lobby entry kept when it fell asleep: no replay, nothing woken.
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["event_no"] == update["event_no"]
        assert table_id not in hub.tables and on_the_loop == []
        # Watching it loads it again: the same picture, the hand's log included.
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": None, "last_seen": None})
            assert _receive(ws, "welcome")["seat"] is None
            watched = _receive(ws)
            assert table_id in hub.tables
        assert watched["resync"] and watched["event_no"] == update["event_no"]
        assert watched["hand_end"] == update["hand_end"] and len(watched["hand_end"]["log"]) > 5
        refused = client.post(f"/api/tables/{table_id}/join", json={})
        assert refused.status_code == 409 and refused.json()["code"] == "match_over"
        _until(lambda: table_id not in hub.tables, "putting it to sleep again")
        # Waking it replayed the match once, off the loop that serves every table.
        assert on_the_loop == [False]


def _watch_replays(hub: Hub, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """A list that gets, for each replay of a sleeping table, whether it ran on the event loop."""
    on_the_loop: list[bool] = []
    rebuild = hub._rebuild

    def watched_rebuild(stored: Any) -> Any:
        on_the_loop.append(_loop_running())
        return rebuild(stored)

    monkeypatch.setattr(hub, "_rebuild", watched_rebuild)
    return on_the_loop


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_an_abandoned_table_sleeps_and_wakes_where_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "idle.sqlite3"
    with _served(db) as (client, hub):
        created = client.post("/api/tables", json={"players": 2}).json()
        table_id, token0 = created["table"]["id"], created["token"]
        token1 = client.post(f"/api/tables/{table_id}/join", json={}).json()["token"]
        # A table whose clock runs does not sleep: the clock plays for the absent.
        clocked = client.post("/api/tables", json={"players": 2, "clock": 60}).json()["table"]["id"]
        client.post(f"/api/tables/{clocked}/join", json={})
        # Both players choose their trumps and play a few moves, then walk away in the middle of the hand.
        rng = random.Random(5)
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        ):
            sockets = [ws0, ws1]
            for ws, token in zip(sockets, (token0, token1), strict=True):
                ws.send_json({"type": "hello", "token": token, "last_seen": None})
            seen = 0
            for _ in range(10):
                # Both connections hear every event: read each to the next one where someone is to act.
                latest = [_next_turn(ws, seen) for ws in sockets]
                seen = latest[0]["event_no"]
                assert latest[1]["event_no"] == seen
                mover = 0 if latest[0]["view"]["legal_moves"] else 1
                move = choose(latest[mover]["view"], rng)
                sockets[mover].send_json({"type": "move", "event": move, "last_seen": seen})
            latest = [_next_turn(ws, seen) for ws in sockets]
        last = latest[0]
        assert last["hand_end"] is None and last["view"]["phase"] in ("lead", "respond", "second")
        # Taken out of memory first, then marked asleep in the file (after an await): wait for both.
        _until(lambda: table_id not in hub.tables and _flags(db, table_id) == (0, 1), "putting the table to sleep")
        assert table_id not in _lobby(client)
        assert clocked in hub.tables, "a table with a running clock is not idle"

    # A restart leaves the sleeping table on disk; the player to act comes back and it wakes.
    with _served(db) as (client, hub):
        assert table_id not in hub.tables and clocked in hub.tables
        # Looked up twice: replayed once (off the loop) for the first answer, which is then remembered.
        on_the_loop = _watch_replays(hub, monkeypatch)
        for _ in range(2):
            info = client.get(f"/api/tables/{table_id}").json()
            assert info["status"] == "playing" and info["event_no"] == last["event_no"]
        assert on_the_loop == [False] and table_id not in hub.tables
        to_act = last["view"]["to_act"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": (token0, token1)[to_act], "last_seen": None})
            assert _receive(ws, "welcome")["seat"] == to_act
            back = _receive(ws)
            assert back["resync"] and back["event_no"] == last["event_no"] and back["view"]["legal_moves"]
            assert back["view"]["pile"] == last["view"]["pile"]
            assert _flags(db, table_id) == (0, 0) and table_id in _lobby(client)
            assert on_the_loop == [False, False], "waking replays it once more"
            move = choose(back["view"], rng)
            ws.send_json({"type": "move", "event": move, "last_seen": back["event_no"]})
            played = _receive(ws)
        assert played["event_no"] == last["event_no"] + 1 and played["by"] == "player"
        connection = sqlite3.connect(db)
        query = "SELECT body FROM events WHERE table_id = ? ORDER BY no DESC"
        (body,) = connection.execute(query, (table_id,)).fetchone()
        connection.close()
        stored = json.loads(body)
        assert isinstance(stored.pop("at"), float)  # when it was stored (the clock counts from it)
        assert stored == {**move, "by": "player"}


def _next_turn(ws: Any, after: int) -> dict[str, Any]:
    """The first update after event ``after`` at which a seat is to act (not the deal)."""
    while True:
        update = _receive(ws)
        if update["event_no"] > after and update["view"] and update["view"]["to_act"] is not None:
            return update


def test_waking_a_table_is_refused_in_words_when_memory_is_full(tmp_path: Path) -> None:
    with _served(tmp_path / "full.sqlite3", max_tables=1) as (client, hub):
        sleeper = client.post("/api/tables", json={}).json()
        _until(lambda: not hub.tables, "putting the table to sleep")
        client.post("/api/tables", json={})
        with client.websocket_connect(f"/ws/tables/{sleeper['table']['id']}") as ws:
            ws.send_json({"type": "hello", "token": sleeper["token"], "last_seen": None})
            refused = ws.receive_json()
        assert refused["code"] == "too_many_tables" and "try again later" in refused["message"]
        assert sleeper["table"]["id"] not in hub.tables and len(hub.tables) == 1


def test_a_finished_match_in_memory_does_not_count_against_max_tables(tmp_path: Path) -> None:
    """docs/protocol.md: --max-tables counts the *unfinished* tables in a process's memory, for a create (as it did)
    and for waking a sleeping table alike: a finished match still held (someone watches it) takes no room."""
    with _served(tmp_path / "finished.sqlite3", max_tables=1) as (client, hub):
        sleeper = client.post("/api/tables", json={}).json()
        _until(lambda: not hub.tables, "putting the table to sleep")
        over = client.post("/api/tables", json={"match_hands": 1, "computer": [{"seat": 1, "level": "easy"}]}).json()
        with client.websocket_connect(f"/ws/tables/{over['table']['id']}") as ws:
            ws.send_json({"type": "hello", "token": over["token"], "last_seen": None})
            update = _receive(ws)
            # Resigned when it is seat 0's turn in play: nothing else can happen meanwhile (no stale)
            while not (update["view"] and update["view"]["phase"] not in ("trump_choice", "deal", "over")):
                view = update["view"]
                if view and view["legal_moves"] and view["phase"] == "trump_choice":
                    ws.send_json({"type": "move", "event": view["legal_moves"][0], "last_seen": update["event_no"]})
                update = _receive(ws)
            while update["view"]["to_act"] != 0:
                update = _receive(ws)
            ws.send_json({"type": "resign", "last_seen": update["event_no"]})
            while update["status"] != "finished":
                update = _receive(ws)
            assert list(hub.tables) == [over["table"]["id"]]  # held: it is watched
            with client.websocket_connect(f"/ws/tables/{sleeper['table']['id']}") as woken:
                woken.send_json({"type": "hello", "token": sleeper["token"], "last_seen": None})
                assert _receive(woken, "welcome")["seat"] == 0
                assert sleeper["table"]["id"] in hub.tables


def test_a_database_of_the_previous_version_is_brought_up_to_date(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    old = sqlite3.connect(db)
    old.executescript(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, creator TEXT NOT NULL,"
        " config TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0);"
        "INSERT INTO tables VALUES ('old', 0, 'x', '{\"players\": 2}', 0);"
    )
    old.close()
    store = EventStore(str(db))
    try:
        assert [table.id for table in asyncio.run(store.unfinished())] == ["old"]
    finally:
        store.close_now()
    assert _flags(db, "old") == (0, 0)


def test_a_seat_of_a_sleeping_table_can_be_left_when_memory_is_full(tmp_path: Path) -> None:
    """Giving up a seat is always possible: a sleeping table is woken for it past --max-tables (and sleeps again once
    idle), where a hello to it would be refused with too_many_tables."""
    with _served(tmp_path / "leave.sqlite3", max_tables=1) as (client, hub):
        sleeper = client.post("/api/tables", json={}).json()
        table_id = sleeper["table"]["id"]
        _until(lambda: not hub.tables, "putting the table to sleep")
        client.post("/api/tables", json={})
        left = client.post(f"/api/tables/{table_id}/leave", json={"token": sleeper["token"]})
        assert left.status_code == 200, left.json()
        assert left.json()["seat"] == 0
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        assert seats[0]["kind"] == "free" and seats[0]["left"] is True
        again = client.post(f"/api/tables/{table_id}/leave", json={"token": sleeper["token"]})
        assert again.status_code == 403 and again.json()["code"] == "bad_token"
        _until(lambda: table_id not in hub.tables, "putting the table to sleep again")
