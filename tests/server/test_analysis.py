"""The analysis board's requests against a real ``trumps serve``: replay, evaluation, reply, hand logs."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from server_helpers import Seat, Server, hand_over, play_until

from rules.events import parse_event
from rules.log import read_log

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"
DUEL = (VECTORS / "full_game_duel.jsonl").read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("analysis") / "analysis.sqlite3", TRUMPS_RATE="1000", TRUMPS_BURST="1000")
    server.start()
    yield server
    server.stop()


def _prefix(text: str, ply: int) -> str:
    return "".join(line + "\n" for line in text.splitlines()[: ply + 1])


def test_replay_gives_every_ply_as_trumps_replay_json_does(server: Server) -> None:
    status, replay = server.post("/api/replay", {"log": DUEL})
    assert status == 200
    lines = DUEL.splitlines()
    assert len(replay["plies"]) == len(lines)
    assert replay["plies"][0]["event"] is None
    for ply in (0, 3, 20, len(lines) - 1):
        expected = read_log(_prefix(DUEL, ply)).state().model_dump(mode="json")
        assert replay["plies"][ply]["state"] == expected
    last = replay["plies"][-1]
    assert last["legal"] == [] and last["state"]["outcome"] is not None
    assert any(note["type"] == "game_over" for note in last["notifications"])


def test_a_bad_log_is_refused_in_one_line_naming_its_line(server: Server) -> None:
    broken = DUEL.splitlines()
    broken[5] = broken[5].replace('"seat":', '"seat": 7, "x":')
    status, error = server.post("/api/replay", {"log": "\n".join(broken)})
    assert status == 400 and error["code"] == "bad_log"
    assert error["message"].startswith("line 6:") and "\n" not in error["message"] and error["line"] == 6
    assert server.post("/api/replay", {"lines": []})[0] == 400
    assert server.post("/api/analysis", b"not json")[0] == 400


def test_a_log_of_up_to_512_kb_is_read_however_its_json_escapes_it(server: Server) -> None:
    """docs/protocol.md: the board's bodies "may hold a log of up to 512 KB". A log's lines are JSON, so each of their
    quotes takes two bytes in the body: 430 KB of log make a body of about 540 KB, which is still read (and refused
    for what the log says, not for its size); a log over 512 KB is ``too_large``, however short its body."""
    line = '{"type": "lead", "seat": 1, "card": "6D"}\n'
    log = line * (430 * 1024 // len(line))
    body = json.dumps({"log": log}).encode()
    assert len(body) > 512 * 1024 + 1024
    status, error = server.post("/api/replay", body)
    assert (status, error["code"]) == (400, "bad_log"), error
    assert error["message"].startswith("line 1:")
    status, error = server.post("/api/replay", {"log": "x" * (512 * 1024 + 1)})
    assert (status, error["code"]) == (413, "too_large")
    assert "512 KB" in error["message"]


def test_positions_are_evaluated_exactly_near_the_end_and_estimated_before(server: Server) -> None:
    plies = len(DUEL.splitlines()) - 1
    status, early = server.post("/api/analysis", {"log": _prefix(DUEL, 4)})
    assert status == 200, early
    assert early["kind"] == "estimate" and early["samples"] > 0 and early["seat"] in (0, 1)
    assert 0 <= early["scores"][0] <= 1 and early["reason"]
    assert {entry["move"]["type"] for entry in early["moves"]} <= {"lead", "beat", "second", "take"}
    status, blind = server.post("/api/analysis", {"log": _prefix(DUEL, 1)})
    assert blind["kind"] == "none" and "blind" in blind["reason"]
    status, over = server.post("/api/analysis", {"log": DUEL})
    assert over["kind"] == "over" and sorted(over["scores"]) == [0.0, 1.0]
    # The last move of the game: one card left to play, which the solver settles at once.
    status, last = server.post("/api/analysis", {"log": _prefix(DUEL, plies - 1)})
    assert last["kind"] == "exact", last
    assert last["value"] in (1, 0, -1) and last["best"]
    # Asked again, it is remembered: the same answer.
    assert server.post("/api/analysis", {"log": _prefix(DUEL, 4)})[1] == early


def test_the_computer_answers_a_position_with_a_legal_move(server: Server) -> None:
    text = _prefix(DUEL, 10)
    status, answer = server.post("/api/analysis/move?level=easy", {"log": text})
    assert status == 200, answer
    game = read_log(text)
    assert game.is_legal(parse_event(answer["move"]))
    assert server.post("/api/analysis/move?level=godlike", {"log": text})[0] == 400
    assert server.post("/api/analysis/move", {"log": DUEL})[0] == 409


@pytest.mark.parametrize(("twice", "lead"), [("6C", "AH"), ("AH", "6C")])
def test_the_perfect_computer_knows_which_positions_the_log_has_had_twice(
    server: Server, twice: str, lead: str
) -> None:
    # Seat 1 wins leading either card, but a lead into a position the game has had twice draws (§3.3.3).
    other = "AH" if twice == "6C" else "6C"
    seen = {"hands": [["7D", "8D"], [other]], "pile": [twice], "to_act": 0, "phase": "respond", "count": 2}
    start = {"type": "start", "format": 1, "players": 2, "dealer": 0, "rules": {"pass_sixes": True, "must_beat": False}}
    position = {"type": "position", "trumps": ["S", "H"], "hands": [["7D", "8D"], ["6C", "AH"]], "pile": []}
    position |= {"to_act": 1, "phase": "lead", "seen": [seen]}
    text = json.dumps(start) + "\n" + json.dumps(position) + "\n"
    status, answer = server.post("/api/analysis/move?level=perfect", {"log": text})
    assert status == 200, answer
    assert answer["move"] == {"type": "lead", "seat": 1, "card": lead}


def _text(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_finished_hand_of_a_table_gives_its_log_and_an_unfinished_one_does_not(server: Server) -> None:
    status, created = server.post("/api/tables", {"players": 2, "name": "Ana"})
    table_id, token0 = created["table"]["id"], created["token"]
    joined = server.post(f"/api/tables/{table_id}/join", {"name": "Bo"})[1]
    url = f"{server.ws}/ws/tables/{table_id}"

    async def one_hand() -> dict[str, object]:
        seats = [Seat(url, token0, 0, rng=random.Random(5)), Seat(url, joined["token"], 1, rng=random.Random(6))]
        for seat in seats:
            await seat.connect()
            await seat.update()
        await play_until(seats, hand_over)
        end: dict[str, object] = seats[0].last["hand_end"]  # type: ignore[index]
        await seats[0].send({"type": "next_hand", "last_seen": seats[0].event_no})
        await seats[0].update()
        for seat in seats:
            await seat.close()
        return end

    end = asyncio.run(one_hand())
    with urllib.request.urlopen(f"{server.http}/api/tables/{table_id}/hands/1/log", timeout=10) as response:
        status, text, headers = response.status, response.read().decode(), response.headers
    assert status == 200
    assert [json.loads(line) for line in text.splitlines()] == end["log"]
    assert read_log(text).is_over()
    assert (headers["Trumps-Seed"], headers["Trumps-Seed-Hash"]) == (end["seed"], end["seed_hash"])
    status, text = _text(f"{server.http}/api/tables/{table_id}/hands/2/log")
    assert status == 409 and json.loads(text)["code"] == "hand_not_over"
    assert _text(f"{server.http}/api/tables/{table_id}/hands/9/log")[0] == 404
    assert _text(f"{server.http}/api/tables/nope/hands/1/log")[0] == 404
    # The hand is a number of ASCII digits, as written in the docs: no sign, space, "_" or digits of another script
    # (which Python's int() would read as 1, 10 or 1).
    for written in ("+1", "%201", "1%20", "0_1", "%D9%A1", "-1", "1.0", "x"):
        status, text = _text(f"{server.http}/api/tables/{table_id}/hands/{written}/log")
        assert (status, json.loads(text)["code"]) == (400, "bad_request"), written
    status, text = _text(f"{server.http}/api/tables/{table_id}/hands/{'9' * 5000}/log")
    assert (status, json.loads(text)["code"]) == (404, "not_found")
    status, page = _text(f"{server.http}/replay")
    assert status == 200 and "/static/js/replay.js" in page


def test_a_position_is_evaluated_with_the_repetitions_of_its_own_game(server: Server) -> None:
    """The same cards, seat and pile reached in a game where they came up twice before and in a game that starts
    there: the take repeats the position a third time in the first, a draw, and loses in the second. Each log gets
    its own answer, whichever the board was asked first."""
    lines = (VECTORS / "position_with_seen_history.jsonl").read_text().splitlines()
    fresh = (
        lines[0]
        + '\n{"type":"position","trumps":["S","H"],"hands":[["AS","7D"],["KH"]],"pile":["8D","9D","6C"],'
        + '"to_act":1,"phase":"respond"}\n'
    )
    seen = "".join(line + "\n" for line in lines[:9])
    assert read_log(fresh).state() == read_log(seen).state()
    takes = []
    for text in (fresh, seen):
        status, found = server.post("/api/analysis", {"log": text})
        assert status == 200 and found["kind"] == "exact" and found["value"] == 1, found
        takes.append(next(entry["value"] for entry in found["moves"] if entry["move"]["type"] == "take"))
    assert takes == [-1, 0]


def _position_log(trumps: str, hands: str, pile: str, to_act: int, phase: str, header: str = "{}") -> str:
    line = f'"trumps":{trumps},"hands":{hands},"pile":{pile},"to_act":{to_act},"phase":"{phase}"'
    return '{"type":"start","rules":' + header + "}\n" + '{"type":"position",' + line + "}\n"


# Pairs of positions with the same cards, seat, pile and phase, of two games: the first asked first. The table of
# the board's solver, kept between the logs it is sent, is keyed by those alone, and so was its memory of answers.
OTHER_GAMES = [
    # A♠ led against 7♦: it wins with trumps S and H; with D its owner's trump, 7♦ draws at the tie check.
    (_position_log('["S","D"]', '[["AS"],["7D"]]', "[]", 0, "lead"), 0),
    (_position_log('["S","H"]', '[["AS"],["7D"]]', "[]", 0, "lead"), 1),
    # The same cards with must_beat off and on: the rule changes the value.
    (
        _position_log(
            '["H","D"]', '[["QS","6S","TD","9C","AH"],["9S"]]', '["6D"]', 1, "respond", '{"must_beat":false}'
        ),
        1,
    ),
    (
        _position_log('["H","D"]', '[["QS","6S","TD","9C","AH"],["9S"]]', '["6D"]', 1, "respond", '{"must_beat":true}'),
        0,
    ),
]


def test_a_position_of_another_game_is_not_answered_with_the_first_games_value(server: Server) -> None:
    for text, value in OTHER_GAMES:
        status, found = server.post("/api/analysis", {"log": text})
        assert status == 200 and (found["kind"], found["value"]) == ("exact", value), (text, found)


def test_a_replays_notifications_are_the_protocols_as_an_update_carries_them(server: Server) -> None:
    """Each ply's notifications are those of the protocol (spec/protocol.schema.json: ``Took``, ``TurnPassed``,
    ``GameOver`` ...), the same objects an update carries: a game over's ``loser`` and ``reason`` null where they
    have no value, as its schema requires, not left out."""
    schema = json.loads((VECTORS.parent / "protocol.schema.json").read_text())
    kinds = {"took": "Took", "went_out": "WentOut", "game_over": "GameOver", "six_passed": "SixPassed"}
    kinds["turn"] = "TurnPassed"
    # One validator a kind: jsonschema.validate would check the whole schema again for every notification.
    validators = {
        kind: jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})
        for kind, name in kinds.items()
    }
    checked = set()
    for name in ("full_game_duel.jsonl", "draw_by_agreement.jsonl", "full_game_three_players.jsonl"):
        status, replay = server.post("/api/replay", {"log": (VECTORS / name).read_text()})
        assert status == 200
        for ply in replay["plies"]:
            for note in ply["notifications"]:
                validators[note["type"]].validate(note)
                checked.add(note["type"])
    assert checked == set(kinds)
