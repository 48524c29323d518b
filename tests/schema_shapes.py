"""What a JSON Schema of spec/ requires of each object, against the objects a program actually wrote.

A client generated from a schema trusts its ``required`` lists: a field that is always sent but not
required becomes an optional field it must test for. :class:`Shapes` follows every value of a message down
through the schema (``$ref``, the branches it matches, ``if``/``then``, properties, items) and notes, for each
definition an object was read by, the keys that object has and the names the schema requires of it. Then
:meth:`Shapes.problems` names a key that every object of a definition had but that the schema leaves
optional, and a key that an object had but the definition does not list.

Shared by tests/server (the messages of a real server) and tests/spec (the state ``trumps replay --json`` prints).
"""

from __future__ import annotations

from typing import Any

import jsonschema

REF = "#/$defs/"


class Shapes:
    """The objects met under each definition of ``schema`` (a whole document, with its ``$defs``)."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.seen: dict[str, list[tuple[frozenset[str], frozenset[str]]]] = {}
        """Per definition: the keys of each object read by it, and the names required of that object."""
        self.nodes: dict[str, Any] = {}
        """Each definition read (the document itself under its title)."""

    def read(self, value: Any, definition: str | None = None) -> None:
        """Check ``value`` against the document (or one of its definitions), then note every object in it."""
        node = self.schema if definition is None else {"$ref": REF + definition}
        errors = [error.message for error in self._validator(node).iter_errors(value)]
        assert not errors, (definition, errors[:3], value)
        self._walk(node, value, self.schema.get("title", "(the document)") if definition is None else None)

    def problems(self) -> list[str]:
        """A key always present but not required, or present but not listed, for each definition read."""
        found = []
        for name, seen in sorted(self.seen.items()):
            listed = set(self.nodes[name].get("properties", {}))
            always = frozenset.intersection(*(keys for keys, _ in seen))
            required = frozenset.intersection(*(names for _, names in seen))
            unlisted = set().union(*(keys for keys, _ in seen)) - listed
            if always - required:
                found.append(f"{name}: always sent ({len(seen)} times) but not required: {sorted(always - required)}")
            if unlisted:
                found.append(f"{name}: sent but not among its properties: {sorted(unlisted)}")
        return found

    def _validator(self, node: Any) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator({"$defs": self.defs, **node} if isinstance(node, dict) else node)

    def _matches(self, node: Any, value: Any) -> bool:
        return bool(self._validator(node).is_valid(value))

    def _walk(self, node: Any, value: Any, name: str | None) -> None:
        if not isinstance(node, dict):
            return  # true or false
        if "$ref" in node:
            target = node["$ref"].removeprefix(REF)
            self._walk(self.defs[target], value, target)
        required = set(node.get("required", []))
        for key in ("anyOf", "oneOf"):
            for branch in node.get(key, []):
                if self._matches(branch, value):
                    required |= set(branch.get("required", [])) if isinstance(branch, dict) else set()
                    self._walk(branch, value, None)
        union = False
        for part in node.get("allOf", []):
            if "if" in part:
                if self._matches(part["if"], value):
                    then = part.get("then", {})
                    union = union or "$ref" in then
                    required |= set(then.get("required", []))
                    self._walk(then, value, None)
            else:
                self._walk(part, value, None)
        if isinstance(value, dict) and "properties" in node:
            if name is not None and not union:  # a union tagged by type only names the tag: its models say the rest
                self.seen.setdefault(name, []).append((frozenset(value), frozenset(required)))
                self.nodes[name] = node
            for key, item in value.items():
                if key in node["properties"]:
                    self._walk(node["properties"][key], item, None)
        if isinstance(value, list) and "items" in node:
            for item in value:
                self._walk(node["items"], item, None)
