"""The JSON Schemas of spec/: valid draft 2020-12, accepting every vector line, refusing malformed lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from rules.events import EventError, parse_event
from rules.log import JSON_WHITESPACE
from rules.spec.schemas import log_schema, protocol_schema, state_schema
from rules.spec.vectors import text_lines

SPEC = Path(__file__).resolve().parents[2] / "spec"
VECTORS = SPEC / "vectors"


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SPEC / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def objects(path: Path) -> list[Any]:
    """The JSON objects of a log file, read as the log format says (a byte order mark first, blank lines)."""
    text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    return [json.loads(line, parse_int=_number) for line in text_lines(text) if line.strip(JSON_WHITESPACE)]


def _number(digits: str) -> int | float:
    # An integer longer than Python converts (log format §L1.8 allows any length) is still a JSON number.
    return int(digits) if len(digits) <= 4000 else float(digits)


def test_schemas_declare_draft_2020_12() -> None:
    for schema in (log_schema(), state_schema()):
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_line_of_every_good_vector_is_a_valid_log_line() -> None:
    log = validator("log.schema.json")
    count = 0
    for path in VECTORS.glob("*.jsonl"):
        if path.name.endswith((".states.jsonl", ".bad.jsonl")):
            continue
        for line in objects(path):
            errors = list(log.iter_errors(line))
            assert not errors, f"{path.name}: {line}: {errors[0].message}"
            count += 1
    assert count > 1000


def test_every_state_line_is_a_valid_state() -> None:
    state = validator("state.schema.json")
    paths = list(VECTORS.glob("*.states.jsonl"))
    assert paths
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        for line in lines[lines.count("null") :]:  # null: a line before the header (docs/conformance.md)
            errors = list(state.iter_errors(json.loads(line)))
            assert not errors, f"{path.name}: {errors[0].message}"


@pytest.mark.parametrize(
    "line",
    [
        {"type": "lead", "seat": 0, "card": "1D"},  # bad card code
        {"type": "lead", "seat": 0, "card": "6c"},  # lower-case suit
        {"type": "lead", "seat": 0, "card": "10S"},  # the ten is T
        {"type": "pass", "seat": 0},  # unknown type
        {"seat": 0, "card": "6S"},  # no type
        {"seat": 0},  # no type (would otherwise look like a take)
        {},  # not even a header without its type
        {"type": "beat", "seat": 0},  # missing card
        {"type": "take"},  # missing seat
        {"type": "take", "seat": "1"},  # mistyped seat
        {"type": "take", "seat": 4},  # no seat 4
        {"type": "choose_trump", "seat": 1, "suit": "X"},  # no such suit
        {"type": "start", "players": 5},  # two to four players
        {"type": "start", "dealer": 2},  # the dealer is a seat of the game, of two players by default
        {"type": "start", "players": 3, "dealer": 3},
        {"type": "lead", "seat": 0, "card": "AS\n"},  # where $ also matches before a final LF (Python, Java, PCRE)
        {"type": "deal", "hands": [["AS"], ["KH\n"]]},
        {"type": "start", "rules": {"pass_sixes": 1}},  # a flag is a boolean
        {"type": "deal", "hands": [["6S", "AS"], ["7X"]]},  # bad card in a deal
        {"type": "position", "trumps": ["S", "H"], "hands": [["AS"], ["KH"]], "pile": [], "to_act": 0},
        {"type": "position", "trumps": ["S"], "hands": [["AS"]], "pile": [], "to_act": 0, "phase": "deal"},
    ],
)
def test_malformed_lines_are_rejected(line: dict[str, Any]) -> None:
    assert not validator("log.schema.json").is_valid(line)
    with pytest.raises(EventError):  # and the reader refuses the line by itself, before the rules see it
        parse_event(json.dumps(line))


@pytest.mark.parametrize(
    "line",
    [
        {"type": "start"},
        {"type": "start", "format": 1, "players": 4, "dealer": 3, "rules": {"must_beat": True}},
        {"type": "start", "players": 3, "dealer": 2},
        {"type": "start", "dealer": 1},
        {"type": "take", "seat": 1, "count": 3},
        {"type": "beat", "seat": 0, "card": "QD", "comment": "extra fields are ignored"},
        {"type": "position", "trumps": ["S", "H"], "hands": [["AS"], []], "pile": ["9C"], "to_act": 0,
         "phase": "respond"},
    ],
)  # fmt: skip
def test_well_formed_lines_are_accepted(line: dict[str, Any]) -> None:
    assert validator("log.schema.json").is_valid(line)
    parse_event(json.dumps(line))


def test_state_schema_rejects_a_bad_state() -> None:
    state = validator("state.schema.json")
    good = {"phase": "lead", "to_act": 0, "trumps": ["S", "H"], "hands": [["6S"], ["7H"]], "pile": [], "outcome": None}
    assert state.is_valid(good)
    assert not state.is_valid({**good, "phase": "taking"})  # a transient state of the machine, never printed
    assert not state.is_valid({**good, "hands": [["6s"], []]})
    assert not state.is_valid({key: value for key, value in good.items() if key != "outcome"})
    assert not state.is_valid({**good, "outcome": {"result": "win", "out_order": []}})


def test_protocol_schema_is_included_when_the_server_provides_it() -> None:
    schema = protocol_schema()
    path = SPEC / "protocol.schema.json"
    assert (schema is not None) == path.exists()
    if schema is not None:
        validator("protocol.schema.json")


def _keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {key for value in node.values() for key in _keys(value)}
    if isinstance(node, list):
        return {key for value in node for key in _keys(value)}
    return set()


def test_no_schema_uses_keywords_outside_draft_2020_12() -> None:
    for name in ("log.schema.json", "state.schema.json", "protocol.schema.json"):
        assert "discriminator" not in _keys(json.loads((SPEC / name).read_text(encoding="utf-8"))), name


def test_every_message_must_say_its_type() -> None:
    schema = json.loads((SPEC / "protocol.schema.json").read_text(encoding="utf-8"))
    for name, definition in schema["$defs"].items():
        if "const" in definition.get("properties", {}).get("type", {}):
            assert "type" in definition["required"], name
    protocol = validator("protocol.schema.json")
    assert protocol.is_valid({"type": "move", "event": {"type": "take", "seat": 0}, "last_seen": 1})
    assert not protocol.is_valid({"type": "move", "event": {"seat": 0}, "last_seen": 1})


def test_an_outcome_never_holds_null() -> None:
    state = validator("state.schema.json")
    finished = {"phase": "finished", "to_act": None, "trumps": ["S", "H"], "hands": [[], ["7C"]], "pile": ["9D"]}
    assert state.is_valid({**finished, "outcome": {"result": "loss", "loser": 1, "out_order": [0]}})
    assert not state.is_valid({**finished, "outcome": {"result": "loss", "loser": None, "out_order": [0]}})
    assert not state.is_valid({**finished, "outcome": {"result": "draw", "reason": None, "out_order": [0]}})
    assert not state.is_valid({**finished, "outcome": {"result": "draw", "out_order": [0]}})


def test_the_text_on_null_names_every_field_that_may_be_null() -> None:
    """Log format §L2.4 and the vector on null list the nullable fields: exactly those the schema lets be null."""
    schema = log_schema()
    nullable = {
        field
        for definition in schema["$defs"].values()
        for field, prop in definition.get("properties", {}).items()
        if {"type": "null"} in prop.get("anyOf", [])
    }
    assert nullable == {"count", "out_order", "seen"}
    index = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))
    (vector,) = [entry for entry in index["bad"] if entry["name"] == "null_for_a_field_that_is_not_nullable"]
    clause = (SPEC.parent / "docs" / "log-format.md").read_text(encoding="utf-8").split("**§L2.4**")[1]
    clause = clause.split("**§L2.5**")[0]
    for field in nullable:
        assert field in vector["shows"], field
        assert f"`{field}`" in clause or f".{field}`" in clause, field  # `out_order`, or `take.count`


def test_every_note_on_a_field_is_in_the_page_of_events() -> None:
    """A note of rules.spec.pages written for one field of one line is shown there, not hidden by a generic one."""
    from rules.spec.pages import FIELD_NOTES, events_page

    page = events_page()
    for key, note in FIELD_NOTES.items():
        assert note is not None and note.replace("``", "`") in page, key


def _descriptions(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["description"]] if isinstance(node.get("description"), str) else []
        return own + [text for value in node.values() for text in _descriptions(value)]
    if isinstance(node, list):
        return [text for value in node for text in _descriptions(value)]
    return []


@pytest.mark.parametrize("schema", [log_schema, state_schema, protocol_schema])
def test_no_description_of_a_schema_is_python(schema: Any) -> None:
    """A model's docstring is its description in spec/, read by implementers in any language: no doctest there."""
    for text in _descriptions(schema()):
        assert ">>>" not in text, text


def test_the_state_schema_requires_exactly_what_replay_json_prints() -> None:
    """Every field ``trumps replay --json`` always prints is required (null allowed where it may be null), and it
    prints no field the schema does not list: a state of every vector, each line of its states as the command
    prints it after that line (tests/spec/test_spec_vectors.py checks the last against the command itself)."""
    from schema_shapes import Shapes
    from typer.testing import CliRunner

    from rules.cli import app

    shapes = Shapes(json.loads((SPEC / "state.schema.json").read_text(encoding="utf-8")))
    index = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))
    for vector in index["vectors"]:
        printed = CliRunner().invoke(app, ["replay", str(VECTORS / vector["log"]), "--json"])
        assert printed.exit_code == 0, printed.output
        shapes.read(json.loads(printed.stdout))
        for line in (VECTORS / vector["states"]).read_text(encoding="utf-8").splitlines():
            if line != "null":  # a blank line before the header (docs/conformance.md)
                shapes.read(json.loads(line))
    assert set(shapes.seen) == {"GameState", "Outcome"}
    problems = shapes.problems()
    assert not problems, "\n".join(problems)


def _models_named(name: str, *fields: str) -> type[Any]:
    from pydantic import ConfigDict, create_model

    config = ConfigDict(json_schema_serialization_defaults_required=True)
    return create_model(name, __config__=config, **{field: (int | None, None) for field in fields})


def test_combined_schemas_split_a_model_read_and_written_differently_and_never_merge_by_name() -> None:
    """A model accepted with a default optional and sent with it required is two definitions; one whose two
    schemas are the same is one; two models of one name, or a part named as another definition, are an error."""
    from pydantic import TypeAdapter, create_model

    from rules.spec.schemas import ACCEPTED, SENT, SchemaCollision, combined

    take, lead = _models_named("Take", "count"), _models_named("Lead")
    sent = create_model("Sent", take=(take, ...), lead=(lead, ...))
    defs = combined(
        {
            "Sent": (TypeAdapter(sent), SENT),
            "Take": (TypeAdapter(take), ACCEPTED),
            "Lead": (TypeAdapter(lead), ACCEPTED),
        }
    )
    assert sorted(defs) == ["Lead", "Sent", "Take", "Take-Input", "Take-Output"]
    assert defs["Sent"]["properties"]["take"] == {"$ref": "#/$defs/Take-Output"}
    assert defs["Take"] == {"$ref": "#/$defs/Take-Input"}  # the part, by its name
    assert (defs["Take-Input"].get("required"), defs["Take-Output"]["required"]) == (None, ["count"])

    other = _models_named("Take", "seat")
    both = create_model("Both", a=(take, ...), b=(other, ...))
    with pytest.raises(SchemaCollision, match="two different models share a name"):
        combined({"Both": (TypeAdapter(both), SENT)})
    with pytest.raises(SchemaCollision, match="the part Take"):
        combined({"Sent": (TypeAdapter(sent), SENT), "Take": (TypeAdapter(int), SENT)})
