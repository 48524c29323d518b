"""JSON Schemas (draft 2020-12) of the log lines and of the replayed state, from the pydantic models.

The models in :mod:`rules.events` and :mod:`rules.state` are the one description of
the formats; these functions only dress pydantic's schemas for other languages (see
:func:`portable`): the dialect is declared, ``type`` becomes a required field of every
message (pydantic gives it a default because Python code never needs to write it), and
the OpenAPI keyword ``discriminator``, which draft 2020-12 lacks and strict validators
such as Ajv refuse, becomes ``if``/``then`` on ``type``.

A schema of what a program reads (a log line, a client's message) is pydantic's
validation schema, where a field with a default is optional (:data:`ACCEPTED`); one of
what it writes (the state, the server's messages) is its serialization schema, where
every field a dump always holds is required, null or not (:data:`SENT`).

>>> import jsonschema
>>> schema = log_schema()
>>> jsonschema.Draft202012Validator(schema).is_valid({"type": "beat", "seat": 0, "card": "QD"})
True
>>> jsonschema.Draft202012Validator(schema).is_valid({"type": "beat", "seat": 0, "card": "1D"})
False
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, get_args

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode

from rules.cards import CARD_PATTERN
from rules.events import LogLine
from rules.options import MAX_PLAYERS, MIN_PLAYERS, PLAYERS
from rules.outcome import DrawReason, LossReason
from rules.state import GameState

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def portable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` in plain draft 2020-12 that strict validators accept, with ``type`` required in every message.

    A union tagged by ``type`` (pydantic's ``oneOf`` with ``discriminator``) becomes: ``type`` is
    required and one of the tags, and ``if`` it is a tag ``then`` the object is that tag's
    model. So a validator reports only the errors of the model the ``type`` names.
    """
    for definition in schema.get("$defs", {}).values():
        if "const" in definition.get("properties", {}).get("type", {}):
            definition["required"] = ["type", *[name for name in definition.get("required", []) if name != "type"]]
    return _two_characters(_untag(schema))  # type: ignore[no-any-return]


def _two_characters(node: Any) -> Any:
    """Every card code at most two characters long, besides matching its pattern.

    A pattern is an ECMA-262 regular expression, whose ``$`` matches only at the end; but the validators that
    use their language's own (Python's ``re``, Java's, PCRE) also let ``$`` match before a final line feed, and
    would take ``"AS\\n"`` for a card code, which the reader refuses.
    """
    if isinstance(node, list):
        return [_two_characters(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _two_characters(value) for key, value in node.items()}
    if node.get("pattern") == CARD_PATTERN:
        node["maxLength"] = 2
    return node


def _untag(node: Any) -> Any:
    if isinstance(node, list):
        return [_untag(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _untag(value) for key, value in node.items()}
    tag = node.pop("discriminator", None)
    if tag is None:
        return node
    mapping: dict[str, str] = tag["mapping"]
    node.pop("oneOf")
    field = tag["propertyName"]
    return {
        **node,
        "type": "object",
        "properties": {field: {"enum": list(mapping)}},
        "required": [field],
        "allOf": [
            {"if": {"properties": {field: {"const": value}}}, "then": {"$ref": ref}} for value, ref in mapping.items()
        ],
    }


ACCEPTED: JsonSchemaMode = "validation"
"""The mode of a schema of what a program reads (a log line, a client's message): a field with a default may be
left out, as the reader fills it in."""
SENT: JsonSchemaMode = "serialization"
"""The mode of a schema of what a program writes (the state ``trumps replay --json`` prints, the server's messages):
with the models' ``json_schema_serialization_defaults_required``, every field is required, null or not, but one
the model leaves out when it has no value (``exclude_if``), which a client must then test for."""

REF = "#/$defs/"

_NAME = re.compile(r"[A-Z][A-Za-z0-9]*(-Input|-Output)?")
"""A definition's name: a model's (pydantic's), with a suffix where one model is read and written differently."""


class SchemaCollision(ValueError):
    """Two definitions would share one name in a combined schema: one would silently stand for the other."""


def combined(parts: Mapping[str, tuple[TypeAdapter[Any], JsonSchemaMode]]) -> dict[str, Any]:
    """The ``$defs`` of several schemas in one document, made :func:`portable`, each part under its name.

    The parts are generated together, each in its mode (:data:`ACCEPTED` or :data:`SENT`), so a model is
    one definition under its own name wherever it is used, unless it is both read and written and its two
    schemas differ (a field with a default, optional in one, required in the other): then it is two,
    ``NAME-Input`` (as accepted) and ``NAME-Output`` (as sent), each referenced where it is meant. Two models
    of one name, or a part named as a definition it is not, raise :class:`SchemaCollision`: nothing is merged
    by name.
    """
    keys, shared = TypeAdapter.json_schemas(
        [(name, mode, adapter) for name, (adapter, mode) in parts.items()], ref_template=REF + "{model}"
    )
    order = GenerateJsonSchema().sort  # keys in the order one schema alone has them (generating several skips it)
    defs: dict[str, Any] = order(shared).get("$defs", {})
    for (name, _), schema in keys.items():
        schema = order(schema)
        if schema == {"$ref": REF + name}:
            continue  # a model: its definition is already under its name
        if name in defs:
            raise SchemaCollision(f"the part {name} is not the definition {name} of another part")
        defs[name] = schema
    for name in defs:
        if not _NAME.fullmatch(name):
            raise SchemaCollision(f"two different models share a name: {name!r} is pydantic's name for one")
    return _one_of_twins(portable({"$defs": defs}))["$defs"]  # type: ignore[no-any-return]


def _one_of_twins(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with ``X`` for ``X-Input`` and ``X-Output`` wherever the two are the same (once their own
    references are: a model that only holds one that is read and written differently differs too)."""
    defs = schema["$defs"]
    while twins := [
        name.removesuffix("-Input")
        for name in defs
        if name.endswith("-Input") and defs[name] == defs.get(name.removesuffix("-Input") + "-Output")
    ]:
        renamed: dict[str, str] = {}
        for name in twins:
            if name in defs:
                raise SchemaCollision(f"{name} is a definition besides {name}-Input and {name}-Output")
            defs[name] = defs.pop(name + "-Input")
            del defs[name + "-Output"]
            renamed |= {REF + name + "-Input": REF + name, REF + name + "-Output": REF + name}
        schema = _references(schema, renamed)
        defs = schema["$defs"]
    return schema


def _references(node: Any, renamed: Mapping[str, str]) -> Any:
    if isinstance(node, list):
        return [_references(item, renamed) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: renamed.get(value, value) if key == "$ref" else _references(value, renamed) for key, value in node.items()
    }


def log_schema() -> dict[str, Any]:
    """The schema every line of a valid log satisfies: the header or one of the events."""
    schema = portable(TypeAdapter(LogLine).json_schema(mode=ACCEPTED))
    schema["$defs"]["Start"] = with_dealer_a_seat(schema["$defs"]["Start"])
    return {
        "$schema": DIALECT,
        "title": "Svoi Kozyri log line",
        "description": (
            "One line of a replay log (JSON Lines): the first line is a `start` header, every later line one "
            "input event. The schema checks the shape of a line; whether an event is legal is for the rules."
        ),
        **schema,
    }


def with_dealer_a_seat(model: dict[str, Any]) -> dict[str, Any]:
    """A model with ``players`` and ``dealer`` (a log's header, a new table) with its dealer a seat of its game:
    below ``players``, which is ``PLAYERS`` when left out.

    The reader and the server refuse any other dealer as they read it (:func:`rules.options.dealer_problem`),
    before a rule is applied, so the schema says it too.
    """
    cases = []
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        condition: dict[str, Any] = {"properties": {"players": {"const": players}}}
        if players != PLAYERS:  # a header without players has the default number
            condition["required"] = ["players"]
        cases.append({"if": condition, "then": {"properties": {"dealer": {"type": "integer", "maximum": players - 1}}}})
    return {**model, "allOf": cases}


def state_schema() -> dict[str, Any]:
    """The schema of the state ``trumps replay --json`` prints (and of each line of a vector's states).

    Of what is printed (:data:`SENT`): every field is required. An outcome is exact: ``loser`` exactly in a loss,
    ``reason`` in a draw and in a loss by resignation, never null.
    """
    schema = portable(GameState.model_json_schema(mode=SENT))
    schema["$defs"]["Outcome"] = outcome_schema(schema["$defs"]["Outcome"])
    return {"$schema": DIALECT, **schema}


def outcome_schema(outcome: dict[str, Any]) -> dict[str, Any]:
    """The outcome as printed: ``loser`` only in a loss, ``reason`` in a draw (tie check, repetition, agreement)
    and in a loss by resignation (``resigned``) only, neither ever null."""
    properties = outcome["properties"]
    for name in ("loser", "reason"):
        field = properties[name]
        field.pop("default", None)
        (kind,) = [option for option in field.pop("anyOf") if option.get("type") != "null"]
        field.update({key: value for key, value in kind.items() if key not in field})
    return {
        **outcome,
        "oneOf": [
            {
                "properties": {
                    "result": {"const": "loss"},
                    "loser": True,
                    "reason": {"enum": list(get_args(LossReason))},
                },
                "required": ["loser"],
            },
            {
                "properties": {
                    "result": {"const": "draw"},
                    "loser": False,
                    "reason": {"enum": list(get_args(DrawReason))},
                },
                "required": ["reason"],
            },
        ],
    }


def protocol_schema() -> dict[str, Any] | None:
    """The online server's message schemas, when the server's protocol module provides them."""
    try:
        from rules.server.protocol import protocol_schema as server_schema  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    schema: dict[str, Any] = server_schema()
    return schema
