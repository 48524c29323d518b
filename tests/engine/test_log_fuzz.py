"""No input makes the log reader fail with anything but a one-line LogError."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.log import LogError, read_log

HEADER = '{"type": "start"}\n'


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("[" * 100_000, "arrays and objects nested more than 512 deep (log format §L1.8)"),
        ('{"type": "lead", "seat": ' + "9" * 5000 + ', "card": "AS"}', "invalid lead event: seat: out of range"),
        ('{"type": "lead", "seat": 1e999, "card": "AS"}', "invalid lead event"),
        ('{"type": "lead", "seat": NaN, "card": "AS"}', "malformed JSON: NaN is not a JSON value"),
        ('{"type": "deal", "hands": ' + "[" * 500 + "]" * 500 + "}", "invalid deal event"),
        ('{"type": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}", "arrays and objects nested more than 512"),
        ('{"type": "start", "x": ' + "[" * 511 + "]" * 511 + "}", "a start header can only be the first line"),
        ('{"type": "start", "x": "' + "[" * 5000 + '"}', "a start header can only be the first line"),
    ],
)
def test_what_the_json_parser_chokes_on_is_a_bad_line(line: str, reason: str) -> None:
    with pytest.raises(LogError) as refused:
        read_log(HEADER + line + "\n")
    assert refused.value.line == 2
    assert str(refused.value).startswith(f"line 2: {reason}")
    assert "\n" not in str(refused.value)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)
_EVENT_LIKE = st.fixed_dictionaries(
    {"type": st.sampled_from(["start", "choose_trump", "deal", "position", "lead", "beat", "second", "take", "x"])},
    optional={
        "seat": st.integers(-2, 5) | _JSON,
        "card": st.sampled_from(["AS", "6H", "TD", "1C", ""]) | _JSON,
        "suit": st.sampled_from(list("SHDCX")) | _JSON,
        "count": st.integers(-1, 40) | _JSON,
        "hands": _JSON,
        "players": st.integers(0, 5) | _JSON,
        "phase": _JSON,
    },
)


def _only_log_errors(text: str | bytes) -> None:
    try:
        read_log(text)
    except LogError as error:
        assert "\n" not in str(error)


@settings(max_examples=300, deadline=None)
@given(st.lists(_EVENT_LIKE.map(json.dumps) | _JSON.map(json.dumps) | st.text(max_size=30), max_size=6))
def test_no_json_lines_escape_as_anything_but_a_log_error(lines: list[str]) -> None:
    _only_log_errors("\n".join(['{"type": "start"}', *lines]))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_no_bytes_escape_as_anything_but_a_log_error(data: bytes) -> None:
    _only_log_errors(HEADER.encode() + data)
