"""A rematch made on the server (docs/protocol.md, *A rematch*), in-process on SQLite: two calls make one table, each
caller in the seat they had; the old table's players hear of it at once; refusals change nothing; it survives a
restart. The race of two processes on PostgreSQL is in test_cluster.py, the page's side in the browser tests."""

from __future__ import annotations

import sqlite3
import time
import warnings
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from rules.server import tables
from rules.server.app import create_app
from rules.server.limits import Settings

with warnings.catch_warnings():  # this Starlette would rather use httpx2, which is not installed here
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

from test_table_endings import Player, _to_play


def _client(db: Path, **settings: Any) -> TestClient:
    base: dict[str, Any] = {"bot_processes": 0, "rate": 1000, "burst": 1000, "sync": "normal"}
    return TestClient(create_app(Settings(db=str(db), **(base | settings))))


def _finished(client: TestClient, sockets: ExitStack, **config: Any) -> tuple[str, list[str], list[Player]]:
    """A duel of two people whose one-hand match is over (seat 0 resigned): its id, the tokens, the players."""
    body = {"players": 2, "match_hands": 1, "must_beat": True, "clock": 60, "name": "Ana", **config}
    created = client.post("/api/tables", json=body).json()
    table_id = created["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    tokens = [created["token"], joined["token"]]
    players = [Player(client, sockets, table_id, token) for token in tokens]
    _to_play(players)
    players[0].send("resign")
    for player in players:
        assert player.next("update")["score"]["match_over"]
    return table_id, tokens, players


def _rows(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        tables = conn.execute("SELECT count(*) FROM tables").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    return tables, events


def test_two_calls_make_one_table_with_each_caller_in_their_seat(tmp_path: Path) -> None:
    db = tmp_path / "rematch.sqlite3"
    with _client(db) as client, ExitStack() as sockets:
        table_id, tokens, players = _finished(client, sockets)
        before = client.get(f"/api/tables/{table_id}").json()
        assert before["status"] == "finished" and before["rematch"] is None
        # Bo (seat 1) asks first: the new table is made, Bo sits in seat 1 with his name.
        first = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]})
        assert first.status_code == 200, first.json()
        made = first.json()
        new_id = made["table"]["id"]
        assert (made["type"], made["seat"], made["created"]) == ("rematched", 1, True)
        assert new_id != table_id and len(made["token"]) == 43
        # Both players of the old table hear of it at once, as an event with its number.
        for player in players:
            update = player.next("update")
            assert update["event"] == {"type": "rematch", "table": new_id, "seat": 1}
            assert (update["by"], update["rematch"], update["status"]) == ("player", new_id, "finished")
            assert update["event_no"] == before["event_no"] + 1
            assert update["hand_end"] is not None  # the end of the match is still shown
        # Ana (seat 0) asks too: the same table, seat 0, and every seat is taken, so the first hand starts.
        second = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0], "name": "Ana B."}).json()
        assert (second["table"]["id"], second["seat"], second["created"]) == (new_id, 0, False)
        info = client.get(f"/api/tables/{new_id}").json()
        assert [(seat["kind"], seat["name"]) for seat in info["seats"]] == [("human", "Ana B."), ("human", "Bo")]
        assert (info["players"], info["rules"], info["clock"], info["match_hands"]) == (
            2,
            {"pass_sixes": True, "must_beat": True},
            60,
            1,
        )
        # Asking again with a token answers as before, changing nothing.
        tables, events = _rows(db)
        again = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]}).json()
        assert (again["table"]["id"], again["seat"], again["token"], again["created"]) == (
            new_id,
            1,
            made["token"],
            False,
        )
        assert _rows(db) == (tables, events)
        # The tokens play there: seat 0 chooses a trump first (the dealer is the last seat, as the lobby makes it).
        new = [Player(client, sockets, new_id, token) for token in (second["token"], made["token"])]
        assert [player.seat for player in new] == [0, 1]
        while new[0].last["event_no"] < 2:
            new[0].next("update")
        assert new[0].last["event"]["type"] == "hand_started" and new[0].last["event"]["dealer"] == 1
        assert new[0].last["view"]["to_act"] == 0
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] == new_id
        # The hand logs of the old table are still served (the link is no move of its game).
        assert client.get(f"/api/tables/{table_id}/hands/1/log").status_code == 200


def test_refusals_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "refusals.sqlite3"
    with _client(db) as client, ExitStack() as sockets:
        # A match under way (and one that never ends) is not over: 409 match_not_over.
        created = client.post("/api/tables", json={"players": 2, "computer": [{"seat": 1, "level": "easy"}]}).json()
        under_way = created["table"]["id"]
        table_id, tokens, _ = _finished(client, sockets)
        tables, events = _rows(db)
        refused = client.post(f"/api/tables/{under_way}/rematch", json={"token": created["token"]})
        assert (refused.status_code, refused.json()["code"]) == (409, "match_not_over")
        # A token of no seat here (another table's, or none at all): 403 bad_token.
        for token in (created["token"], "x" * 43, ""):
            refused = client.post(f"/api/tables/{table_id}/rematch", json={"token": token})
            assert (refused.status_code, refused.json()["code"]) == (403, "bad_token")
        # Bodies are checked strictly, as everywhere: no coercion, no missing token.
        for body in ({}, {"token": 5}, {"token": tokens[0], "name": 7}, {"token": tokens[0], "name": "a\u202eb"}):
            refused = client.post(f"/api/tables/{table_id}/rematch", json=body)
            assert (refused.status_code, refused.json()["code"]) == (400, "bad_request"), body
        refused = client.post(f"/api/tables/{table_id}/rematch", content=b"[]")
        assert refused.json()["code"] == "bad_request"
        refused = client.post("/api/tables/nosuchtable/rematch", json={"token": tokens[0]})
        assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
        assert _rows(db) == (tables, events)
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] is None
        # A player who left the finished table holds no seat there any more.
        client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]})
        refused = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]})
        assert (refused.status_code, refused.json()["code"]) == (403, "bad_token")


def _later(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Move the clock the holds are compared with ``seconds`` on (only that clock: the tables' own go on as they do)."""
    monkeypatch.setattr(tables, "hold_clock", lambda: time.time() + seconds)


def _seats(info: dict[str, Any]) -> list[tuple[str, bool]]:
    """Each seat's kind, and whether it is kept for its player of the match before."""
    return [(seat["kind"], seat["held_until"] is not None) for seat in info["seats"]]


def test_the_other_players_seat_is_kept_for_them_and_shown_held(tmp_path: Path) -> None:
    """A stranger cannot take the seat kept for the player who has not asked yet, from the lobby or by its link, with
    a seat or without one: seat_held (409), and nothing changes; the lobby and TableInfo show it held, until when.
    The player then asks and sits there."""
    db = tmp_path / "held.sqlite3"
    with _client(db) as client, ExitStack() as sockets:
        table_id, tokens, _ = _finished(client, sockets)
        asked = time.time()
        made = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()
        new_id = made["table"]["id"]
        tables_before, events = _rows(db)
        for body in ({"seat": 1}, {}, {"seat": None, "name": "Stranger"}):
            refused = client.post(f"/api/tables/{new_id}/join", json=body)
            assert (refused.status_code, refused.json()["code"]) == (409, "seat_held"), body
            assert "kept for the players of the match before" in refused.json()["message"]
        assert _rows(db) == (tables_before, events)
        info = client.get(f"/api/tables/{new_id}").json()
        listed = next(table for table in client.get("/api/tables").json()["tables"] if table["id"] == new_id)
        for shown in (made["table"], info, listed):
            assert _seats(shown) == [("human", False), ("free", True)] and shown["status"] == "waiting"
            until = shown["seats"][1]["held_until"]
            assert asked + 120 <= until <= time.time() + 120  # the default hold: 2 minutes from the rematch
            assert not shown["seats"][1]["left"]
            assert shown["rematch_of"] == table_id  # where the kept seats' players ask for them
        assert client.get(f"/api/tables/{table_id}").json()["rematch_of"] is None
        # Its player asks: the seat is theirs, the hold is over, the first hand starts.
        second = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]})
        assert second.status_code == 200 and second.json()["seat"] == 1
        info = client.get(f"/api/tables/{new_id}").json()
        assert _seats(info) == [("human", False), ("human", False)] and info["status"] == "playing"


def test_a_hold_ends_after_its_time_and_survives_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hold's end is stored with the new table: after a restart the seat is still kept; once the clock passes it,
    the seat reads open (held_until null) and a stranger may take it; the late player is then refused seat_taken."""
    db = tmp_path / "restart.sqlite3"
    with _client(db) as client, ExitStack() as sockets:
        table_id, tokens, _ = _finished(client, sockets)
        new_id = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()["table"]["id"]
    with _client(db) as client, ExitStack() as sockets:
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] == new_id
        assert client.get(f"/api/tables/{new_id}").json()["rematch_of"] == table_id
        refused = client.post(f"/api/tables/{new_id}/join", json={"seat": 1})
        assert (refused.status_code, refused.json()["code"]) == (409, "seat_held")
        info = client.get(f"/api/tables/{new_id}").json()
        assert _seats(info) == [("human", False), ("free", True)]
        _later(monkeypatch, 119)
        assert client.post(f"/api/tables/{new_id}/join", json={"seat": 1}).json()["code"] == "seat_held"
        _later(monkeypatch, 121)
        for info in (
            client.get(f"/api/tables/{new_id}").json(),
            next(table for table in client.get("/api/tables").json()["tables"] if table["id"] == new_id),
        ):
            assert _seats(info) == [("human", False), ("free", False)]
        # The new table waits in the lobby for seat 1 like any other now; a stranger takes it first.
        assert client.post(f"/api/tables/{new_id}/join", json={"seat": 1}).status_code == 200
        refused = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]})
        assert (refused.status_code, refused.json()["code"]) == (409, "seat_taken")
        watcher = Player(client, sockets, table_id, tokens[1])
        assert watcher.last["resync"] and watcher.last["rematch"] == new_id
        # Asking again after the restart gives the same table and the same token.
        first = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()
        assert (first["table"]["id"], first["seat"], first["created"]) == (new_id, 0, False)


def test_a_player_who_leaves_the_finished_table_gives_their_kept_seat_up(tmp_path: Path) -> None:
    """Leaving the old table is giving the rematch up: the seat kept at the new table is freed at once (a seat_freed
    there, whose update its connections get), open to anyone; a seat already taken there is not touched. A player who
    left before the rematch was made has no seat kept at all."""
    db = tmp_path / "give-up.sqlite3"
    with _client(db) as client, ExitStack() as sockets:
        table_id, tokens, _ = _finished(client, sockets)
        made = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()
        new_id = made["table"]["id"]
        ana = Player(client, sockets, new_id, made["token"])
        assert client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[0]}).status_code == 200
        assert client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]}).status_code == 200
        info = client.get(f"/api/tables/{new_id}").json()
        assert info["seats"][1]["left"] and _seats(info) == [("human", False), ("free", False)]
        update = ana.next("update")
        assert update["event"] == {"type": "seat_freed", "seat": 1} and update["by"] == "player"
        assert _seats(update) == [("human", False), ("free", False)]
        joined = client.post(f"/api/tables/{new_id}/join", json={})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        # Bo leaves the next finished table before Ana asks: his seat there is open from the start.
        table_id, tokens, _ = _finished(client, sockets)
        assert client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]}).status_code == 200
        made = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()
        assert _seats(made["table"]) == [("human", False), ("free", False)]


def test_computer_seats_come_back_as_computers_and_nothing_is_kept_with_a_hold_of_0(tmp_path: Path) -> None:
    db = tmp_path / "computer.sqlite3"
    with _client(db, rematch_hold_seconds=0) as client, ExitStack() as sockets:
        table_id, tokens, _ = _finished(client, sockets)
        made = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()
        assert _seats(made["table"]) == [("human", False), ("free", False)]
        body = {"players": 2, "match_hands": 1, "computer": [{"seat": 1, "level": "easy"}]}
        created = client.post("/api/tables", json=body).json()
        table_id = created["table"]["id"]
        player = Player(client, sockets, table_id, created["token"])
        while True:  # to the first move of the play at which seat 0 is to act (nothing moves then but seat 0)
            view = player.last["view"]
            if view and view["to_act"] == 0:
                if view["phase"] not in ("trump_choice", "deal"):
                    break
                player.send("move", event=view["legal_moves"][0])
            player.next("update")
        player.send("resign")
        while not player.last["score"]["match_over"]:
            player.next("update")
    with _client(db) as client:
        made = client.post(f"/api/tables/{table_id}/rematch", json={"token": created["token"]}).json()
        assert _seats(made["table"]) == [("human", False), ("computer", False)]
        assert made["table"]["seats"][1]["level"] == "easy" and made["table"]["status"] == "playing"
