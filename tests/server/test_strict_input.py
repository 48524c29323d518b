"""What a client sent that is mistyped is refused in the words of JSON and of the game, as a log line's refusal is
(log format §L2.2), never in pydantic's words for Python's types, and never repeating what was sent."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from rules.server.protocol import CreateTable, JoinTable, ProtocolError, describe_validation, parse_client_message

NONCE = "Input should be a string, an integer or null"


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
