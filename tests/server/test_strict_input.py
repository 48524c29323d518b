"""What a client sent that is mistyped is refused in the words of JSON and of the game, as a log line's refusal is
(log format §L2.2), never in pydantic's words for Python's types, and never repeating what was sent."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import StarletteDeprecationWarning

from rules.events import ChooseTrump, Resign, event_dict
from rules.game import Game
from rules.server.app import create_app
from rules.server.limits import Settings
from rules.server.protocol import CreateTable, JoinTable, ProtocolError, describe_validation, parse_client_message
from rules.server.verify import hand_end_problem, seed_hash

with warnings.catch_warnings():  # this Starlette would rather use httpx2, which is not installed here
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The server in-process: the analysis board's requests need no table."""
    db = tmp_path_factory.mktemp("strict") / "strict.sqlite3"
    with TestClient(create_app(Settings(db=str(db), bot_processes=0, sync="normal"))) as client:
        yield client


NONCE = "Input should be a string, an integer or null"
MOVES = "a move is choose_trump, lead, beat, second or take"
NOT_NUMBER = f"must be a string, not a number: {MOVES}"
NOT_ARRAY = f"must be a string, not an array: {MOVES}"


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ('{"type": "move", "event": "beat", "last_seen": 1}', "invalid move message: event: Input should be an object"),
        ('{"type": "move", "event": [], "last_seen": 1}', "invalid move message: event: Input should be an object"),
        (
            '{"type": "move", "event": {"type": "beat", "seat": 7, "card": "QD"}, "last_seen": 1}',
            "invalid move message: event.seat: not a seat: seats are numbered 0 to players-1 (0 to 3 at most)",
        ),
        (
            '{"type": "move", "event": {"type": "lead", "seat": 0, "card": "<b>QD</b>"}, "last_seen": 1}',
            "invalid move message: event.card: not a card code (rank 6-9 T J Q K A, then suit S H D C)",
        ),
        ('{"type": "move", "last_seen": 1}', "invalid move message: event: missing"),
        # A type that is there but no string is named as such, not as missing (both for the message and the event).
        ('{"type": null}', "the message's 'type' must be a string, not null"),
        ('{"last_seen": 1}', "the message's 'type' is missing"),
        ('{"type": "move", "event": {"type": 1, "seat": 1, "suit": "H"}, "last_seen": 3}', f"event.type {NOT_NUMBER}"),
        ('{"type": "move", "event": {"type": ["lead"]}, "last_seen": 3}', f"event.type {NOT_ARRAY}"),
        ('{"type": "move", "event": {"seat": 1}, "last_seen": 3}', f"event.type is missing: {MOVES}"),
        ('{"type": "move", "event": {"type": "pass"}, "last_seen": 3}', f"unknown event.type 'pass': {MOVES}"),
        (
            '{"type": "move", "event": {"type": "' + "x" * 41 + '"}, "last_seen": 3}',
            f"unknown event.type of 41 characters: {MOVES}",
        ),
        ('{"type": "ping", "nonce": 1.5}', f"invalid ping message: nonce: {NONCE}"),
        ('{"type": "ping", "nonce": true}', f"invalid ping message: nonce: {NONCE}"),
        ('{"type": "ping", "nonce": {}}', f"invalid ping message: nonce: {NONCE}"),
    ],
)
def test_a_mistyped_message_is_refused_in_plain_words_once(message: str, said: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(message)
    assert (refused.value.code, str(refused.value)) == ("bad_message", said)


@pytest.mark.parametrize(
    ("model", "body", "said"),
    [
        (CreateTable, {"computer": 5}, "computer: Input should be an array"),
        (CreateTable, {"computer": [2]}, "computer.0: Input should be an object"),
        (CreateTable, {"computer": [{"seat": 9}]}, "computer.0.seat: not a seat: seats are numbered 0 to players-1"),
        (JoinTable, {"seat": 4}, "seat: not a seat: seats are numbered 0 to players-1 (0 to 3 at most)"),
    ],
)
def test_a_mistyped_request_body_is_refused_in_plain_words(model: type, body: dict[str, Any], said: str) -> None:
    with pytest.raises(ValidationError) as refused:
        TypeAdapter(model).validate_python(body)
    assert describe_validation(refused.value).startswith(said), describe_validation(refused.value)


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("?level=easy&level=godlike", "level is given more than once"),
        ("?lvl=hard", "unknown query parameter 'lvl': the only one is level"),  # before: played medium, unsaid
        ("?level=EASY", "unknown level 'EASY': choose one of easy, medium, hard, perfect"),
    ],
)
def test_the_computers_move_takes_one_level_and_no_other_query_parameter(
    board: TestClient, query: str, said: str
) -> None:
    answer = board.post(f"/api/analysis/move{query}", json={"log": '{"type": "start"}\n'})
    assert (answer.status_code, answer.json()["code"], answer.json()["message"]) == (400, "bad_request", said)


def test_the_computers_move_without_a_level_is_medium_as_before(board: TestClient) -> None:
    # After the header seat 1 chooses its trump: the computer does, at the default level.
    answer = board.post("/api/analysis/move", json={"log": '{"type": "start"}\n'})
    assert answer.status_code == 200 and answer.json()["move"]["type"] == "choose_trump", answer.json()


def test_a_revealed_seed_of_any_length_is_checked_not_a_crash() -> None:
    # Deals §D1.1 allows a seed of any size; int() alone refuses more than 4,300 digits, and the check raised.
    game = Game(seed=1)
    for event in (ChooseTrump(seat=1, suit="H"), ChooseTrump(seat=0, suit="S"), game.sample_deal(), Resign(seat=1)):
        game.push(event)
    log = [game.header.model_dump(mode="json"), *(event_dict(event) for event in game.events)]
    long_seed = "1" * 5000
    outcome = game.outcome.model_dump(mode="json") if game.outcome else None
    hand_end = {"outcome": outcome, "seed": long_seed, "seed_hash": seed_hash(long_seed), "log": log}
    problem = hand_end_problem(hand_end)
    assert problem is not None and problem.code == "deal"
    assert hand_end_problem({**hand_end, "seed": "1", "seed_hash": seed_hash("1")}) is None
