"""Resigning, draw offers and the clock at the online table (rules §3.4, docs/protocol.md), in-process."""

from __future__ import annotations

import warnings
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from starlette.exceptions import StarletteDeprecationWarning

from rules.server.app import create_app
from rules.server.limits import Settings

with warnings.catch_warnings():  # this Starlette would rather use httpx2, which is not installed here
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


class Player:
    """One WebSocket seat; remembers the last update."""

    def __init__(self, client: TestClient, sockets: ExitStack, table_id: str, token: str | None) -> None:
        self.ws: Any = sockets.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
        self.ws.send_json({"type": "hello", "token": token, "last_seen": None})
        self.seat = self.ws.receive_json()["seat"]
        self.last: dict[str, Any] = self.next("update")

    def next(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind`` (updates on the way are kept as the last one)."""
        while True:
            message: dict[str, Any] = self.ws.receive_json()
            if message["type"] == "update":
                self.last = message
            if message["type"] == kind:
                return message

    def send(self, kind: str, **fields: Any) -> None:
        self.ws.send_json({"type": kind, "last_seen": self.last["event_no"], **fields})


def _table(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    created = client.post("/api/tables", json={"players": 2, **body}).json()
    table_id, tokens = created["table"]["id"], [created["token"]]
    if not body.get("computer"):
        tokens.append(client.post(f"/api/tables/{table_id}/join", json={}).json()["token"])
    return table_id, tokens


def _to_play(players: list[Player]) -> None:
    """Choose trumps until the cards are dealt (every player then sees the phase of play)."""
    while players[0].last["view"]["phase"] in ("trump_choice", "deal"):
        for player in players:
            moves = player.last["view"]["legal_moves"]
            if moves and moves[0]["type"] == "choose_trump":
                player.send("move", event=moves[0])
        for player in players:
            player.next("update")


def _client(tmp_path: Path) -> TestClient:
    settings = Settings(db=str(tmp_path / "endings.sqlite3"), bot_processes=0, rate=1000, burst=1000)
    return TestClient(create_app(settings))


def test_a_player_resigns_out_of_turn_and_loses_the_hand(tmp_path: Path) -> None:
    with _client(tmp_path) as client, ExitStack() as sockets:
        table_id, tokens = _table(client)
        players = [Player(client, sockets, table_id, token) for token in tokens]
        players[0].send("resign")
        refused = players[0].next("error")
        assert (refused["code"], refused["refusal"]["code"]) == ("illegal", "before_play")
        _to_play(players)
        waiting = next(p for p in players if p.last["view"]["to_act"] != p.seat)
        waiting.send("resign")
        for player in players:
            update = player.next("update")
            assert update["event"] == {"type": "resign", "seat": waiting.seat}
            assert update["notifications"] == [
                {"type": "game_over", "result": "loss", "loser": waiting.seat, "reason": "resigned"}
            ]
            assert update["hand_end"]["outcome"]["reason"] == "resigned"
            assert update["hand_end"]["log"][-1] == {"type": "resign", "seat": waiting.seat}
            assert update["score"]["hands_lost"][waiting.seat] == 1
        waiting.send("resign")
        assert waiting.next("error")["code"] == "no_game"
        spectator = Player(client, sockets, table_id, None)
        spectator.send("resign")
        assert spectator.next("error")["code"] == "spectator"


def test_a_draw_needs_every_holder_and_a_decline_ends_the_offer(tmp_path: Path) -> None:
    with _client(tmp_path) as client, ExitStack() as sockets:
        table_id, tokens = _table(client)
        a, b = (Player(client, sockets, table_id, token) for token in tokens)
        _to_play([a, b])
        a.send("draw", agree=False)
        assert a.next("error")["code"] == "no_offer"
        a.send("draw", agree=True)
        for player in (a, b):
            offer = player.next("draw_offered")
            assert (offer["agreed"], offer["declined"]) == ([a.seat], None)
        b.send("draw", agree=False)
        for player in (a, b):
            offer = player.next("draw_offered")
            assert (offer["agreed"], offer["declined"]) == ([], b.seat)
        a.send("draw", agree=True)
        b.next("draw_offered")
        a.next("draw_offered")
        b.send("draw", agree=True)
        for player in (a, b):
            update = player.next("update")
            assert update["event"] == {"type": "agree_draw"}
            assert update["hand_end"]["outcome"] == {"result": "draw", "reason": "agreement", "out_order": []}
            assert update["score"]["draws"] == 1


def test_a_move_ends_an_offer_and_a_reconnecting_seat_hears_a_pending_one(tmp_path: Path) -> None:
    with _client(tmp_path) as client, ExitStack() as sockets:
        table_id, tokens = _table(client)
        a, b = (Player(client, sockets, table_id, token) for token in tokens)
        _to_play([a, b])
        a.send("draw", agree=True)
        a.next("draw_offered")
        b.next("draw_offered")
        again = sockets.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
        again.send_json({"type": "hello", "token": tokens[1], "last_seen": b.last["event_no"]})
        assert again.receive_json()["type"] == "welcome"
        assert again.receive_json()["agreed"] == [a.seat]  # nothing missed, the offer still stands
        mover = a if a.last["view"]["to_act"] == a.seat else b
        mover.send("move", event=mover.last["view"]["legal_moves"][0])
        b.next("update")
        b.send("draw", agree=True)  # the offer ended with the move: this one is a new offer, not an acceptance
        offer = a.next("draw_offered")
        assert offer["agreed"] == [b.seat]


def test_the_computer_answers_an_offer_by_its_rule(tmp_path: Path) -> None:
    """docs/protocol.md: a computer agrees in a long hand, or when it holds as many cards as any other holder."""
    with _client(tmp_path) as client, ExitStack() as sockets:
        table_id, tokens = _table(client, computer=[{"seat": 1, "level": "easy"}])
        person = Player(client, sockets, table_id, tokens[0])
        while person.last["view"]["phase"] in ("trump_choice", "deal") or person.last["view"]["to_act"] != 0:
            moves = person.last["view"]["legal_moves"]
            if moves:
                person.send("move", event=moves[0])
            person.next("update")
        counts = person.last["view"]["hand_counts"]
        person.send("draw", agree=True)
        if counts[1] >= counts[0]:
            update = person.next("update")
            assert update["event"] == {"type": "agree_draw"}
        else:
            offer = person.next("draw_offered")
            assert (offer["agreed"], offer["declined"]) == ([], 1)


def test_a_seat_taken_or_freed_while_a_move_is_due_leaves_its_clock_as_it_was(tmp_path: Path) -> None:
    # The clock gives seconds per move (docs/protocol.md): a seat event is no move, so the deadline stays.
    with _client(tmp_path) as client, ExitStack() as sockets:
        table_id, tokens = _table(client, clock=60)
        players = [Player(client, sockets, table_id, token) for token in tokens]
        _to_play(players)
        due = players[0].last["deadline"]
        assert due is not None
        (mover, _), (_, waiting_token) = sorted(
            zip(players, tokens, strict=True), key=lambda pair: pair[0].last["view"]["to_act"] != pair[0].seat
        )
        left = client.post(f"/api/tables/{table_id}/leave", json={"token": waiting_token}).json()
        assert left["type"] == "left"
        freed = mover.next("update")
        assert (freed["event"]["type"], freed["deadline"]) == ("seat_freed", due)
        mover.send("move", event=mover.last["view"]["legal_moves"][0])
        assert mover.next("update")["deadline"] > due  # the next move has a clock of its own
