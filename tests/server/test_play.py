"""Real WebSocket clients against a real ``trumps serve``: complete games, spectators, reconnection."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Seat, Server, check_hand_end, check_no_leaks, hand_over, play_until

from rules.server.verify import hand_end_problem


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("play") / "play.sqlite3", TRUMPS_RATE="1000", TRUMPS_BURST="1000").start()
    yield server
    server.stop()


def _table(server: Server, **options: object) -> tuple[str, str]:
    status, created = server.post("/api/tables", {"players": 2, **options})
    assert status == 200, created
    return created["table"]["id"], created["token"]


def test_a_duel_of_two_hands_played_over_websockets(server: Server) -> None:
    table_id, token0 = _table(server, name="Ana")
    status, joined = server.post(f"/api/tables/{table_id}/join", {"name": "Bo"})
    assert status == 200 and joined["seat"] == 1
    url = f"{server.ws}/ws/tables/{table_id}"

    async def match() -> tuple[list[Seat], list[dict[str, object]]]:
        seats = [
            Seat(url, token0, 0, rng=random.Random(10)),
            Seat(url, joined["token"], 1, rng=random.Random(11)),
        ]
        spectator = Seat(url, None, None)
        for seat in [*seats, spectator]:
            await seat.connect()
            await seat.update()
        ends = []
        for _ in range(2):
            await play_until(seats, hand_over)
            ends.append(seats[0].last["hand_end"])
            while spectator.event_no < seats[0].event_no:
                await spectator.update()
            await seats[1].send({"type": "next_hand", "last_seen": seats[1].event_no})
            for seat in seats:
                started = await seat.update()
                assert started["event"]["type"] == "hand_started"
        await seats[1].send({"type": "next_hand", "last_seen": seats[1].event_no - 1})
        assert (await seats[1].recv())["code"] == "stale"
        while spectator.event_no < seats[0].event_no:
            await spectator.update()
        for seat in [*seats, spectator]:
            await seat.close()
        return [*seats, spectator], ends

    seats, ends = asyncio.run(match())
    first, second = (check_hand_end(end) for end in ends)
    for seat in seats:  # every connection saw every event, in order, with no gap
        numbers = [update["event_no"] for update in _updates(seat)]
        assert numbers == list(range(numbers[0], numbers[-1] + 1))
    numbers = [n for n, _ in seats[0].acked] + [n for n, _ in seats[1].acked]
    assert len(numbers) == len(set(numbers)) > 20
    # Rules §4: the loser of the first hand deals the second (after a draw the same dealer deals).
    expected_dealer = first.outcome.loser if first.outcome.loser is not None else first.rules.dealer
    assert second.rules.dealer == expected_dealer
    score = seats[0].last["score"]
    assert score["hands_played"] == 2 and score["hand"] == 3
    assert sum(score["hands_lost"]) + score["draws"] == 2
    spectator = seats[2]
    assert all(not update["view"]["hand"] for update in _updates(spectator) if update["view"])
    assert check_no_leaks(server.stored_events()[table_id], 2, seats) > 100
    # Deals.md, "Checking a hand": each player ties the second hand's log to what it was shown, from its start.
    for seat in seats[:2]:
        assert seat.seat is not None
        started, events, hand = _second_hand_as_seen(seat)
        check = partial(hand_end_problem, ends[1], started["seed_hash"], started["dealer"], seat=seat.seat)
        assert check(hand=hand, events=events) is None
        assert (
            str(check(hand=hand[1:], events=events)) == f"the log does not deal seat {seat.seat} the hand it was shown"
        )
        first_card = next(index for index, event in enumerate(events) if event["type"] == "lead")
        missed = events[:first_card] + events[first_card + 1 :]
        not_announced = check(hand=hand, events=missed)
        assert not_announced is not None and not_announced.code == "events", not_announced


def _second_hand_as_seen(seat: Seat) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """The second hand's ``hand_started`` event, the events of its updates from there to its end, and the seat's hand
    as the first update after the deal showed it."""
    updates = _updates(seat)
    begins = [index for index, update in enumerate(updates) if update["event"]["type"] == "hand_started"]
    updates = updates[begins[1] :]
    ends = next(index for index, update in enumerate(updates) if update["hand_end"] is not None)
    dealt = next(update for update in updates if update["event"]["type"] == "deal")
    return updates[0]["event"], [update["event"] for update in updates[: ends + 1]], dealt["view"]["hand"]


def _updates(seat: Seat) -> list[dict[str, Any]]:
    import json

    return [m for m in map(json.loads, seat.texts) if m["type"] == "update"]


def test_four_players_with_a_computer_seat(server: Server) -> None:
    table_id, token0 = _table(server, players=4, computer=[{"seat": 2, "level": "easy"}], dealer=3)
    tokens = {0: token0}
    for seat in (1, 3):
        status, joined = server.post(f"/api/tables/{table_id}/join", {"seat": seat})
        assert status == 200 and joined["seat"] == seat
        tokens[seat] = joined["token"]
    url = f"{server.ws}/ws/tables/{table_id}"

    async def hand() -> list[Seat]:
        seats = [Seat(url, tokens[s], s, rng=random.Random(s)) for s in (0, 1, 3)]
        for seat in seats:
            await seat.connect()
            await seat.update()
        await play_until(seats, hand_over)
        for seat in seats:
            await seat.close()
        return seats

    seats = asyncio.run(hand())
    game = check_hand_end(seats[0].last["hand_end"])
    assert game.rules.players == 4 and game.rules.dealer == 3
    assert any(event.seat == 2 for event in game.events if hasattr(event, "seat"))
    computer_moves = [u for u in _updates(seats[0]) if u["by"] == "computer"]
    assert computer_moves and all(u["event"]["seat"] == 2 for u in computer_moves)
    assert check_no_leaks(server.stored_events()[table_id], 4, seats) > 50


def test_a_reconnecting_seat_gets_exactly_the_updates_it_missed(server: Server) -> None:
    table_id, token0 = _table(server)
    _, joined = server.post(f"/api/tables/{table_id}/join", {})
    url = f"{server.ws}/ws/tables/{table_id}"

    async def scenario() -> None:
        a, b = Seat(url, token0, 0, rng=random.Random(3)), Seat(url, joined["token"], 1, rng=random.Random(4))
        for seat in (a, b):
            await seat.connect()
            await seat.update()
        # b chooses its trump (seat 1 is left of dealer 0), then a, then the server deals: a misses them all.
        while b.event_no < 2:
            await b.update()
        seen = a.event_no
        await a.close()
        await b.play_one()
        while not (b.last and b.last["event"] and b.last["event"]["type"] == "choose_trump"):
            await b.update()
        await b.close()
        a = Seat(url, token0, 0)
        await a.connect(last_seen=seen)
        missed = [await a.update() for _ in range(b.event_no - seen)]
        assert [m["event_no"] for m in missed] == list(range(seen + 1, b.event_no + 1))
        assert not any(m["resync"] for m in missed)
        await a.send({"type": "ping", "nonce": "x"})
        pong = await a.recv()
        assert pong == {"type": "pong", "nonce": "x", "event_no": b.event_no}
        await a.close()
        a = Seat(url, token0, 0)
        await a.connect(last_seen=0)
        assert (await a.update())["event_no"] in (1, b.event_no)  # the history holds it all, or a resync
        await a.close()

    asyncio.run(scenario())


def test_the_lobby_lists_open_tables_and_serves_the_page(server: Server, tmp_path: Path) -> None:
    table_id, _ = _table(server, clock=30, match_hands=3)
    status, lobby = server.get("/api/tables")
    assert status == 200 and lobby["type"] == "lobby"
    listed = next(table for table in lobby["tables"] if table["id"] == table_id)
    assert listed["clock"] == 30 and listed["match_hands"] == 3 and listed["status"] == "waiting"
    assert [seat["kind"] for seat in listed["seats"]] == ["human", "free"]
    import urllib.error
    import urllib.request

    with urllib.request.urlopen(f"{server.http}/") as response:
        assert response.status == 200 and b"<html" in response.read().lower()
        assert response.headers["Cache-Control"] == "no-cache"
    # The page and its modules may be kept, but are asked about each time: after an upgrade no page mixes versions.
    for path in ("/static/js/app.js", "/static/style.css"):
        with urllib.request.urlopen(f"{server.http}{path}") as response:
            assert response.headers["Cache-Control"] == "no-cache"
            etag = response.headers["ETag"]
        asked = urllib.request.Request(f"{server.http}{path}", headers={"If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError) as unchanged:
            urllib.request.urlopen(asked)
        assert unchanged.value.code == 304 and unchanged.value.headers["Cache-Control"] == "no-cache"


def test_every_message_matches_the_published_schema(server: Server) -> None:
    import json

    import jsonschema

    from rules.server.protocol import protocol_schema

    table_id, token0 = _table(server, players=3, computer=[{"seat": 1, "level": "easy"}])
    _, joined = server.post(f"/api/tables/{table_id}/join", {})
    url = f"{server.ws}/ws/tables/{table_id}"

    async def hand() -> list[Seat]:
        seats = [Seat(url, token0, 0, rng=random.Random(5)), Seat(url, joined["token"], 2, rng=random.Random(6))]
        for seat in seats:
            await seat.connect()
            await seat.update()
        await play_until(seats, hand_over)
        await seats[0].send({"type": "ping", "nonce": 1})
        await seats[0].send({"type": "next_hand", "last_seen": 0})
        while len(seats[0].errors) < 1:
            await seats[0].recv()
        for seat in seats:
            await seat.close()
        return seats

    seats = asyncio.run(hand())
    validator = jsonschema.Draft202012Validator(protocol_schema())
    texts = seats[0].texts + seats[1].texts
    kinds = set()
    for text in texts:
        message = json.loads(text)
        kinds.add(message["type"])
        errors = [error.message for error in validator.iter_errors(message)]
        assert not errors, (message["type"], errors[:3])
    assert kinds == {"welcome", "update", "presence", "pong", "error"}
    assert check_no_leaks(server.stored_events()[table_id], 3, seats) > 20


def test_the_clock_moves_for_a_seat_that_lets_it_run_out(server: Server) -> None:
    table_id, _ = _table(server, clock=1)
    _, joined = server.post(f"/api/tables/{table_id}/join", {})
    url = f"{server.ws}/ws/tables/{table_id}"

    async def wait_for_the_clock() -> dict[str, object]:
        seat = Seat(url, joined["token"], 1)
        await seat.connect()
        first = await seat.update()
        assert first["view"]["to_act"] == 1 and first["deadline"] is not None  # seat 1 chooses a trump first
        while True:
            update = await seat.update(timeout=10)
            if update["by"] == "clock":
                await seat.close()
                return update

    update = asyncio.run(wait_for_the_clock())
    assert update["event"]["type"] == "choose_trump" and update["event"]["seat"] == 1


def test_leaving_frees_the_seat_for_someone_else(server: Server) -> None:
    table_id, token0 = _table(server)
    _, joined = server.post(f"/api/tables/{table_id}/join", {})
    url = f"{server.ws}/ws/tables/{table_id}"

    async def scenario() -> None:
        stayer, leaver = Seat(url, token0, 0), Seat(url, joined["token"], 1)
        for seat in (stayer, leaver):
            await seat.connect()
            await seat.update()
        status, left = await asyncio.to_thread(server.post, f"/api/tables/{table_id}/leave", {"token": leaver.token})
        assert status == 200 and left["seat"] == 1
        while (update := await stayer.update())["event"]["type"] != "seat_freed":
            pass
        assert update["seats"][1]["kind"] == "free"
        with pytest.raises(Exception) as closed:
            while True:
                await leaver.recv()
        assert "4000" in str(closed.value)
        status, again = await asyncio.to_thread(server.post, f"/api/tables/{table_id}/join", {"name": "Cy"})
        assert status == 200 and again["seat"] == 1
        newcomer = Seat(url, again["token"], 1)
        await newcomer.connect()
        view = (await newcomer.update())["view"]
        assert view["seat"] == 1 and view["to_act"] == 1 and view["legal_moves"]  # the game waited for seat 1
        for seat in (stayer, newcomer):
            await seat.close()

    asyncio.run(scenario())


def test_a_match_of_one_hand_ends_and_leaves_the_lobby(server: Server) -> None:
    table_id, token0 = _table(server, match_hands=1, computer=[{"seat": 1, "level": "easy"}])
    url = f"{server.ws}/ws/tables/{table_id}"

    async def match() -> Seat:
        seat = Seat(url, token0, 0, rng=random.Random(8))
        await seat.connect()
        await seat.update()
        await play_until([seat], hand_over)
        await seat.send({"type": "next_hand", "last_seen": seat.event_no})
        error = await seat.recv()
        assert error["code"] == "match_over"
        await seat.close()
        return seat

    seat = asyncio.run(match())
    assert seat.last["status"] == "finished" and seat.last["score"]["match_over"]
    assert sum(seat.last["score"]["hands_lost"]) + seat.last["score"]["draws"] == 1
    _, lobby = server.get("/api/tables")
    assert table_id not in {table["id"] for table in lobby["tables"]}
    status, error = server.post(f"/api/tables/{table_id}/join", {})
    assert status == 409 and error["code"] == "match_over"


def test_the_others_hear_when_a_seat_connects_and_disconnects(server: Server) -> None:
    table_id, token0 = _table(server)
    _, joined = server.post(f"/api/tables/{table_id}/join", {})
    url = f"{server.ws}/ws/tables/{table_id}"

    def connected(presence: dict[str, object]) -> list[bool]:
        return [seat["connected"] for seat in presence["seats"]]  # type: ignore[attr-defined]

    async def scenario() -> None:
        stayer, spectator = Seat(url, token0, 0), Seat(url, None, None)
        await stayer.connect()
        assert connected(await stayer.presence()) == [True, False]  # its own arrival
        await spectator.connect()
        goer = Seat(url, joined["token"], 1)
        await goer.connect()
        for watcher in (stayer, spectator):
            assert connected(await watcher.presence()) == [True, True]
        await goer.close()
        for watcher in (stayer, spectator):
            gone = await watcher.presence()
            assert connected(gone) == [True, False] and gone["event_no"] == watcher.event_no
        back = Seat(url, joined["token"], 1)
        await back.connect(last_seen=goer.event_no)
        assert connected(await stayer.presence()) == [True, True]
        # A spectator coming and going is not news for the seats: the next thing the seat hears is its pong.
        await spectator.close()
        await stayer.send({"type": "ping", "nonce": "after"})
        assert (await stayer.receive())["type"] == "pong"
        for seat in (stayer, back):
            await seat.close()

    asyncio.run(scenario())
