"""JSON Schemas (draft 2020-12) of the log lines and of the replayed state, from the pydantic models.

The models in :mod:`rules.events` and :mod:`rules.state` are the one description of
the formats; these functions only dress pydantic's schemas for other languages: the
dialect is declared, and ``type`` becomes a required field of every log line (pydantic
gives it a default because Python code never needs to write it).

>>> import jsonschema
>>> schema = log_schema()
>>> jsonschema.Draft202012Validator(schema).is_valid({"type": "beat", "seat": 0, "card": "QD"})
True
>>> jsonschema.Draft202012Validator(schema).is_valid({"type": "beat", "seat": 0, "card": "1D"})
False
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from rules.events import LogLine
from rules.state import GameState

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def log_schema() -> dict[str, Any]:
    """The schema every line of a valid log satisfies: the header or one of the events."""
    schema = TypeAdapter(LogLine).json_schema()
    for definition in schema["$defs"].values():
        kind = definition.get("properties", {}).get("type", {})
        if "const" in kind:
            definition["required"] = ["type", *definition.get("required", [])]
    return {
        "$schema": DIALECT,
        "title": "Svoi Kozyri log line",
        "description": (
            "One line of a replay log (JSON Lines): the first line is a `start` header, every later line one "
            "input event. The schema checks the shape of a line; whether an event is legal is for the rules."
        ),
        **schema,
    }


def state_schema() -> dict[str, Any]:
    """The schema of the state ``trumps replay --json`` prints (and of each line of a vector's states)."""
    schema = GameState.model_json_schema(mode="validation")
    return {"$schema": DIALECT, **schema}


def protocol_schema() -> dict[str, Any] | None:
    """The online server's message schemas, when the server's protocol module provides them."""
    try:
        from rules.server.protocol import protocol_schema as server_schema  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    schema: dict[str, Any] = server_schema()
    return schema
