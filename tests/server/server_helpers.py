"""Helpers of the server tests: a real ``trumps serve`` in a subprocess, WebSocket players, leak checks."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import websockets
from serving import ServedProcess
from websockets.exceptions import ConnectionClosed

from rules.events import parse_event
from rules.game import Game
from rules.options import RuleSet
from rules.server.tables import TABLE_EVENTS
from rules.server.verify import hand_end_problem, seed_hash

_MOVES = ("choose_trump", "lead", "beat", "second", "take")


class Server(ServedProcess):
    """The server under test, with requests to its HTTP API and a look into its database file."""

    def __init__(self, db: Path | str, **env: str) -> None:
        super().__init__(db, env)

    def post(self, path: str, body: Any) -> tuple[int, dict[str, Any]]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.http}{path}", data=data, method="POST")
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def get(self, path: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(f"{self.http}{path}", timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stored_events(self) -> dict[str, list[dict[str, Any]]]:
        """Every table's committed events, read from the database itself."""
        if str(self.db).startswith("postgresql://"):
            with psycopg.connect(str(self.db)) as conn:
                tables: dict[str, list[dict[str, Any]]] = {}
                for table_id, body in conn.execute("SELECT table_id, body FROM events ORDER BY table_id, no"):
                    tables.setdefault(table_id, []).append(json.loads(body))
                return tables
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            tables: dict[str, list[dict[str, Any]]] = {}
            for table_id, body in db.execute("SELECT table_id, body FROM events ORDER BY table_id, no"):
                tables.setdefault(table_id, []).append(json.loads(body))
            return tables
        finally:
            db.close()


@dataclass
class Seat:
    """A WebSocket player at one seat (``seat`` None: a spectator) that remembers every message text."""

    url: str
    token: str | None
    seat: int | None
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    texts: list[str] = field(default_factory=list)
    last: dict[str, Any] | None = None
    event_no: int = 0
    acked: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    presences: list[dict[str, Any]] = field(default_factory=list)
    ws: Any = None
    moved_at: int = -1
    random_moves: bool = False

    async def connect(self, last_seen: int | None = None) -> dict[str, Any]:
        self.ws = await websockets.connect(self.url, max_size=2**22, max_queue=None)
        await self.send({"type": "hello", "token": self.token, "last_seen": last_seen})
        welcome = await self.recv()
        assert welcome["type"] == "welcome", welcome
        return welcome

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next message, leaving out ``presence`` news (kept in :attr:`presences`)."""
        while True:
            message = await self.receive(timeout)
            if message["type"] != "presence":
                return message

    async def presence(self, timeout: float = 10) -> dict[str, Any]:
        """The next ``presence`` message (what comes before it is taken in as usual)."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == "presence":
                return message

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        """The next message of any type."""
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "update":
            assert message["event_no"] >= self.event_no or message["resync"], (message["event_no"], self.event_no)
            self.last = message
            self.event_no = message["event_no"]
            event = message["event"]
            if message["by"] == "player" and event and event["type"] in _MOVES and event["seat"] == self.seat:
                self.acked.append((message["event_no"], event))
        elif message["type"] == "error":
            self.errors.append(message)
        elif message["type"] == "presence":
            assert message["event_no"] >= self.event_no, "presence comes after the updates it belongs to"
            self.presences.append(message)
        return message

    async def close_code(self, timeout: float = 10) -> int | None:
        """Read every message until the server closes the connection; the code it closed with."""
        try:
            while True:
                await self.receive(timeout)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None

    async def update(self, timeout: float = 10) -> dict[str, Any]:
        while True:
            message = await self.recv(timeout)
            if message["type"] == "update":
                return message

    def my_turn(self) -> bool:
        """The latest update offers moves, and no move was sent against it yet."""
        view = self.last["view"] if self.last else None
        return bool(view and view["legal_moves"]) and self.moved_at < self.event_no

    async def play_one(self) -> dict[str, Any]:
        """Send a legal move against the last update (uniformly random, or the quick policy)."""
        assert self.last is not None
        view = self.last["view"]
        move = self.rng.choice(view["legal_moves"]) if self.random_moves else choose(view, self.rng)
        self.moved_at = self.event_no
        await self.send({"type": "move", "event": move, "last_seen": self.event_no})
        return move  # type: ignore[no-any-return]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def new_duel(server: Server) -> tuple[str, str, str]:
    """A duel whose two seats people took: its id, the creator's token (seat 0) and the joiner's (seat 1)."""
    _, created = server.post("/api/tables", {"players": 2})
    table_id = created["table"]["id"]
    _, joined = server.post(f"/api/tables/{table_id}/join", {})
    return table_id, created["token"], joined["token"]


async def first_error(seat: Seat, message: Any) -> dict[str, Any]:
    """Send ``message``; the first error that comes back (updates and pongs before it are passed over)."""
    await seat.send(message)
    while True:
        reply = await seat.recv()
        if reply["type"] == "error":
            return reply


async def still_served(seat: Seat) -> None:
    """The connection is still open and served after what came before: a ping gets its own pong back."""
    await seat.send({"type": "ping", "nonce": "still here"})
    while (reply := await seat.recv())["type"] != "pong":
        pass
    assert reply["nonce"] == "still here"


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A quick policy that ends hands in tens of moves (random play takes thousands):
    never take when something else is legal; play the lowest card, trumps last."""
    moves: list[dict[str, Any]] = view["legal_moves"]
    if moves[0]["type"] == "choose_trump":
        return rng.choice(moves)
    cards = [move for move in moves if move["type"] != "take"]
    if not cards:
        return moves[0]
    trump = view["trumps"][view["seat"]]
    order = "6789TJQKA"
    return min(cards, key=lambda move: (move["card"][1] == trump, order.index(move["card"][0])))


async def play_until(seats: list[Seat], done: Any, timeout: float = 60) -> None:
    """Every seat plays random legal moves whenever its latest update offers some, until ``done(seat)``."""

    async def run(seat: Seat) -> None:
        while not done(seat):
            if seat.my_turn() and not (seat.last or {}).get("hand_end"):
                await seat.play_one()
            message = await seat.recv(timeout)
            if message["type"] == "error" and message["code"] != "stale":
                raise AssertionError(f"seat {seat.seat} got an error: {message}")

    await asyncio.wait_for(asyncio.gather(*(run(seat) for seat in seats)), timeout)


def hand_over(seat: Seat) -> bool:
    return bool(seat.last and seat.last["hand_end"])


def check_no_leaks(events: list[dict[str, Any]], players: int, seats: list[Seat]) -> int:
    """No message to a seat (or a spectator) names a card hidden in another seat's hand at that moment.

    Replays the stored events (the whole truth, deal included) to know, after each event
    number, which cards of each hand nobody else may see. Returns how many texts were checked.
    """
    hidden: dict[int, list[set[str]]] = {}
    game: Game | None = None
    for no, record in enumerate(events, start=1):
        kind = record["type"]
        if kind == "hand_started":
            game = Game(RuleSet(players=players, dealer=record["dealer"]), seed=int(record["seed"]))
        elif kind not in TABLE_EVENTS:
            assert game is not None
            game.push(parse_event({k: v for k, v in record.items() if k != "by"}))
        if game is None or game.is_over():
            hidden[no] = [set() for _ in range(players)]
            continue
        public = game.view(None)
        hidden[no] = [set(game.hand(s)) - set(public.known[s]) for s in range(players)]
    checked = 0
    for seat in seats:
        for text in seat.texts:
            message = json.loads(text)
            no = message.get("event_no")
            if no is None or no not in hidden:
                continue
            for other in range(players):
                if other == seat.seat:
                    continue
                leaked = [code for code in hidden[no][other] if f'"{code}"' in text]
                assert not leaked, f"seat {seat.seat} was sent seat {other}'s hidden cards {leaked} at event {no}"
            checked += 1
    return checked


def check_hand_end(hand_end: dict[str, Any]) -> Game:
    """The revealed seed matches its published hash and deals exactly the logged deal; the log replays."""
    from rules.log import read_log

    assert hand_end_problem(hand_end) is None
    assert seed_hash(hand_end["seed"]) == hand_end["seed_hash"]
    log = hand_end["log"]
    game = read_log([json.dumps(line) for line in log])
    header = log[0]
    rules = RuleSet(
        players=header["players"],
        dealer=header["dealer"],
        pass_sixes=header["rules"]["pass_sixes"],
        must_beat=header["rules"]["must_beat"],
    )
    deal = next(line for line in log if line["type"] == "deal")
    assert Game(rules, seed=int(hand_end["seed"])).sample_deal().hands == deal["hands"]
    assert game.outcome is not None
    assert game.outcome.model_dump(mode="json") == hand_end["outcome"]
    return game
